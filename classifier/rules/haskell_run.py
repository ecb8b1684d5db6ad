"""Haskell at run time: hspec's failed examples and a program's `error`
with its HasCallStack call stack.

Part of the `haskell` family (classifier/rules/haskell.py imports it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule

ECOSYSTEM = "Haskell"


_HSPEC_ITEM = lazy_compile(r"^  (?P<n>\d+)\) (?P<path>.+)$")
_RERUN = lazy_compile(r'^  To rerun use: --match "(?P<match>.+)"\s*$')


class _HspecFailure:
    """`  test/Spec.hs:13:18: `, `  1) count counts the quantities`, the
    expected/but got lines and `  To rerun use: --match "..."`."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.column = int(m.group("column"))
        self.log_line = ctx.line_no
        self.signal = ctx.line.strip()
        self.path: str | None = None
        self.lines: list[str] = []
        self.match: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if rerun := _RERUN.match(line):
            self.match = rerun.group("match")
            return True
        if self.match is not None or re.match(r"^  \S+\.l?hs:\d+:\d+: ?$", line):
            return False
        if self.path is None and (item := _HSPEC_ITEM.match(line)):
            self.path = item.group("path")
            self.signal = f"{self.signal} {line.strip()}"
            return True
        if line.startswith("  ") or not line.strip():
            if line.strip():
                self.lines.append(line.strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return [
            _hspec_hit(
                self.signal,
                self.log_line,
                self.path,
                self.lines,
                self.match,
                self.file,
                self.line,
                self.column,
            )
        ]


def _hspec_hit(
    signal: str,
    log_line: int,
    path: str | None,
    lines: list[str],
    match: str | None,
    file: str | None,
    line: int | None,
    column: int | None,
) -> Hit:
    hint: dict[str, Any] = {"runner": "hspec"}
    if path:
        hint["test_name"] = path
    if match:
        hint["test_id"] = match
    for text in lines:
        if m := re.match(r"^expected: (?P<v>.+)$", text):
            hint["expected"] = m.group("v")
        elif m := re.match(r"^but got: (?P<v>.+)$", text):
            hint["actual"] = m.group("v")
    message = " ".join(lines[:2]) if lines else "test failed"
    return Hit(
        signal=signal,
        message=message,
        file=file,
        line=line,
        column=column,
        log_line=log_line,
        hint=hint,
        key=("hspec", match or path or signal),
    )


@rule(
    id="haskell.hspec",
    category=FailureType.TEST,
    tool="hspec",
    pattern=r"^  (?P<file>[^\s:][^:]*?\.l?hs):(?P<line>\d+):(?P<column>\d+): ?$",
    triggers=(".hs:",),
    url="https://hspec.github.io/",
)
def haskell_hspec(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing hspec example (runghc, cabal test, stack test).

    What it detects: an entry of hspec's `Failures:` list, `
    test/Spec.hs:13:18: ` (the failing expectation's location), `  1) count
    counts the quantities` (hint["test_name"]), `expected: 3` / `but got:
    2` (hint["expected"], hint["actual"]) and `  To rerun use: --match
    "/count/counts the quantities/"` (hint["test_id"], the argument that
    re-runs it).  `3 examples, 0 failures` gives nothing.

    Example output (`runghc -isrc test/Spec.hs`, hspec 2.8.5):
          test/Spec.hs:13:18:
          1) count counts the quantities
               expected: 3
                but got: 2

          To rerun use: --match "/count/counts the quantities/"

    Recipe: test. Re-run the one example (`--match "/count/counts the
    quantities/"`); a real failure is escalated with expected vs actual.

    References: https://hspec.github.io/,
    https://hspec.github.io/match.html
    """
    return _HspecFailure(m, ctx)


# -- HLint -----------------------------------------------------------------------


_CALLED_AT = lazy_compile(
    r"^  (?P<fn>\S+), called at (?P<file>\S+?\.l?hs):(?P<line>\d+):(?P<column>\d+) in \S+$"
)


class _HaskellCallStack:
    """The `  f, called at file:line:col in pkg:Module` lines of a CallStack."""

    max_lines = 40

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.log_line = ctx.line_no
        above = [x for x in ctx.before(3) if x.strip()]
        # `main: no price for pear`: the program's name, then error's message
        self.message = above[-1].strip() if above else "error"
        self.frames: list[tuple[str, int, int, str]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if frame := _CALLED_AT.match(line):
            where = (frame.group("file"), int(frame.group("line")), int(frame.group("column")))
            self.frames.append((*where, frame.group("fn")))
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        if not self.frames:
            return []
        ours = [f for f in self.frames if self.ctx.in_project(f[0])]
        at = ours[0] if ours else None
        return [
            Hit(
                signal=self.message,
                message=self.message,
                file=at[0] if at else None,
                line=at[1] if at else None,
                column=at[2] if at else None,
                log_line=self.log_line,
                hint={"function": self.frames[0][3], "why": self.message[:500]},
                related=[(f, n, c, fn) for f, n, c, fn in ours[1:6]],
                key=("haskell call stack", self.log_line),
            )
        ]


@rule(
    id="haskell.runtime_error",
    category=FailureType.COMPILE,
    tool="ghc",
    pattern=r"^CallStack \(from HasCallStack\):$",
    triggers=("CallStack (from HasCallStack):",),
    url="https://hackage.haskell.org/package/base/docs/GHC-Stack.html",
)
def haskell_runtime_error(m: re.Match[str], ctx: LineContext) -> Block:
    """A Haskell program that died of `error`, `undefined` or another
    partial function with a call stack (GHC 8 and later).

    What it detects: the program's `main: no price for pear` line, then
    `CallStack (from HasCallStack):` and its `  error, called at
    src/Cart.hs:5:14 in main:Cart` lines.  The record sits at the first
    call site in the project (a library's own `error`, such as Data.Map's
    `Map.!`, gives no location); the message is the line above the call
    stack, the failing function hint["function"].  A bare `Prelude.head:
    empty list` (GHC 9.0 prints no call stack for it) is not read.

    Example output (`./main`, GHC 9.0.2):
        main: no price for pear
        CallStack (from HasCallStack):
          error, called at Main.hs:5:14 in main:Main

    Recipe: compile: the crash is the code's; nothing is changed
    automatically, the record is escalated with the message and the call
    site.

    References: https://hackage.haskell.org/package/base/docs/GHC-Stack.html,
    https://downloads.haskell.org/ghc/latest/docs/users_guide/exts/callstack.html
    """
    return _HaskellCallStack(ctx)
