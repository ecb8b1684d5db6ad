"""LLVM's test harness: FileCheck's check failures and lit's failed tests.

FileCheck prints its verdicts in a compiler's shape (`file:line:col: error:
CHECK: ...`), so without this family c.compiler_error would file a failing
test as a compile error."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

ECOSYSTEM = "C/C++ (LLVM lit, FileCheck)"

# What FileCheck says when a check does not hold (FileCheck.cpp's messages).
_MESSAGES = (
    "expected string not found in input",
    "excluded string found in input",
    "is not on the line after the previous match",
    "is on the same line as previous match",
    "is not on the same line as previous match",
    "found empty check string",
    "expected no input, found",
)
_LIT_FRAME = lazy_compile(r"^# \| ?")  # lit's internal shell quotes a command's stderr so
_CHECK = lazy_compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+): error: "
    r"(?P<directive>[A-Za-z][\w-]*?(?:-(?:NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-\d+))?): "
    r"(?P<message>" + "|".join(re.escape(m) for m in _MESSAGES) + r").*$"
)
_DOCS = "https://llvm.org/docs/CommandGuide/FileCheck.html"


def _check_hit(m: re.Match[str], signal: str, log_line: int | None) -> Hit:
    directive, message = m.group("directive"), m.group("message")
    return Hit(
        signal=signal,
        message=f"{directive}: {message}",
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")),
        code=directive,
        tool="FileCheck",
        log_line=log_line,
        hint={"directive": directive, "runner": "FileCheck"},
    )


@rule(
    id="filecheck.check_failed",
    category=FailureType.TEST,
    tool="FileCheck",
    pattern=r"^(?:# \| ?)?" + _CHECK.pattern[1:],
    triggers=_MESSAGES,
    url=_DOCS,
    priority=20,
)
def check_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """A FileCheck directive that did not hold: a test's verdict, not a
    compile error.

    What it detects: `file:line:col: error: CHECK: expected string not
    found in input` and FileCheck's other check failures (`CHECK-NOT:
    excluded string found in input`, `CHECK-NEXT: is not on the line after
    the previous match`, `CHECK-SAME`, `CHECK-EMPTY`, custom
    `--check-prefix` names), also quoted by lit's internal shell (`# | `).
    The record is at the directive in the check file (the test); the
    `note:` lines and the input dump under it are its context.

    Example output (`FileCheck-14 add.c --input-file add.ll`, LLVM 14.0.6):
        add.c:3:16: error: CHECK-NEXT: expected string not found in input
        // CHECK-NEXT: ret i32 %sum
                       ^
        add.ll:1:16: note: scanning from here

    Recipe: test (the check or the code it checks is wrong); hint:
    directive.

    References: https://llvm.org/docs/CommandGuide/FileCheck.html
    """
    text = _LIT_FRAME.sub("", ctx.line.rstrip())
    found = _CHECK.match(text)
    assert found is not None  # the rule's pattern is _CHECK's, framed
    return _check_hit(found, text, None)


_LIT_BANNER = lazy_compile(r"^\*{20} TEST '(?P<test>.+)' FAILED \*{20}$")
_STARS = "*" * 20


class _LitFailure:
    """lit's `FAIL: suite :: test (i of n)` and, under `-v`, the test's
    report between its `**** TEST '...' FAILED ****` banner and the
    closing stars."""

    max_lines = 20_000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.outcome = m.group("outcome")
        self.test = m.group("test")
        self.state = "head"
        self.check: Hit | None = None
        self.exit_code: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        text = line.rstrip()
        if self.state == "head":
            banner = _LIT_BANNER.match(text)
            if banner and banner.group("test") == self.test:
                self.state = "section"
                return True
            return False
        if text == _STARS:
            return False  # the report's closing stars: left to end the block
        if self.check is None:
            found = _CHECK.match(_LIT_FRAME.sub("", text))
            if found:
                self.check = _check_hit(found, found.group(0), line_no)
        if text.startswith("Exit Code: "):
            self.exit_code = text[len("Exit Code: ") :]
        return True

    def finish(self) -> Iterable[Hit]:
        suite, _, name = self.test.partition(" :: ")
        hint = {"runner": "lit", "test_id": self.test, "test_name": name or self.test}
        if suite and name:
            hint["suite"] = suite
        if self.exit_code:
            hint["exit_code"] = self.exit_code
        if self.outcome == "TIMEOUT":
            hint["kind"] = "timeout"
        if self.check is not None:
            self.check.hint.update(hint)
            yield self.check
            return
        yield Hit(
            signal=self.signal,
            message=f"lit test {self.test} {self.outcome.lower()}ed"
            if self.outcome != "TIMEOUT"
            else f"lit test {self.test} timed out",
            log_line=self.log_line,
            code=self.outcome,
            hint=hint,
            key=("lit", self.test),
        )


@rule(
    id="lit.failed",
    category=FailureType.TEST,
    tool="lit",
    pattern=r"^(?P<outcome>FAIL|XPASS|TIMEOUT): (?P<test>[^\s:][^:]* :: \S.*?) \(\d+ of \d+\)\s*$",
    triggers=("FAIL: ", "XPASS: ", "TIMEOUT: "),
    url="https://llvm.org/docs/CommandGuide/lit.html",
    priority=20,
)
def lit_failed(m: re.Match[str], ctx: LineContext) -> _LitFailure:
    """A test lit (LLVM's integrated tester) reports as failed.

    What it detects: `FAIL: suite :: test (i of n)` (also `XPASS`, a test
    expected to fail that passed, and `TIMEOUT`), with, under `lit -v`,
    the report that follows it (`**** TEST 'suite :: test' FAILED ****`
    ... the closing stars): the FileCheck error in it, quoted by lit's
    shell (`# | file:line:col: error: CHECK...`), places the record at the
    check that failed; without one the record names the test (hint
    `test_id` `suite :: test`, `exit_code`). The closing `Failed Tests
    (N):` list repeats the same tests and is not a record.

    Example output (`lit -v test`, lit 23.0):
        FAIL: adder :: sub.ll (2 of 2)
        ******************** TEST 'adder :: sub.ll' FAILED ********************
        Exit Code: 1
        # | /work/adder/test/sub.ll:3:15: error: CHECK-NEXT: is not on the line after the previous match

    Recipe: test (re-run the one test: `lit test/sub.ll`).

    References: https://llvm.org/docs/CommandGuide/lit.html
    """
    return _LitFailure(m, ctx)
