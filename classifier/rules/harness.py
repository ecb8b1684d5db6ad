"""Project test harnesses: the verdict lines of a suite's own driver (jq's
`--run-tests`, CPython's regrtest, tcltest's `runAllTests`, a project's
script counting its failures) and the failure reports of the ones we know."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Hit, LineContext, match_above
from .python_traceback import TRACEBACK_HEAD, Traceback
from .registry import rule

ECOSYSTEM = "Any tool (test harnesses)"
_TEST = FailureType.TEST

# The verdict shapes: a count of failures, a count passed out of a total, a
# result word. Each names what it counts (tests, test cases, test files).
_UNIT = r"(?:test(?:s| cases?| files?)?|checks?|cases?)"
_VERDICT = lazy_compile(
    r"^\W{0,4}(?:"
    rf"(?P<passed>\d+) (?:of|out of|/) (?P<ptotal>\d+) {_UNIT} passed\b"
    rf"|(?:FAILED|FAIL|Failed|Failures?):? (?P<ffailed>\d+) (?:of|out of|/) (?P<ftotal>\d+) {_UNIT}\b"
    rf"|(?P<failed>\d+) (?:of|out of) (?P<total>\d+) {_UNIT} failed\b"
    rf"|(?P<count>\d+) {_UNIT} failed\b"
    r"|== Tests result: (?P<result>FAILURE|ENV CHANGED|INTERRUPTED)[^=]*=="
    r"|(?P<tcl>\S+):\s+Total\s+(?P<ttotal>\d+)\s+Passed\s+\d+\s+Skipped\s+\d+\s+Failed\s+(?P<tfailed>\d+)"
    r")"
)


def _numbers(m: re.Match[str]) -> tuple[int | None, int | None]:
    """(failed, total) of a verdict line; failed None for a result word."""
    g = m.groupdict()
    if g["passed"]:
        return int(g["ptotal"]) - int(g["passed"]), int(g["ptotal"])
    for failed_key, total_key in (
        ("ffailed", "ftotal"),
        ("failed", "total"),
        ("tfailed", "ttotal"),
    ):
        if g[failed_key]:
            return int(g[failed_key]), int(g[total_key])
    if g["count"]:
        return int(g["count"]), None
    return None, None


@rule(
    id="harness.verdict",
    category=_TEST,
    tool="harness",
    pattern=_VERDICT.pattern,
    triggers=(
        " tests passed",
        " test passed",
        " tests failed",
        " test failed",
        " test cases failed",
        " test files failed",
        "FAILED: ",
        "Tests result: ",
        "\tFailed\t",
    ),
    url="https://en.wikipedia.org/wiki/Test_harness",
    priority=-50,
)
def verdict(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A test harness's closing verdict: some tests failed.

    What it detects: the count lines a suite's own driver prints at its end,
    whatever the project: `8 of 10 tests passed (0 malformed)` (jq's
    `--run-tests`), `FAILED: 3 of 120 tests`, `2 of 40 tests failed`, `1 test
    failed:` / `5 tests failed` (CPython's regrtest, many scripts), `==
    Tests result: FAILURE ==` (regrtest), tcltest's `all.tcl: Total 2
    Passed 1 Skipped 0 Failed 1`. A count of zero failures, or all passed,
    is no record. It is a summary: one record for the output, dropped when
    a more specific record (the failing test's own report) explains it; it
    stands when the harness printed nothing else the classifier reads
    (hint `failed`, `total`).

    Example output (`python3 -m test --testdir tests -r --randseed 1
    test_totals`, CPython 3.11.7's regrtest):
        test_totals failed (1 failure)

        == Tests result: FAILURE ==

        1 test failed:
            test_totals

    Recipe: test (re-run the harness; the failing tests are in its report).

    References: https://docs.python.org/3/library/test.html#running-tests-using-the-command-line-interface
    """
    failed, total = _numbers(m)
    if failed is not None and failed <= 0:
        return None  # `0 tests failed`, `10 of 10 tests passed`
    hint: dict[str, Any] = {"runner": "harness"}
    if failed is not None:
        hint["failed"] = failed
    if total is not None:
        hint["total"] = total
    what = f"{failed} of {total}" if failed is not None and total else f"{failed or 'some'}"
    return Hit(
        signal=ctx.line.strip(),
        message=f"the test harness reports {what} tests failed",
        confidence=0.6,
        hint=hint,
        key=(FALLBACK, "harness"),
    )


