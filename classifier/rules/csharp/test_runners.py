"""C# rules for the test runners: NUnit's console report and `dotnet test`
(VSTest)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..registry import rule
from ..stack import Frame, innermost_in_project, related_frames
from .common import AT_NO_FILE, EXCEPTION, LIBRARY, read_frame

# -- test runners ----------------------------------------------------------------
_VALUES = (
    lazy_compile(r"^\s*Expected: (?P<expected>.+?)\s*$"),
    lazy_compile(r"^\s*(?:But was|Actual):\s+(?P<actual>.+?)\s*$"),
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
    if exc := EXCEPTION.match(message):
        hint["exception"] = exc.group("exc")
        message = f"{exc.group('exc')}: {exc.group('message')}"
    elif len(text) > 1 and not message.startswith(("Expected", "But was")):
        message = " ".join(text[:3])
    elif len(text) > 1:
        message = " ".join(text[:2])
    hint.update(_values(lines))
    if kind:
        hint["kind"] = kind
    chosen = innermost_in_project(frames, ctx, LIBRARY)
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


_NUNIT_ENTRY = lazy_compile(r"^\d+\) Test (?P<kind>Failure|Error) : (?P<test>\S+)\s*$")


class _NUnitReport:
    """NUnit 2's `Errors and Failures:` list."""

    max_lines = 50_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.entries: list[tuple[re.Match[str], str, int, list[str], list[Frame]]] = []
        self.blanks = 0  # blank lines in a row: one separates entries, two end the list

    def feed(self, line: str, line_no: int) -> bool:
        if entry := _NUNIT_ENTRY.match(line):
            self.entries.append((entry, line.strip(), line_no, [], []))
            self.blanks = 0
            return True
        if line.startswith(("Tests Not Run:", "Tests run: ")):
            return False
        if not self.entries:
            return not line.strip()
        if not line.strip():
            self.blanks += 1
            return self.blanks < 2
        self.blanks = 0
        if not line[:1].isspace() and not line.startswith("at "):
            return False  # an entry's lines are indented, or stack frames: the list is over
        _, _, _, lines, frames = self.entries[-1]
        if frame := read_frame(line):
            frames.append(frame)
        elif not AT_NO_FILE.match(line) and not frames:
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
            return bool(AT_NO_FILE.match(line))
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
