"""C and C++ build-system rules: make's failed targets, cmake's errors."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import FALLBACK, Block, Hit, LineContext
from ..registry import rule

_MAKE_EXEC = lazy_compile(
    r"^\S*make(?:\[\d+\])?: (?P<program>[^\s:]+): (?:No such file or directory|[Cc]ommand not found)$"
    r"|^(?:/bin/)?(?:ba)?sh: (?:line )?\d+: (?P<sh>[^\s:]+): (?:command )?not found$"
)


def _missing_program(ctx: LineContext) -> str | None:
    """The program make could not run, from the lines just above its
    `Error 127`."""
    for prev in reversed(ctx.before(6)):
        found = _MAKE_EXEC.match(prev.strip())
        if found:
            return found.group("program") or found.group("sh")
    return None


@rule(
    id="c.make",
    category=FailureType.COMPILE,
    tool="make",
    pattern=(
        r"^(?P<prog>\S*make(?:\[\d+\])?): \*\*\* (?:\[(?:(?P<file>[^\]:]+):(?P<line>\d+): )?(?P<target>[^\]]+)\] (?P<what>Error \d+|Segmentation fault.*|Killed|Interrupt)"
        r"|(?P<stop>.+?)\.  Stop\.)$"
        r"|^(?P<mfile>[^\s:][^:]*):(?P<mline>\d+): \*\*\* (?P<mstop>.+?)\.  Stop\.$"
        r"|^(?P<ninja>ninja: build stopped: .+)$"
    ),
    triggers=(": *** ", "ninja: build stopped: "),
    url="https://www.gnu.org/software/make/manual/html_node/Error-Messages.html",
)
def c_make(m: re.Match[str], ctx: LineContext) -> Hit:
    """GNU make failures.

    What it detects: `make: *** [Makefile:3: all] Error 1` (also
    `make[2]: ***`, and the older `make: *** [all] Error 1`), which only
    says that a recipe failed: it is a fallback (Hit.key FALLBACK, one
    record for every such line of the run, confidence 0.5), dropped when
    the compiler, linker or test output above it was classified, and the
    record, at the recipe's Makefile line, when nothing more specific was
    seen.  make's own errors are specific records: `make: *** No rule to
    make target 'x', needed by 'y'.  Stop.` (hint["target"]) and
    `Makefile:3: *** missing separator.  Stop.` (at that line).  ninja's
    `ninja: build stopped: subcommand failed.` is the same kind of
    fallback (cmake -G Ninja builds).

    Example output (`make check`, GNU Make 4.3):
        make: *** [Makefile:2: check] Error 1

    Recipe: compile. A failed recipe alone gives nothing to apply: the
    recipe re-runs the target to get the real error.  A missing target is
    looked up in the workspace.

    References: https://www.gnu.org/software/make/manual/html_node/Error-Messages.html
    """
    line = ctx.line.strip()
    if m.group("ninja"):
        return Hit(signal=line, message=line, tool="ninja", confidence=0.5, key=(FALLBACK, "ninja"))
    if m.group("mstop"):
        return Hit(
            signal=line,
            message=m.group("mstop"),
            file=m.group("mfile"),
            line=int(m.group("mline")),
        )
    if m.group("stop"):
        hint: dict[str, Any] = {}
        target = re.search(r"No rule to make target [`‘'](?P<t>[^'’]+)['’]", m.group("stop"))
        if target:
            hint["target"] = target.group("t")
        return Hit(signal=line, message=m.group("stop"), code="make-stop", hint=hint)
    if m.group("what") == "Error 127":
        # 127: the recipe's program was not found (make's own `make: protoc:
        # No such file or directory`, a shell's `protoc: not found`)
        program = _missing_program(ctx)
        if program is not None:
            return Hit(
                signal=line,
                message=f"make target {m.group('target')} failed: {program} is not installed",
                file=m.group("file"),
                line=int(m.group("line")) if m.group("line") else None,
                category=FailureType.INFRA,
                hint={
                    "target": m.group("target"),
                    "kind": "missing_tool",
                    "transient": False,
                    "program": program,
                },
                key=("missing_tool", program),
            )
    return Hit(
        signal=line,
        message=f"make target {m.group('target')} failed: {m.group('what')}",
        file=m.group("file"),
        line=int(m.group("line")) if m.group("line") else None,
        confidence=0.5,
        hint={"target": m.group("target")},
        key=(FALLBACK, "make"),
    )


_CMAKE_PACKAGE = lazy_compile(
    r'provided by\s+"(?P<a>[^"]+)"|Could NOT find (?P<b>\S+)|find a package configuration file provided by\s+"(?P<c>[^"]+)"'
)


# `--   Package 'libcurlx', required by 'virtual:world', not found`, `--   No package 'x' found`
_PKG_NOT_FOUND = lazy_compile(
    r"^--\s+(?:Package '(?P<pkg>[^']+)',.* not found|No package '(?P<pkg2>[^']+)' found)$"
)


class _CMakeError:
    """`CMake Error at file:line (command):` and its indented message, which
    may hold blank lines; a `Call Stack` adds related locations."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.file = m.group("file")
        self.line = int(m.group("line")) if m.group("line") else None
        self.command = m.group("command")
        self.lines: list[str] = [m.group("message")] if m.group("message") else []
        self.related: list[tuple[str, int | None, int | None, str]] = []
        self.log_line = ctx.line_no
        self.ctx = ctx
        self._blank = 0
        # pkg_check_modules names the missing module in its progress lines above
        self.pkg_config = next(
            (
                p.group("pkg") or p.group("pkg2")
                for x in ctx.before(6)
                if (p := _PKG_NOT_FOUND.match(x))
            ),
            None,
        )

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            self._blank += 1
            return self._blank < 2
        if line.startswith("Call Stack (most recent call first):"):
            self._blank = 0  # cmake prints it unindented, its frames indented
            return True
        if not line.startswith(" "):
            return False
        self._blank = 0
        frame = re.match(r"^\s+(?P<file>\S+):(?P<line>\d+) \((?P<cmd>[^)]+)\)$", line)
        if frame:
            self.related.append(
                (frame.group("file"), int(frame.group("line")), None, frame.group("cmd"))
            )
        elif line.strip() != "Call Stack (most recent call first):":
            self.lines.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        text = " ".join(self.lines).strip()
        message = re.sub(r"\s+", " ", text) or self.signal
        hint: dict[str, Any] = {}
        if self.command:  # (not "command": that key is the run's own command line)
            hint["cmake_command"] = self.command
        pkg = _CMAKE_PACKAGE.search(message)
        if pkg and self.command == "find_package":
            hint["package"] = pkg.group("a") or pkg.group("b") or pkg.group("c")
        if self.pkg_config and "package" not in hint:
            hint["package"] = self.pkg_config
        file, line, related = self.file, self.line, self.related
        if file and not self.ctx.in_project(file):
            # an error raised inside a CMake module (FindPkgConfig.cmake): the
            # project's own call in the call stack is where to fix it
            ours = next((f for f in related if self.ctx.in_project(f[0])), None)
            if ours is not None:
                related = [(file, line, None, self.command or "")] + [
                    f for f in related if f is not ours
                ]
                file, line = ours[0], ours[1]
                hint["cmake_command"] = ours[3]
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=file,
                line=line,
                log_line=self.log_line,
                hint=hint,
                related=related,
            )
        ]


@rule(
    id="c.cmake",
    category=FailureType.COMPILE,
    tool="cmake",
    pattern=(
        r"^CMake Error(?: at (?P<file>.+?):(?P<line>\d+) \((?P<command>[^)]+)\)| in (?P<file2>[^:]+))?:(?: (?P<message>.*))?$"
        r"|^(?P<incomplete>-- Configuring incomplete, errors occurred!)$"
    ),
    triggers=("CMake Error", "-- Configuring incomplete, errors occurred!"),
    url="https://cmake.org/cmake/help/latest/command/message.html",
)
def c_cmake(m: re.Match[str], ctx: LineContext) -> Hit | Block:
    """CMake configure and generate errors.

    What it detects: `CMake Error at CMakeLists.txt:5 (find_package):`
    followed by its indented message (blank lines inside it included) and
    any `Call Stack (most recent call first):` frames (related locations;
    an error raised inside a CMake module outside the project, such as
    FindPkgConfig.cmake, is placed at the innermost call-stack frame in the
    project, `CMakeLists.txt:4 (pkg_check_modules)`);
    also `CMake Error in CMakeLists.txt:` and `CMake Error: message`.  For
    find_package, the package is hint["package"].  The closing `--
    Configuring incomplete, errors occurred!` repeats the failure: a
    fallback (Hit.key FALLBACK), dropped when the error itself was read.

    Example output (`cmake -S . -B build`, cmake 3.25.1):
        CMake Error at CMakeLists.txt:5 (find_package):
          By not providing "FindFancyTelemetry.cmake" in CMAKE_MODULE_PATH this
          project has asked CMake to find a package configuration file provided by
          "FancyTelemetry", but CMake did not find one.

    Recipe: compile. A missing package is escalated with its name (the
    install command depends on the system); nothing is applied blindly.

    References: https://cmake.org/cmake/help/latest/command/message.html,
    https://cmake.org/cmake/help/latest/command/find_package.html
    """
    if m.group("incomplete"):
        line = ctx.line.strip()
        return Hit(signal=line, message=line, confidence=0.5, key=(FALLBACK, "cmake"))
    if m.group("file2"):
        block = _CMakeError(m, ctx)
        block.file = m.group("file2")
        return block
    return _CMakeError(m, ctx)
