"""Reading a Go program's crash: `panic: ...` or a runtime `fatal error:
...`, then the goroutine traces (the rule, go.panic, is in go.py).

A panic inside `go test` comes after the test's `--- FAIL:` line and is
read by go.test's block; this one reads a crash with no test around it
(`go run`, a built binary, a test binary's init or TestMain)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .causes import environment_cause

# `goroutine 1 [running]:`, `goroutine 7 [chan send, 2 minutes]:`
_GOROUTINE = lazy_compile(r"^goroutine \d+ \[[^\]]+\]:$")
# `\t/home/me/shop/main.go:11 +0x16` (the `+0x..` offset is absent for inlined calls)
_FRAME = lazy_compile(r"^\t(?P<file>\S+\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?$")
# a frame's function line: `main.first(...)`, `created by main.main`
_FUNC = lazy_compile(r"^(?:created by )?\S+(?:\(.*\))?(?: in goroutine \d+)?$")
# what the runtime prints between the message and the first goroutine
_PREAMBLE = ("[signal ", "\tpanic: ", "runtime: ", "[recovered]")
_TIMEOUT = "test timed out after "


class GoCrash:
    """A Go crash report: the message (a `panic:` with its nested
    `\\tpanic:` lines, or a runtime `fatal error:`), then the goroutine
    traces; the crashing goroutine is the first one printed."""

    max_lines = 400

    def __init__(self, kind: str, message: str, ctx: LineContext) -> None:
        self.ctx = ctx
        self.kind = kind  # "panic" or "fatal error"
        self.message = message
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.goroutines = 0
        # the frames in the project of the first goroutine that has any: the
        # crashing one (printed first), or for a timeout or a deadlock (all
        # goroutines printed) the first one running the project's code
        self.frames: list[tuple[str, int]] = []
        self._frames_of = 0  # the goroutine self.frames belong to
        self.lines = 0

    def feed(self, line: str, line_no: int) -> bool:
        self.lines += 1
        if _GOROUTINE.match(line):
            self.goroutines += 1
            return True
        if self.goroutines == 0:
            # between the message and the trace: `[signal SIGSEGV ...]`, blank lines
            return self.lines <= 6 and (not line.strip() or line.startswith(_PREAMBLE))
        frame = _FRAME.match(line) if line.startswith("\t") else None
        if frame:
            if self._frames_of in (0, self.goroutines) and self.ctx.in_project(frame.group("file")):
                self._frames_of = self.goroutines
                self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        # a function line, `...additional frames elided...`; anything else
        # (`exit status 2`, the next command's output) ends the report
        return not line.strip() or bool(_FUNC.match(line)) or line.startswith("...additional")

    def finish(self) -> Iterable[Hit]:
        if self.goroutines == 0:
            return []  # no goroutine trace: not a Go crash
        hint: dict[str, Any] = {"runner": "go", self.kind.replace(" ", "_"): self.message}
        hint["why"] = f"{self.kind}: {self.message}"[:500]
        category: FailureType | None = None
        if self.message.startswith(_TIMEOUT):  # go test -timeout: a test ran too long
            category = FailureType.TEST
        cause = environment_cause([self.message])
        if cause is not None:
            category = cause.category
            hint.update(cause.hint)
        file: str | None = None
        line: int | None = None
        if self.frames:
            file, line = self.frames[0]
        return [
            Hit(
                signal=self.signal,
                message=f"{self.kind}: {self.message}",
                file=file,
                line=line,
                category=category,
                log_line=self.log_line,
                hint=hint,
                related=[(f, n, None, "") for f, n in self.frames[1:6]],
                key=("go crash", self.log_line),
            )
        ]