@rule(
    id="harness.jq_test",
    category=_TEST,
    tool="jq",
    pattern=r"^\*\*\* (?:Expected (?P<expected>.+), but got (?P<actual>.+) for test"
    r"|(?P<what>Insufficient results for test|Superfluous result: .+ for test|Test program .+?"
    r"|Erroneous program .+?|Input is invalid|Expected result is invalid))"
    r" (?:at|on) line(?: number)? (?P<line>\d+)[:,] (?P<program>.+)$",
    triggers=(
        "*** Expected ",
        "*** Insufficient results",
        "*** Superfluous result",
        "*** Test program ",
        "*** Erroneous program ",
        "*** Input is invalid",
    ),
    url="https://jqlang.org/manual/",
)
def jq_test(m: re.Match[str], ctx: LineContext) -> Hit:
    """A failing case of jq's test format (`jq --run-tests FILE`, what jq's
    own `tests/*test` drivers and jq module projects run).

    What it detects: `*** Expected X, but got Y for test at line number N:
    PROGRAM` (the expected and actual values) and jq's other verdicts on
    a case (`*** Insufficient results for test at line number N`, `***
    Superfluous result`, `*** Test program failed to compile at line N`,
    `*** Erroneous program failed with ...`, an invalid input or expected
    line): the test's line in the test file (jq does not print the file;
    hint `test_line`).

    Example output (`sh run-jq-suite.sh`: jq's tests/base64test from
    jqlang/jq, one expectation broken, jq 1.6):
        Testing '@base64' at line number 8
        *** Expected "PD4mJyI", but got "PD4mJyIJ" for test at line number 10: @base64
        8 of 10 tests passed (0 malformed)

    Recipe: test; hint: expected, actual, test_line, test_id (the program).

    References: https://jqlang.org/manual/
    """
    hint: dict[str, Any] = {
        "runner": "jq",
        "test_id": m.group("program"),
        "test_line": int(m.group("line")),
    }
    if m.group("expected") is not None:
        hint.update(expected=m.group("expected"), actual=m.group("actual"))
        why = f"expected {m.group('expected')}, got {m.group('actual')}"
    else:
        why = m.group("what")
    return Hit(signal=ctx.line.strip(), message=f"{m.group('program')}: {why}", hint=hint)


_TCL_FILE = lazy_compile(r"^(?P<file>[\w./-]+\.test)$")


class _TclFailure:
    """tcltest's `==== name description FAILED` ... `==== name FAILED`."""

    max_lines = 2_000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.name = m.group("name")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        at = match_above(ctx, _TCL_FILE, 400)
        self.file = at.group("file") if at else None
        self.part = ""
        self.values: dict[str, list[str]] = {"actual": [], "expected": []}
        self.done = False

    def feed(self, line: str, line_no: int) -> bool:
        if self.done:
            return False
        text = line.rstrip("\r\n")
        if text == f"==== {self.name} FAILED":
            self.done = True
            return True
        if text.startswith("---- Result was:"):
            self.part = "actual"
        elif text.startswith("---- Result should have been"):
            self.part = "expected"
        elif text.startswith(("====", "----")):
            self.part = ""
        elif self.part:
            self.values[self.part].append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {"runner": "tcltest", "test_id": self.name}
        for key, lines in self.values.items():
            if lines:
                hint[key] = "\n".join(lines)[:500]
        if self.file:
            hint["test_file"] = self.file
        yield Hit(
            signal=self.signal,
            message=f"tcltest {self.name} failed",
            file=self.file,
            log_line=self.log_line,
            hint=hint,
        )


@rule(
    id="harness.tcltest",
    category=_TEST,
    tool="tcltest",
    pattern=r"^==== (?P<name>\S+) (?P<description>.*\S) FAILED$",
    triggers=(" FAILED",),
    url="https://www.tcl-lang.org/man/tcl8.6/TclCmd/tcltest.htm",
)
def tcltest(m: re.Match[str], ctx: LineContext) -> _TclFailure | None:
    """A failing tcltest test (Tcl's harness: Tcl itself, Tk, SQLite's
    Tcl bindings, most Tcl packages).

    What it detects: `==== name description FAILED`, the test's body,
    `---- Result was:` and `---- Result should have been (exact
    matching):` (hint `actual`, `expected`), to `==== name FAILED`; the
    `*.test` file `runAllTests` named before it is the record's file.
    `runAllTests` exits 0 whatever failed: the closing `Total ... Failed
    N` line is the suite's verdict (harness.verdict).

    Example output (`tclsh tests/all.tcl`, Tcl 8.6.13):
        money.test
        ==== money-1.2 fractions round to the nearest cent FAILED
        ==== Contents of test case:
         cents 0.29
        ---- Result was:
        28
        ---- Result should have been (exact matching):
        29
        ==== money-1.2 FAILED

    Recipe: test; hint: test_id, expected, actual, test_file.

    References: https://www.tcl-lang.org/man/tcl8.6/TclCmd/tcltest.htm
    """
    if m.group("name") == "Contents":
        return None
    return _TclFailure(m, ctx)


