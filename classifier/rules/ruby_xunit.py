"""Ruby's xUnit-style test runners: Minitest (and `rails test`) and test-unit."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, match_above
from .registry import rule
from .ruby import FRAME
from .ruby_test import report_hit

ECOSYSTEM = "Ruby"

# -- Minitest --------------------------------------------------------------------
_MINITEST_DOCS = "https://docs.seattlerb.org/minitest/"
_MINITEST_KIND = lazy_compile(r"^\s*(?:\d+\) )?(?P<kind>Failure|Error):$")
_RUN_SUMMARY = lazy_compile(r"^\d+ (?:runs|tests), \d+ assertions")


class _MinitestReport:
    """`TestCart#test_count [test/test_cart.rb:17]:` and the message lines
    (for an Error: the exception and its indented frames)."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext, kind: str) -> None:
        self.ctx = ctx
        self.kind = kind
        self.cls = m.group("cls")
        self.method = m.group("method")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.at = (m.group("file"), int(m.group("line"))) if m.group("file") else None
        self.lines: list[str] = []
        self.frames: list[tuple[str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if _MINITEST_KIND.match(line) or _RUN_SUMMARY.match(line):
            return False
        if line.startswith(("rails test ", "bin/rails test ")):
            return False
        if line.startswith("    ") and (frame := FRAME.match(line)):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        if self.frames:
            return False
        self.lines.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        test_id = f"{self.cls}#{self.method}"
        return [
            report_hit(
                self.ctx,
                runner="minitest",
                signal=self.signal,
                log_line=self.log_line,
                lines=self.lines,
                frames=self.frames,
                at=self.at,
                hint={"test_id": test_id, "class": self.cls, "method": self.method},
                key=("minitest", test_id),
            )
        ]


@rule(
    id="minitest.failure",
    category=FailureType.TEST,
    tool="minitest",
    pattern=r"^(?P<cls>[^#\s][^#]*?)#(?P<method>test_[^\[]*?)(?: \[(?P<file>[^\]\s]+?):(?P<line>\d+)\])?:$",
    triggers=("#test_",),
    url=_MINITEST_DOCS,
)
def minitest_failure(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A failing Minitest test (`ruby -Itest`, `rake test`, `rails test`).

    What it detects: under `  1) Failure:` (`Failure:` in `rails test`),
    `TestCart#test_count [test/test_cart.rb:17]:` and the message (`Expected:
    3` / `  Actual: 2`: hint["expected"], hint["actual"]), located at the
    bracketed assertion line; under `  2) Error:`, `TestCart#test_total:`,
    the exception (`NoMethodError: undefined method ...`: hint["exception"],
    hint["name"]) and its indented frames, located at the innermost frame in
    the project; a spec's class is its `describe` text (`shopping
    cart#test_0001_totals the prices`).  hint["test_id"] is `TestCart#test_count` (`ruby -Itest
    test/test_cart.rb -n test_count` re-runs it).  The closing `3 runs, 2
    assertions, 1 failures, 1 errors, 0 skips` is not a record, and `0
    failures, 0 errors` gives nothing.

    Example output (`ruby -Ilib -Itest test/test_cart.rb`, minitest 5.17.0):
          1) Failure:
        TestCart#test_count [test/test_cart.rb:17]:
        Expected: 3
          Actual: 2

    Recipe: test. Re-run the one test (`-n test_count`) to tell flaky from
    real; a real failure is escalated with expected vs actual.

    References: https://docs.seattlerb.org/minitest/,
    https://guides.rubyonrails.org/testing.html
    """
    kind = match_above(ctx, _MINITEST_KIND, 1)
    if kind is None:
        return None
    return _MinitestReport(m, ctx, kind.group("kind"))


# -- test-unit -------------------------------------------------------------------
_TEST_UNIT_EXCERPT = lazy_compile(r"^\s+(?:=> )?\d+: ")
_TEST_UNIT_RULE = lazy_compile(r"^={20,}$")


class _TestUnitReport:
    """test-unit's `Failure: test_x(TestCart)` / `Error: test_x(TestCart):`
    report, up to the `=====` line that closes it."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.kind = m.group("kind")
        self.method = m.group("method")
        self.cls = m.group("cls")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        self.frames: list[tuple[str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if _TEST_UNIT_RULE.match(line):
            return False
        if _TEST_UNIT_EXCERPT.match(line):
            return True
        if not line.startswith(" ") and (frame := FRAME.match(line)):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        self.lines.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        test_id = f"{self.cls}#{self.method}"
        return [
            report_hit(
                self.ctx,
                runner="test-unit",
                signal=self.signal,
                log_line=self.log_line,
                lines=self.lines,
                frames=self.frames,
                at=None,
                hint={"test_id": test_id, "class": self.cls, "method": self.method},
                key=("test-unit", test_id),
            )
        ]


@rule(
    id="ruby.test_unit",
    category=FailureType.TEST,
    tool="test-unit",
    pattern=r"^(?P<kind>Failure|Error): (?P<method>test.*?)\((?P<cls>[A-Z][\w:]*)\):?$",
    triggers=("Failure: test", "Error: test"),
    url="https://test-unit.github.io/",
)
def ruby_test_unit(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing test-unit test (Ruby's bundled `test/unit`).

    What it detects: `Failure: test_count(TestCart)` then the assertion's
    frame (`test/test_cart.rb:13:in `test_count'`), a source excerpt and the
    message (`<3> expected but was` / `<2>`: hint["expected"],
    hint["actual"]); `Error: test_total(TestCart):` with the exception
    (hint["exception"]) and its frames.  The location is the innermost frame
    in the project; hint["test_id"] is `TestCart#test_count`.  The `=====`
    rule closes a report; `2 tests, 1 assertions, 1 failures` is not a
    record.

    Example output (`ruby -Ilib test/test_cart.rb`, test-unit 3.5.7):
        Failure: test_count(TestCart)
        test/test_cart.rb:13:in `test_count'
          => 13:     assert_equal 3, @cart.count
        <3> expected but was
        <2>

    Recipe: test. Re-run the one test (`--name test_count`); a real failure
    is escalated with expected vs actual.

    References: https://test-unit.github.io/
    """
    return _TestUnitReport(m, ctx)
