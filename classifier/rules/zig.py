"""Zig: compile errors, `zig test` and `zig build test` failures, panics, and
the build summary."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LineContext, hit_from_match, match_above
from .registry import rule
from .stack import Frame, innermost_in_project, related_frames

ECOSYSTEM = "Zig"

_NOTE = lazy_compile(
    r"^(?P<file>[^\s:][^:]*?\.zig):(?P<line>\d+):(?P<column>\d+): note: (?P<message>.+)$"
)
# `/src/cart.zig:31:5: 0x124fb96 in test.counts the quantities (cart.zig)`
_FRAME = lazy_compile(
    r"^\s*(?P<file>[^\s:][^:]*?\.zig):(?P<line>\d+):(?P<column>\d+): 0x[0-9a-f]+ in "
)
_LIBRARY = ("/lib/std/", "/lib/compiler_rt/", "/ziglang/lib/", "/zig/lib/")
_NO_FIELD = lazy_compile(
    r"no field named '(?P<name>[^']+)' in (?:struct|union|enum) '(?P<type>[^']+)'"
)
_UNDECLARED = lazy_compile(r"use of undeclared identifier '(?P<name>[^']+)'")


class _ZigError:
    """`src/cart.zig:21:42: error: ...`, its excerpt and caret, the `note:`
    lines (related locations) and the `referenced by:` list."""

    max_lines = 80

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        message = m.group("message").strip()
        hint: dict[str, Any] = {}
        if f := _NO_FIELD.search(message):
            hint["name"], hint["type"] = f.group("name"), f.group("type")
        elif u := _UNDECLARED.search(message):
            hint["name"] = u.group("name")
        self.hit = hit_from_match(m, ctx, message=message, log_line=ctx.line_no, hint=hint)
        self._referenced = False

    def feed(self, line: str, line_no: int) -> bool:
        if note := _NOTE.match(line):
            self.hit.related.append(
                (
                    note.group("file"),
                    int(note.group("line")),
                    int(note.group("column")),
                    note.group("message"),
                )
            )
            return True
        if line.startswith("referenced by:"):
            self._referenced = True
            return True
        if self._referenced:
            return line.startswith("    ")
        # the excerpt and the caret, up to the next error or zig build's lines
        next_error = re.match(r"^[^\s:][^:]*?\.zig:\d+:\d+: error: ", line)
        return not (next_error or line.startswith(("error: ", "failed command: ")))

    def finish(self) -> Iterable[Hit]:
        return [self.hit]


@rule(
    id="zig.compile",
    category=FailureType.COMPILE,
    tool="zig",
    pattern=r"^(?P<file>[^\s:][^:]*?\.(?:zig|zon)):(?P<line>\d+):(?P<column>\d+): error: (?P<message>.+)$",
    triggers=(".zig:", ".zon:"),
    url="https://ziglang.org/documentation/master/#Compile-Errors",
)
def zig_compile(m: re.Match[str], ctx: LineContext) -> Block:
    """A Zig compile error (`zig build`, `zig build-exe`, `zig test`).

    What it detects: `src/cart.zig:21:42: error: no field named 'cent' in
    struct 'cart.Price'` with its excerpt and caret, the `note:` lines
    under it (`src/cart.zig:3:19: note: struct declared here`: related
    locations) and the `referenced by:` list.  hint["name"] (a missing
    field or an undeclared identifier), hint["type"].  `zig build`'s `error:
    1 compilation errors` and `failed command: ...` are not records.

    Example output (`zig test src/cart.zig`, Zig 0.17.1 from PyPI's ziglang):
        src/cart.zig:21:42: error: no field named 'cent' in struct 'cart.Price'
            for (items) |item| sum += item.price.cent * item.quantity;
                                                 ^~~~
        src/cart.zig:3:19: note: struct declared here

    Recipe: compile, escalated with the location.

    References: https://ziglang.org/documentation/master/#Compile-Errors
    """
    return _ZigError(m, ctx)


class _ZigTestFailure:
    """A failed test's message and its error return trace (`file:line:col:
    0x... in fn (module)` frames, each followed by source and caret)."""

    max_lines = 400

    def __init__(
        self, ctx: LineContext, test: str, message: str, indented: bool, signal: str
    ) -> None:
        self.ctx = ctx
        self.test = test
        self.message = message
        self.indented = indented
        self.signal = signal
        self.log_line = ctx.line_no
        self.frames: list[Frame] = []

    def feed(self, line: str, line_no: int) -> bool:
        if self.indented:
            if not line.startswith("       "):
                return False
        elif (
            re.match(r"^\d+/\d+ ", line)
            or line.startswith(("error: ", "All "))
            or re.match(r"^\d+ passed;", line)
        ):
            return False
        if frame := _FRAME.match(line):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
        elif self.indented and not self.message and line.strip():
            # a crashed test's stderr: `thread 22363 panic: index out of bounds: ...`
            self.message = _THREAD_PANIC.sub("panic: ", line.strip(), count=1)
        return True

    def finish(self) -> Iterable[Hit]:
        frames = self.frames  # innermost first, as Zig prints them
        chosen = innermost_in_project(frames, self.ctx, _LIBRARY)
        if chosen is not None and not self.ctx.in_project(chosen[0]):
            chosen = None
        hint: dict[str, Any] = {"runner": "zig test", "test_id": self.test}
        if v := re.match(r"^expected (?P<expected>.+), found (?P<actual>.+)$", self.message):
            hint["expected"], hint["actual"] = v.group("expected"), v.group("actual")
        return [
            Hit(
                signal=self.signal,
                message=f"{self.test}: {self.message or 'test failed'}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(frames, chosen),
                key=("zig-test", self.test),
            )
        ]


_THREAD_PANIC = lazy_compile(r"^thread \d+ panic: ")
_ZIG_TEST_LINE = lazy_compile(r"^\d+/\d+ (?P<test>\S.*?)\.\.\.(?P<message>.*)$")


@rule(
    id="zig.test",
    category=FailureType.TEST,
    tool="zig test",
    pattern=(
        r"^FAIL \((?P<error>\w+)\)$"
        r"|^error: '(?P<test>[^']+)' (?:failed:|terminated with signal \w+ with stderr:)(?P<rest>.*)$"
    ),
    triggers=("FAIL (", "' failed:", "' terminated with signal "),
    url="https://ziglang.org/documentation/master/#Zig-Test",
    priority=1,  # before jest.failure, whose `FAIL <path>` pattern fits `FAIL (Error)`
)
def zig_test(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A failing Zig test (`zig test`, `zig build test`).

    What it detects: `zig test`'s `1/2 cart.test.counts the
    quantities...expected 3, found 2` and `FAIL (TestExpectedEqual)`, and
    `zig build test`'s `error: 'cart.test.counts the quantities' failed:`
    with the message indented under it (a test that panicked: `error:
    'cart.test.third price' terminated with signal ABRT with stderr:` and
    the indented `thread 22363 panic: ...`, its message `panic: ...`);
    then the error return trace (or the panic's stack trace),
    `src/cart.zig:31:5: 0x124fb96 in test.counts the quantities (cart.zig)`
    frames, whose innermost frame in the project (not std's testing.zig)
    is the location.  hint["test_id"] is the test's name, hint["expected"]
    / hint["actual"] from `expected 3, found 2`.  `All 2 tests passed.`
    gives nothing.

    Example output (`zig test src/cart.zig`, Zig 0.17.1):
        1/2 cart.test.counts the quantities...expected 3, found 2
        FAIL (TestExpectedEqual)
        .../lib/std/testing.zig:93:17: 0x124ee44 in expectEqualInner__func_962 (std.zig)
        /src/cart.zig:31:5: 0x124fb96 in test.counts the quantities (cart.zig)
            try std.testing.expectEqual(@as(u32, 3), count(&cart));
            ^

    Recipe: test. Re-run the one test (`zig test src/cart.zig
    --test-filter "counts the quantities"`); a real failure is escalated
    with expected vs actual.

    References: https://ziglang.org/documentation/master/#Zig-Test
    """
    if m.group("test"):
        return _ZigTestFailure(
            ctx, m.group("test"), m.group("rest").strip(), True, ctx.line.strip()
        )
    head = match_above(ctx, _ZIG_TEST_LINE, 3)
    if head is None:
        return None
    message = head.group("message").strip()
    return _ZigTestFailure(ctx, head.group("test"), message, False, head.group(0).strip())


# any frame of a trace, `???:?:?: 0x1 in ??? (???)` too
_ANY_FRAME = lazy_compile(r"^\S+:\S+:\S+: 0x[0-9a-f]+ in ")


class _ZigPanic:
    """A panic's stack trace: `file:line:col: 0x... in fn (module)` frames,
    each followed by its source line and caret."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.test: str | None = m.group("test")
        self.message = m.group("message").strip()
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.frames: list[Frame] = []
        self._source = 0  # how many source and caret lines may follow

    def feed(self, line: str, line_no: int) -> bool:
        if frame := _FRAME.match(line):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            self._source = 2
            return True
        if _ANY_FRAME.match(line):
            self._source = 2
            return True
        if self._source and line.strip():
            self._source -= 1
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        chosen = innermost_in_project(self.frames, self.ctx, _LIBRARY)
        if chosen is not None and not self.ctx.in_project(chosen[0]):
            chosen = None
        hint: dict[str, Any] = {"runner": "zig", "panic": self.message}
        category: FailureType | None = None
        key: tuple[str, ...] = ("zig-panic", str(self.log_line))
        if self.test:
            hint.update(runner="zig test", test_id=self.test)
            category, key = FailureType.TEST, ("zig-test", self.test)
        what = f"{self.test}: " if self.test else ""
        return [
            Hit(
                signal=self.signal,
                message=f"{what}panic: {self.message}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                category=category,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
                key=key,
            )
        ]


@rule(
    id="zig.panic",
    category=FailureType.COMPILE,
    tool="zig",
    pattern=r"^(?:\d+/\d+ (?P<test>\S.*?)\.\.\.)?thread \d+ panic: (?P<message>.+)$",
    triggers=(" panic: ",),
    url="https://ziglang.org/documentation/master/#Illegal-Behavior",
)
def zig_panic(m: re.Match[str], ctx: LineContext) -> Block:
    """A Zig program or test that panicked.

    What it detects: `thread 20784 panic: index out of bounds: index 5,
    len 2` (a program built in a safe mode, `zig run`), or `zig test`'s
    `1/1 cart.test.third price...thread 20760 panic: ...` when a test
    panics, followed by the stack trace (`/src/main.zig:6:33: 0x11e4df4 in
    main (main.zig)` frames, each with its source line and caret).  The
    record sits at the innermost frame in the project (not std's or the
    test runner's); the message is hint["panic"].  A program's panic is
    compile (the code's illegal behaviour); a test's is test, with
    hint["test_id"].

    Example output (`zig run main.zig`, Zig 0.17.1):
        thread 20784 panic: index out of bounds: index 5, len 2
        /src/main.zig:6:33: 0x11e4df4 in main (main.zig)
            std.debug.print("{}\\n", .{xs[i]});
                                        ^

    Recipe: compile (a test's panic: test, re-run with `--test-filter`);
    nothing is changed automatically, the record is escalated with the
    message and the frames.

    References: https://ziglang.org/documentation/master/#Illegal-Behavior,
    https://ziglang.org/documentation/master/#Zig-Test
    """
    return _ZigPanic(m, ctx)


@rule(
    id="zig.build_failed",
    category=FailureType.COMPILE,
    tool="zig build",
    pattern=r"^Build Summary: .*\(\d+ failed\)",
    triggers=("Build Summary: ",),
    url="https://ziglang.org/learn/build-system/",
)
def zig_build_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """`zig build`'s summary of a failed build.

    What it detects: `Build Summary: 1/3 steps succeeded (1 failed); 1/2
    tests passed (1 failed)`.  It repeats the compile errors or test
    failures above it: a fallback (Hit.key FALLBACK, confidence 0.5),
    dropped when those were read.  Failed or crashed tests make it test, the rest
    compile.

    Example output (`zig build test`, Zig 0.17.1):
        Build Summary: 0/3 steps succeeded (1 failed)

    Recipe: compile or test: re-run to get the details.

    References: https://ziglang.org/learn/build-system/
    """
    test = bool(re.search(r"tests passed \([^)]*\b(?:failed|crashed)\b", ctx.line))
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip(),
        category=FailureType.TEST if test else FailureType.COMPILE,
        confidence=0.5,
        key=(FALLBACK, "zig build"),
    )