class _RegrtestFailure:
    """regrtest's `test NAME failed -- Traceback ...`: the traceback on the
    lines after it, read as the interpreter's."""

    max_lines = 20_000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.name = m.group("name")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.tb = Traceback(ctx)
        self.reason = m.group("rest")

    def feed(self, line: str, line_no: int) -> bool:
        return self.tb.feed(line, line_no) if self.reason == TRACEBACK_HEAD else False

    def finish(self) -> Iterable[Hit]:
        where = self.tb.location() if self.tb.complete else None
        hint: dict[str, Any] = {"runner": "regrtest", "test_id": self.name}
        if self.tb.complete:
            hint["exception"] = self.tb.exc
        yield Hit(
            signal=self.tb.signal if self.tb.complete else self.signal,
            message=f"{self.name}: {self.tb.signal if self.tb.complete else self.reason}",
            file=where.file if where else None,
            line=where.line if where else None,
            code=self.tb.exc if self.tb.complete else None,
            log_line=self.tb.exc_line if self.tb.complete else self.log_line,
            hint=hint,
            related=self.tb.related(where),
        )


@rule(
    id="harness.regrtest",
    category=_TEST,
    tool="regrtest",
    pattern=r"^test (?P<name>[\w.]+) failed -- (?P<rest>.+)$",
    triggers=(" failed -- ",),
    url="https://docs.python.org/3/library/test.html#running-tests-using-the-command-line-interface",
)
def regrtest(m: re.Match[str], ctx: LineContext) -> _RegrtestFailure:
    """A test module CPython's regrtest (`python -m test`, CPython's own
    harness, also run by projects on their test directories with
    `--testdir`) reports as failed.

    What it detects: `test NAME failed -- Traceback (most recent call
    last):` and the traceback under it (the record at its innermost
    project frame, hint `test_id`, `exception`), or `test NAME failed --
    REASON` alone.

    Example output (`python3 -m test --testdir tests -r --randseed 1
    test_totals`, CPython 3.11.7):
        test test_totals failed -- Traceback (most recent call last):
          File "/work/app/tests/test_totals.py", line 5, in test_total
            self.assertEqual(sum([1, 2]), 4)
        AssertionError: 3 != 4

    Recipe: test (re-run `python -m test NAME`).

    References: https://docs.python.org/3/library/test.html#running-tests-using-the-command-line-interface
    """
    return _RegrtestFailure(m, ctx)


@rule(
    id="harness.lua_assert",
    category=_TEST,
    tool="lua",
    pattern=r"^(?:\S*/)?(?P<interp>lua[\w.]*|luajit[\w.]*): (?P<file>[^\s:]+\.lua):(?P<line>\d+):"
    r" assertion failed!$",
    triggers=(": assertion failed!",),
    url="https://www.lua.org/manual/5.4/manual.html#pdf-assert",
    priority=20,
)
def lua_assert(m: re.Match[str], ctx: LineContext) -> Hit:
    """A Lua `assert` that failed: how Lua's own test suite (`lua all.lua`
    in testes/) and most Lua projects' test scripts report a failing check.

    What it detects: `lua: strings.lua:107: assertion failed!` (any
    interpreter path: `../lua`, `/usr/bin/lua5.4`), the default message of
    `assert(v)`; the `stack traceback:` under it is the check's context.
    An assertion is a test's verdict (the taxonomy's AssertionError), so
    the record is test, at the assert's line, not a run-time error.

    Example output (`/usr/bin/lua5.4 strings.lua`, Lua 5.4.4):
        /usr/bin/lua5.4: strings.lua:3: assertion failed!
        stack traceback:
            [C]: in function 'assert'
            strings.lua:3: in main chunk

    Recipe: test (the check or the code it checks is wrong).

    References: https://www.lua.org/manual/5.4/manual.html#pdf-assert
    """
    return Hit(
        signal=ctx.line.strip(),
        message=f"{m.group('file')}:{m.group('line')}: assertion failed!",
        file=m.group("file"),
        line=int(m.group("line")),
        code="assert",
        hint={"runner": "lua"},
    )
