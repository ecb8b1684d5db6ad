"""C# and .NET: compiler errors (mcs, csc/Roslyn through MSBuild and `dotnet
build`), NuGet restore errors, unhandled exceptions, NUnit and `dotnet test`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule
from .stack import Frame, innermost_in_project, related_frames

ECOSYSTEM = "C#"

_CS_DOCS = "https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/"

# `'Price' does not contain a definition for 'GetCents'` (Roslyn) or
# "Type `Shop.Price' does not contain a definition for `GetCents'" (mcs)
_NO_DEFINITION = re.compile(r"does not contain a definition for [`'](?P<name>\w+)'")
_NOT_IN_CONTEXT = re.compile(r"The name [`'](?P<name>\w+)' does not exist in the current context")
_NO_TYPE = re.compile(
    r"The type or namespace name [`'](?P<name>[\w.]+)' (?:could not be found|does not exist)"
)


def _cs_hint(message: str) -> dict[str, Any]:
    for pattern in (_NO_DEFINITION, _NOT_IN_CONTEXT, _NO_TYPE):
        if m := pattern.search(message):
            return {"name": m.group("name")}
    return {}


@rule(
    id="csharp.compiler",
    category=FailureType.COMPILE,
    tool="csc",
    pattern=r"^\s*(?P<file>(?:[A-Za-z]:)?[^\s:(][^:(]*?\.(?:cs|csx|razor|cshtml|vb|fs))\((?P<line>\d+)(?:,(?P<column>\d+))?(?:,\d+,\d+)?\): (?:(?P<subcategory>[\w ]+) )?(?P<sev>error|warning) (?P<code>[A-Z]+\d+): (?P<message>.+?)(?: \[(?P<project>[^\]]+\.\w*proj)(?:::[^\]]*)?\])?\s*$",
    triggers=(
        "): error CS",
        "): error FS",
        "): error BC",
        "): error RZ",
        "): warning CS",
        "): warning FS",
    ),
    url=_CS_DOCS,
)
def csharp_compiler(m: re.Match[str], ctx: LineContext) -> Hit:
    """A C# (or F#/VB) compiler error: mcs, csc, MSBuild and `dotnet build`.

    What it detects: `src/Cart.cs(26,56): error CS1061: Type `Shop.Price'
    does not contain a definition for `GetCents' ...` (mono's mcs) and the
    same line as MSBuild prints it, with the project in brackets at the end
    (`D:\\a\\shop\\Shop\\Cart.cs(26,56): error CS1061: 'Price' does not
    contain a definition for 'GetCents' ... [D:\\a\\shop\\Shop\\Shop.csproj]`,
    hint["project"]); indented under the .NET 8 terminal logger's `Shop
    failed with 1 error(s)` line.  Windows and CI-runner paths are mapped
    onto the working tree; MSBuild's repeat of every error after `Build
    FAILED.` is the same record.  hint["name"] is the missing member, name or
    type.  Warnings (`warning CS0168`) are warning hits: a failure only when
    warnings failed the run (`-warnaserror`, `TreatWarningsAsErrors`; see
    docs/warnings.md); mcs's
    `(Location of the symbol related to previous error)` lines are not
    records.

    Example output (`mcs -out:shop.exe src/*.cs`, Mono C# compiler 6.8.0.105):
        src/Cart.cs(26,56): error CS1061: Type `Shop.Price' does not contain a definition for `GetCents' and no extension method `GetCents' of type `Shop.Price' could be found. Are you missing an assembly reference?
        Compilation failed: 1 error(s), 0 warnings

    Recipe: compile, escalated with the location and the missing name.

    References: https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/,
    https://learn.microsoft.com/en-us/visualstudio/msbuild/msbuild-diagnostic-format-for-tasks
    """
    message = m.group("message").strip()
    hint = _cs_hint(message)
    if m.group("project"):
        hint["project"] = m.group("project")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")) if m.group("column") else None,
        code=m.group("code"),
        hint=hint,
        warning=m.group("sev") == "warning",
    )


@rule(
    id="csharp.nuget",
    category=FailureType.INFRA,
    tool="nuget",
    pattern=r"^\s*(?P<project>\S.*?\.\w*proj) : error (?P<code>NU\d{4}): (?P<message>.+?)(?: \[[^\]]+\])?\s*$",
    triggers=(": error NU",),
    url="https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1101",
)
def csharp_nuget(m: re.Match[str], ctx: LineContext) -> Hit:
    """A NuGet restore error (`dotnet restore`, `dotnet build`, `msbuild -restore`).

    What it detects: `/src/Shop/Shop.csproj : error NU1101: Unable to find
    package Shop.Money. No packages exist with this id in source(s):
    nuget.org` and the other NU1xxx errors (NU1102 no matching version,
    NU1301 the feed cannot be reached): infra, at the project file;
    hint["package"] names the package.  A missing package is escalated, not
    installed: the name comes from the project, and a guess could be a
    typosquat.

    Example output (`dotnet restore`, NuGet's documented NU1101 line; no
    .NET SDK can be installed here):
        /src/Shop/Shop.csproj : error NU1101: Unable to find package Shop.Money. No packages exist with this id in source(s): nuget.org

    Recipe: infra, escalated: the package name, the feeds searched.

    References: https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1101,
    https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1301
    """
    message = m.group("message").strip()
    hint: dict[str, Any] = {}
    if package := re.search(
        r"Unable to find package '?(?P<package>[\w.-]+?)'?(?:\.? |\.$)", message
    ):
        hint["package"] = package.group("package")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("project"),
        code=m.group("code"),
        hint=hint,
    )


# -- unhandled exceptions ----------------------------------------------------------
# `  at Shop.Cart.Total () [0x00028] in /src/Cart.cs:26` (mono) and
# `   at Shop.Cart.Total() in /src/Cart.cs:line 26` (.NET)
FRAME = re.compile(
    r"^\s*at (?P<method>.+?)(?: \[0x[0-9a-f]+\])? in (?P<file>(?:[A-Za-z]:)?[^:<>]+?):(?:line )?(?P<line>\d+)\s*$"
)
_AT_NO_FILE = re.compile(r"^\s*at \S")
_EXCEPTION = re.compile(r"^\s*(?P<exc>[A-Z][\w.]*(?:Exception|Error)\w*)\s?: (?P<message>.*)$")
_LIBRARY = ("/usr/lib/mono/", "Microsoft.NET", "/dotnet/shared/", "<")
_INFRA_EXCEPTIONS = frozenset(
    {
        "System.Net.Http.HttpRequestException",
        "System.Net.Sockets.SocketException",
        "System.TimeoutException",
        "System.IO.IOException",
        "System.UnauthorizedAccessException",
        "System.OutOfMemoryException",
    }
)


def read_frame(line: str) -> Frame | None:
    if m := FRAME.match(line):
        return (m.group("file"), int(m.group("line")))
    return None


class _Unhandled:
    """The exception line(s) and the `at ... in file:line` frames."""

    max_lines = 400

    def __init__(self, ctx: LineContext, first: str) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.exc: str | None = None
        self.message = ""
        self.frames: list[Frame] = []
        self._exception(first)

    def _exception(self, text: str) -> None:
        if self.exc is None and (m := _EXCEPTION.match(text)):
            self.exc, self.message = m.group("exc"), m.group("message").strip()

    def feed(self, line: str, line_no: int) -> bool:
        if frame := read_frame(line):
            self.frames.append(frame)
            return True
        if _AT_NO_FILE.match(line) or line.strip().startswith("--- End of"):
            return True
        if line.startswith("[ERROR] FATAL UNHANDLED EXCEPTION:"):
            return True  # mono repeats the report; the frames that follow too
        if not self.frames and line.strip():
            self._exception(line)
            return True
        return not line.strip() and not self.frames

    def finish(self) -> Iterable[Hit]:
        if self.exc is None:
            return []
        frames = list(dict.fromkeys(self.frames))  # mono prints them twice
        chosen = innermost_in_project(frames, self.ctx, _LIBRARY)
        category = FailureType.INFRA if self.exc in _INFRA_EXCEPTIONS else FailureType.COMPILE
        return [
            Hit(
                signal=self.signal
                if self.signal.endswith(self.message)
                else f"{self.exc}: {self.message}",
                message=f"{self.exc}: {self.message}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                category=category,
                log_line=self.log_line,
                hint={"exception": self.exc},
                related=related_frames(frames, chosen),
                key=("dotnet-unhandled", self.exc, self.message, chosen),
            )
        ]


@rule(
    id="csharp.unhandled_exception",
    category=FailureType.COMPILE,
    tool="dotnet",
    pattern=r"^Unhandled (?:Exception:|exception\. )\s*(?P<rest>.*)$",
    triggers=("Unhandled Exception:", "Unhandled exception. "),
    url="https://learn.microsoft.com/en-us/dotnet/standard/exceptions/",
)
def csharp_unhandled_exception(m: re.Match[str], ctx: LineContext) -> Block:
    """An unhandled .NET exception (the .NET runtime, or mono).

    What it detects: `Unhandled exception. System.NullReferenceException:
    Object reference not set to an instance of an object.` (.NET) or mono's
    `Unhandled Exception:` followed by the exception line, then the stack
    frames, `   at Shop.Cart.Total() in /src/Shop/Cart.cs:line 26` (.NET)
    or `  at Shop.Cart.Total () [0x00028] in /src/Cart.cs:26` (mono with
    `--debug`).  The location is the innermost frame in the project; mono's
    `[ERROR] FATAL UNHANDLED EXCEPTION:` repeat is the same record.
    hint["exception"]; network, I/O and permission exceptions are infra,
    the rest compile.

    Example output (`mono --debug shop.exe`, Mono 6.8.0.105):
        Unhandled Exception:
        System.NullReferenceException: Object reference not set to an instance of an object
          at Shop.Cart.Total () [0x00028] in /src/Cart.cs:26
          at Program.Main (System.String[] args) [0x0003c] in /src/Program.cs:9

    Recipe: compile, escalated with the throwing location.

    References: https://learn.microsoft.com/en-us/dotnet/standard/exceptions/,
    https://www.mono-project.com/docs/debug+profile/debug/
    """
    return _Unhandled(ctx, m.group("rest") or "")


# -- test runners ----------------------------------------------------------------
_VALUES = (
    re.compile(r"^\s*Expected: (?P<expected>.+?)\s*$"),
    re.compile(r"^\s*(?:But was|Actual):\s+(?P<actual>.+?)\s*$"),
)


def _values(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for text in lines:
        for pattern in _VALUES:
            if m := pattern.match(text):
                for k, v in m.groupdict().items():
                    found.setdefault(k, v)
    return found if len(found) == 2 else {}


def _test_hit(
    ctx: LineContext,
    *,
    runner: str,
    test_id: str,
    signal: str,
    log_line: int,
    lines: list[str],
    frames: list[Frame],
    kind: str = "",
) -> Hit:
    text = [t.strip() for t in lines if t.strip()]
    message = text[0] if text else "test failed"
    hint: dict[str, Any] = {"runner": runner, "test_id": test_id}
    if exc := _EXCEPTION.match(message):
        hint["exception"] = exc.group("exc")
        message = f"{exc.group('exc')}: {exc.group('message')}"
    elif len(text) > 1 and not message.startswith(("Expected", "But was")):
        message = " ".join(text[:3])
    elif len(text) > 1:
        message = " ".join(text[:2])
    hint.update(_values(lines))
    if kind:
        hint["kind"] = kind
    chosen = innermost_in_project(frames, ctx, _LIBRARY)
    return Hit(
        signal=signal,
        message=message,
        file=chosen[0] if chosen else None,
        line=chosen[1] if chosen else None,
        log_line=log_line,
        hint=hint,
        related=related_frames(frames, chosen),
        key=("dotnet-test", test_id),
    )


_NUNIT_ENTRY = re.compile(r"^\d+\) Test (?P<kind>Failure|Error) : (?P<test>\S+)\s*$")


class _NUnitReport:
    """NUnit 2's `Errors and Failures:` list."""

    max_lines = 50_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.entries: list[tuple[re.Match[str], str, int, list[str], list[Frame]]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if entry := _NUNIT_ENTRY.match(line):
            self.entries.append((entry, line.strip(), line_no, [], []))
            return True
        if line.startswith(("Tests Not Run:", "Tests run: ")):
            return False
        if not self.entries:
            return not line.strip()
        _, _, _, lines, frames = self.entries[-1]
        if frame := read_frame(line):
            frames.append(frame)
        elif not _AT_NO_FILE.match(line) and not frames:
            lines.append(line)
        return True

    def finish(self) -> Iterable[Hit]:
        return [
            _test_hit(
                self.ctx,
                runner="nunit",
                test_id=entry.group("test"),
                signal=signal,
                log_line=log_line,
                lines=lines,
                frames=frames,
                kind=entry.group("kind").lower(),
            )
            for entry, signal, log_line, lines, frames in self.entries
        ]


@rule(
    id="csharp.nunit",
    category=FailureType.TEST,
    tool="nunit",
    pattern=r"^Errors and Failures:$",
    triggers=("Errors and Failures:",),
    url="https://docs.nunit.org/2.6/consoleCommandLine.html",
)
def csharp_nunit(m: re.Match[str], ctx: LineContext) -> Block:
    """Failing NUnit 2 tests (`nunit-console`).

    What it detects: the `Errors and Failures:` list and each entry, `1)
    Test Failure : Shop.Tests.CartTests.CountsQuantities` with `Expected: 3`
    / `But was:  2` (hint["expected"], hint["actual"]) or `2) Test Error :
    ...` with the exception (hint["exception"]), and the `at ... in
    file:line` frames (mono needs `--debug` for them): the location is the
    innermost frame in the project.  hint["test_id"] is the full test name
    (`nunit-console -run=` takes it).  `Tests run: 3, Errors: 0, Failures:
    0` gives nothing.

    Example output (`MONO_ENV_OPTIONS=--debug nunit-console -nologo
    Shop.Tests.dll`, NUnit-Console 2.6.4):
        Errors and Failures:
        1) Test Failure : Shop.Tests.CartTests.CountsQuantities
             Expected: 3
          But was:  2

        at Shop.Tests.CartTests.CountsQuantities () [0x00042] in /src/tests/CartTests.cs:19

    Recipe: test. Re-run the one test; a real failure is escalated with
    expected vs actual.

    References: https://docs.nunit.org/2.6/consoleCommandLine.html
    """
    return _NUnitReport(ctx)


class _VSTestFailure:
    """`  Failed <test> [N ms]`, `  Error Message:`, `  Stack Trace:`."""

    max_lines = 2000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.test = m.group("test")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        self.frames: list[Frame] = []
        self.part = ""

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if re.match(r"^\s{2}(?:Failed|Passed|Skipped) \S", line) or text.startswith(
            ("Failed!", "Passed!")
        ):
            return False
        if text in ("Error Message:", "Stack Trace:", "Standard Output Messages:"):
            self.part = text
            return True
        if self.part == "Error Message:":
            self.lines.append(line)
            return True
        if self.part == "Stack Trace:":
            if frame := read_frame(line):
                self.frames.append(frame)
                return True
            return bool(_AT_NO_FILE.match(line))
        return bool(self.part) and bool(text)

    def finish(self) -> Iterable[Hit]:
        return [
            _test_hit(
                self.ctx,
                runner="vstest",
                test_id=self.test,
                signal=self.signal,
                log_line=self.log_line,
                lines=self.lines,
                frames=self.frames,
            )
        ]


@rule(
    id="csharp.dotnet_test",
    category=FailureType.TEST,
    tool="dotnet test",
    pattern=r"^\s{2}Failed (?P<test>\S.*?) \[(?:< )?\d+(?:\.\d+)? ?m?s\]$",
    triggers=("  Failed ",),
    url="https://learn.microsoft.com/en-us/dotnet/core/tools/dotnet-test",
)
def csharp_dotnet_test(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing test in `dotnet test` (VSTest's console logger: xUnit,
    NUnit 3 and MSTest alike).

    What it detects: `  Failed Shop.Tests.CartTests.CountsQuantities [3 ms]`,
    then `  Error Message:` (`Assert.Equal() Failure: Values differ` /
    `Expected: 3` / `Actual:   2`: hint["expected"], hint["actual"]; an
    exception: hint["exception"]) and `  Stack Trace:` with `at ... in
    /src/Shop.Tests/CartTests.cs:line 19` frames, the innermost in the
    project being the location.  hint["test_id"] is the test's full name
    (`dotnet test --filter "FullyQualifiedName=..."`).  The `[xUnit.net
    ...] ... [FAIL]` progress lines and the `Failed!  - Failed: 2, ...`
    summary are not records; `Passed!  - Failed:     0` gives nothing.

    Example output (`dotnet test`, VSTest 17.8 with xUnit.net, documented
    format; no .NET SDK can be installed here):
          Failed Shop.Tests.CartTests.CountsQuantities [3 ms]
          Error Message:
           Assert.Equal() Failure: Values differ
        Expected: 3
        Actual:   2
          Stack Trace:
             at Shop.Tests.CartTests.CountsQuantities() in /src/Shop.Tests/CartTests.cs:line 19

    Recipe: test. Re-run the one test (`dotnet test --filter
    "FullyQualifiedName=Shop.Tests.CartTests.CountsQuantities"`); a real
    failure is escalated with expected vs actual.

    References: https://learn.microsoft.com/en-us/dotnet/core/tools/dotnet-test,
    https://learn.microsoft.com/en-us/dotnet/core/testing/selective-unit-tests
    """
    return _VSTestFailure(m, ctx)
