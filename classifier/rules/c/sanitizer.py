"""C and C++ programs' run-time reports: the sanitizers' (AddressSanitizer,
LeakSanitizer, ThreadSanitizer, MemorySanitizer; anything built with
-fsanitize) and the C++ runtime's uncaught exception."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..registry import rule

# `    #1 0x5604450a31bc in dup_name /src/shop/main.c:3` (`:col` with clang),
# `    #4 0x5652544bb0c0 in _start (/src/shop/app+0x10c0)` has no source
# ThreadSanitizer's `    #0 take_orders /src/shop/counter.c:10 (app+0x11e9)`
_FRAME = lazy_compile(
    r"^\s+#\d+ (?:0x[0-9a-f]+ in )?(?P<fn>.+?) (?P<file>[^\s()]+?):(?P<line>\d+)(?::(?P<column>\d+))?"
    r"(?: \([^()]*\))?$"
)
# the report's first words: `heap-buffer-overflow on address 0x...`, `detected memory leaks`
_KIND = lazy_compile(
    r"^(?P<kind>[\w-]+(?: [\w-]+)*?)(?: on (?:address|unknown address)\b.*| \(pid=\d+\).*)?$"
)


class _SanitizerReport:
    """From the ERROR (or ThreadSanitizer's WARNING) line to the report's
    `SUMMARY:` line; the first stack is where the error happened, the
    later ones (allocated by, freed by, the other thread) are related."""

    max_lines = 600

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.tool = m.group("tool") or m.group("tsan")
        self.message = (m.group("message") or m.group("race")).strip()
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.stacks: list[list[tuple[str, int, int | None]]] = []
        self._in_stack = False
        self.summary: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if self.summary is not None:
            return line.startswith(("==", "ABORTING"))  # ThreadSanitizer's closing rule
        if line.startswith("SUMMARY: "):
            self.summary = line[len("SUMMARY: ") :].strip()
            return True
        frame = _FRAME.match(line) if "#" in line else None
        if frame or (line.lstrip().startswith("#") and " in " in line):
            if not self._in_stack:
                self.stacks.append([])
                self._in_stack = True
            if frame and self.ctx.in_project(frame.group("file")):
                column = int(frame.group("column")) if frame.group("column") else None
                self.stacks[-1].append((frame.group("file"), int(frame.group("line")), column))
            return True
        self._in_stack = False
        return True  # the report's prose, shadow bytes, legend

    def finish(self) -> Iterable[Hit]:
        ours = [s for s in self.stacks if s]
        at = ours[0][0] if ours else None
        related: list[tuple[str, int | None, int | None, str]] = []
        for f, n, c in dict.fromkeys(x for stack in ours for x in stack):
            if (f, n, c) != at and len(related) < 10:
                related.append((f, n, c, ""))
        kind = _KIND.match(self.message)
        hint: dict[str, Any] = {"sanitizer": self.tool, "why": self.message[:500]}
        if kind:
            hint["kind"] = kind.group("kind")
        if self.summary:
            hint["summary"] = self.summary
        return [
            Hit(
                signal=self.signal,
                message=f"{self.tool}: {hint.get('kind', self.message)}",
                file=at[0] if at else None,
                line=at[1] if at else None,
                column=at[2] if at else None,
                log_line=self.log_line,
                hint=hint,
                related=related,
                key=("sanitizer", self.log_line),
            )
        ]


@rule(
    id="c.sanitizer",
    category=FailureType.COMPILE,
    tool="sanitizer",
    pattern=(
        r"^==\d+==\s*ERROR: (?P<tool>AddressSanitizer|LeakSanitizer|ThreadSanitizer"
        r"|MemorySanitizer|HWAddressSanitizer): (?P<message>.+)$"
        r"|^WARNING: (?P<tsan>ThreadSanitizer): (?P<race>.+ \(pid=\d+\))$"
    ),
    triggers=("==ERROR: ", "WARNING: ThreadSanitizer: "),
    url="https://github.com/google/sanitizers/wiki/AddressSanitizer",
)
def c_sanitizer(m: re.Match[str], ctx: LineContext) -> Block:
    """A sanitizer's report: a memory error, a leak or a data race found
    while the program ran (gcc and clang `-fsanitize=address,leak,thread`).

    What it detects: `==4526==ERROR: AddressSanitizer: heap-buffer-overflow
    on address 0x...` (also `LeakSanitizer: detected memory leaks`,
    MemorySanitizer, HWAddressSanitizer) and ThreadSanitizer's `WARNING:
    ThreadSanitizer: data race (pid=4242)` (a WARNING without the pid is
    not a report), with their stacks (`#1
    0x5604450a31bc in dup_name /src/shop/main.c:3`), up to the report's
    `SUMMARY:` line.  The record sits at the innermost project frame of
    the first stack (where the bad access or the leaked allocation
    happened; the sanitizer's interceptors and libc are skipped); the other
    stacks' project frames (allocated by, freed by, the other thread) are
    related locations.  hint["sanitizer"] is the tool, hint["kind"] the
    error (`heap-buffer-overflow`, `detected memory leaks`, `data race`).
    UndefinedBehaviorSanitizer's one-line `main.c:3:29: runtime error:`
    is read by the compiler rules.

    Example output (`./app` built with `gcc -g -fsanitize=address`, gcc 12.2.0):
        ==1653==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60200000001c at pc 0x5652544bb1f4 bp 0x7fffe27b4b20 sp 0x7fffe27b4b18
        READ of size 4 at 0x60200000001c thread T0
            #0 0x5652544bb1f3 in sum /src/shop/main.c:2
            #1 0x5652544bb2f9 in main /src/shop/main.c:3

    Recipe: compile: the error is the code's; nothing is changed
    automatically, the record is escalated with the sanitizer's kind and
    the stacks.

    References: https://github.com/google/sanitizers/wiki/AddressSanitizer,
    https://clang.llvm.org/docs/ThreadSanitizer.html
    """
    return _SanitizerReport(m, ctx)


@rule(
    id="c.uncaught_exception",
    category=FailureType.COMPILE,
    tool="c++",
    pattern=r"^terminate called after throwing an instance of '(?P<exc>[^']+)'$",
    triggers=("terminate called after throwing",),
    url="https://en.cppreference.com/w/cpp/error/terminate",
)
def c_uncaught_exception(m: re.Match[str], ctx: LineContext) -> Block:
    """A C++ program ended by an exception nothing caught (libstdc++).

    What it detects: `terminate called after throwing an instance of
    'std::runtime_error'` and the `  what():  cart is empty` line under it
    (the exception's message).  The C++ runtime prints no location: the
    record has none; hint["exception"] is the type, hint["why"] the
    message.  (`faultlens run` alone only knew the exit status, 134, and
    reported it as infra.)

    Example output (`./app`, g++ 12.2.0):
        terminate called after throwing an instance of 'std::runtime_error'
          what():  cart is empty

    Recipe: compile: the crash is the code's; nothing is changed
    automatically, the record is escalated with the exception and its
    message (run it under a debugger, `catch throw`, for the location).

    References: https://en.cppreference.com/w/cpp/error/terminate,
    https://gcc.gnu.org/onlinedocs/libstdc++/manual/termination.html
    """
    return _Terminate(m, ctx)


class _Terminate:
    """The `  what():  message` line under libstdc++'s terminate message."""

    max_lines = 2

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.exc = m.group("exc")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.what: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if self.what is None and line.startswith("  what():  "):
            self.what = line[len("  what():  ") :].strip()
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {"exception": self.exc}
        if self.what:
            hint["why"] = self.what[:500]
        what = f": {self.what}" if self.what else ""
        return [
            Hit(
                signal=self.signal,
                message=f"uncaught {self.exc}{what}",
                log_line=self.log_line,
                hint=hint,
                key=("c++ terminate", self.log_line),
            )
        ]
