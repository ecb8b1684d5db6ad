"""C and C++ test runners: GoogleTest's and Catch2's failed tests, Unity's
result lines and CTest's summary of the tests that failed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import FALLBACK, Block, Hit, LineContext, find_above
from ..causes import environment_cause
from ..registry import rule

# `cart_test.cpp:8: Failure`, MSVC's `cart_test.cpp(8): error: ...`, `unknown file: Failure`
_GTEST_FAILURE = lazy_compile(
    r"^(?:(?P<file>[^\s:(][^:(]*?)(?::(?P<line>\d+): Failure|\((?P<mline>\d+)\): error: (?P<rest>.*))"
    r"|unknown file: Failure)$"
)
_GTEST_SECTION = ("[ RUN      ] ", "[  FAILED  ] ", "[       OK ] ", "[  SKIPPED ] ")


@rule(
    id="c.gtest",
    category=FailureType.TEST,
    tool="googletest",
    pattern=(
        r"^\[  FAILED  \] (?P<test>[\w/.]+\.[\w/]+)(?:, where (?P<where>.+?))?"
        r"(?: \((?P<ms>\d+) ms\))?$"
    ),
    triggers=("[  FAILED  ] ",),
    url="https://google.github.io/googletest/primer.html",
)
def c_gtest(m: re.Match[str], ctx: LineContext) -> Hit:
    """A failing GoogleTest test (C++), alone or under CTest.

    What it detects: `[  FAILED  ] Cart.TotalAddsPrices (0 ms)` ending a
    test's output, and the failures printed since its `[ RUN      ]` line:
    `cart_test.cpp:8: Failure` (MSVC: `cart_test.cpp(8): error: ...`) with
    the assertion's explanation under it.  The record sits at the first
    failure's line; hint["test_id"] is `Suite.Test` (a parameterised
    test's `Inst/Suite.Test/0`, its `where GetParam() = ...` in
    hint["param"]), `Which is: 85` under `Expected equality` gives
    hint["actual"].  An exception out of the test body (`unknown file:
    Failure`, `C++ exception with description "..." thrown in the test
    body`) has no location; a message naming the environment (`connection
    refused`) makes the record infra.  The summary's `[  FAILED  ] Cart.Throws` list
    repeats the same tests (one record each); `[  FAILED  ] 3 tests,
    listed below:` is not a test.

    Example output (`./cart_test`, GoogleTest 1.12.1):
        [ RUN      ] Cart.TotalAddsPrices
        cart_test.cpp:8: Failure
        Expected equality of these values:
          205
          total({120, 80, 5})
            Which is: 85
        [  FAILED  ] Cart.TotalAddsPrices (0 ms)

    Recipe: test. Re-run the one test (`./cart_test
    --gtest_filter=Cart.TotalAddsPrices`) to tell flaky from real; a real
    failure is escalated with the assertion's message.

    References: https://google.github.io/googletest/primer.html,
    https://google.github.io/googletest/advanced.html#running-a-subset-of-the-tests
    """
    test = m.group("test")
    hint: dict[str, Any] = {"runner": "googletest", "test_id": test}
    if m.group("where"):
        hint["param"] = m.group("where")
    file: str | None = None
    line: int | None = None
    message: list[str] = []
    if m.group("ms") is not None:  # the test's own end: its output is above
        run = f"[ RUN      ] {test}"
        found = find_above(ctx, 500, lambda line: line == run)
        failures = 0
        for text in found[0][found[1] + 1 :] if found else []:
            failure = _GTEST_FAILURE.match(text)
            if failure:
                failures += 1
                if failures == 1 and failure.group("file"):
                    file = failure.group("file")
                    line = int(failure.group("line") or failure.group("mline"))
                if failure.group("rest") and failures == 1:
                    message.append(failure.group("rest").strip())
            elif failures == 1 and text.strip() and not text.startswith(_GTEST_SECTION):
                message.append(text.strip())
        hint["failures"] = failures
    why = " ".join(message)
    if why:
        hint["why"] = why[:500]
    if why.startswith("Expected equality") and "Which is: " in why:
        hint["actual"] = why.rsplit("Which is: ", 1)[1][:200]  # the last side printed
    category: FailureType | None = None
    if why and (cause := environment_cause([why])) is not None:  # "connection refused"
        category = cause.category
        hint.update(cause.hint)
    return Hit(
        signal=ctx.line.strip(),
        message=f"{test}: {why or 'failed'}"[:500],
        file=file,
        line=line,
        category=category,
        hint=hint,
        key=("gtest", test),
    )


class _Catch2Failure:
    """A Catch2 failure's lines: the assertion, `with expansion:` and its
    values (or the exception's message), up to the blank line."""

    max_lines = 60

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.file = m.group("file")
        self.line = int(m.group("line") or m.group("mline"))
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        # the test case (and section) names: between the last two rules of
        # dashes above, over the test case's own `file:line` and a rule of dots
        names: list[str] = []
        before = ctx.before(60)
        dots = next(
            (i for i in range(len(before) - 1, -1, -1) if before[i].startswith("....")), None
        )
        if dots is not None and dots >= 3 and before[dots - 2].startswith("-----"):
            for text in reversed(before[: dots - 2]):
                if text.startswith("-----"):
                    break
                names.append(text.strip())
        self.names = list(reversed(names))

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return False
        self.lines.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        why = " ".join(self.lines)
        test = self.names[0] if self.names else None
        hint: dict[str, Any] = {"runner": "catch2", "why": why[:500]}
        if test:
            hint["test_id"] = test
            if self.names[1:]:
                hint["section"] = " / ".join(self.names[1:])
        category: FailureType | None = None
        if (cause := environment_cause(self.lines)) is not None:
            category = cause.category
            hint.update(cause.hint)
        return [
            Hit(
                signal=self.signal,
                message=f"{test}: {why}" if test else why or "FAILED",
                file=self.file,
                line=self.line,
                category=category,
                log_line=self.log_line,
                hint=hint,
            )
        ]


@rule(
    id="c.catch2",
    category=FailureType.TEST,
    tool="catch2",
    pattern=r"^(?P<file>[^\s:(][^:(]*?)(?::(?P<line>\d+)|\((?P<mline>\d+)\)): FAILED:$",
    triggers=(": FAILED:",),
    url="https://github.com/catchorg/Catch2/blob/devel/docs/reporters.md",
)
def c_catch2(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing Catch2 assertion (C++; Catch2 v2 and v3 console reporter).

    What it detects: `cart_test.cpp:9: FAILED:` (MSVC builds:
    `cart_test.cpp(9): FAILED:`), the assertion under it (`REQUIRE(
    total({120, 80, 5}) == 205 )`), `with expansion:` and the values, or
    `due to unexpected exception with message:`; up to the blank line.
    The record sits at the failed assertion; the test case's name, printed
    in the box of dashes above (with its sections under it), is
    hint["test_id"] (hint["section"]).  `All tests passed` gives nothing.

    Example output (`./cart_test`, Catch v2.13.10):
        -------------------------------------------------------------------------------
        total adds the prices
        -------------------------------------------------------------------------------
        cart_test.cpp:8
        ...............................................................................

        cart_test.cpp:9: FAILED:
          REQUIRE( total({120, 80, 5}) == 205 )
        with expansion:
          85 == 205

    Recipe: test. Re-run the one test case (`./cart_test "total adds the
    prices"`) to tell flaky from real; a real failure is escalated with the
    expansion.

    References: https://github.com/catchorg/Catch2/blob/devel/docs/reporters.md,
    https://github.com/catchorg/Catch2/blob/devel/docs/command-line.md
    """
    return _Catch2Failure(m, ctx)


# `Expected 3 Was 4`, `Expected "a" Was "b"`, `Expected TRUE Was FALSE`
_EXPECTED = lazy_compile(r"^Expected (?P<expected>.+?) Was (?P<actual>.+?)(?:\. .*)?$")


@rule(
    id="c.unity",
    category=FailureType.TEST,
    tool="unity",
    pattern=(
        r"^(?P<file>[^\s:][^:]*\.(?:c|cc|cpp|cxx|h|hpp)):(?P<line>\d+):(?P<test>\w+)"
        r":FAIL(?::\s*(?P<message>.*))?$"
    ),
    triggers=(":FAIL",),
    url="https://github.com/ThrowTheSwitch/Unity/blob/master/docs/UnityAssertionsReference.md",
)
def c_unity(m: re.Match[str], ctx: LineContext) -> Hit:
    """A failing Unity test (the C unit-test framework), alone or under CTest.

    What it detects: Unity's result line `tests/misc_tests.c:185:
    typecheck_functions_should_check_type:FAIL: Expected TRUE Was FALSE`,
    `file:line:test:FAIL: message` with the line of the failed assertion;
    `:PASS` and `:IGNORE` lines are not failures.  The test's name is
    hint["test_id"]; `Expected 3 Was 4` gives hint["expected"] and
    hint["actual"].

    Example output (`ctest --output-on-failure`, cmake 3.25.1, cJSON's tests):
        /src/cJSON/tests/misc_tests.c:185:typecheck_functions_should_check_type:FAIL: Expected TRUE Was FALSE

        -----------------------
        30 Tests 1 Failures 0 Ignored
        FAIL

    Recipe: test. Re-run the test executable to tell flaky from real; a
    real failure is escalated with expected vs actual.

    References: https://github.com/ThrowTheSwitch/Unity/blob/master/docs/UnityAssertionsReference.md
    """
    message = (m.group("message") or "").strip()
    test = m.group("test")
    hint: dict[str, Any] = {"runner": "unity", "test_id": test, "why": message[:500]}
    if expected := _EXPECTED.match(message):
        hint["expected"] = expected.group("expected")
        hint["actual"] = expected.group("actual")
    return Hit(
        signal=ctx.line.strip(),
        message=f"{test}: {message or 'FAIL'}",
        file=m.group("file"),
        line=int(m.group("line")),
        hint=hint,
        key=("unity", m.group("file"), test),
    )


# `\t 14 - misc_tests (Failed)`, `\t  3 - crash (SEGFAULT)`, `\t  2 - slow (Timeout)`
_FAILED_TEST = lazy_compile(r"^\s+(?P<number>\d+) - (?P<name>\S+) \((?P<why>[^)]+)\)(?:\s+\S+)*$")


class _CTestFailed:
    """The list under `The following tests FAILED:`."""

    max_lines = 500

    def __init__(self, ctx: LineContext) -> None:
        self.log_line = ctx.line_no
        self.tests: list[tuple[str, str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if failed := _FAILED_TEST.match(line):
            self.tests.append((failed.group("name"), failed.group("why"), line_no))
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        hits: list[Hit] = []
        for name, why, line_no in self.tests:
            # `Not Run`: the test's executable was not built (or not found)
            category = FailureType.COMPILE if why.startswith("Not Run") else None
            hits.append(
                Hit(
                    signal=f"{name} ({why})",
                    message=f"ctest: {name} {why.lower()}",
                    category=category,
                    log_line=line_no,
                    confidence=0.5,
                    hint={"runner": "ctest", "test_id": name, "why": why},
                    key=(FALLBACK, "ctest", name),
                )
            )
        return hits


@rule(
    id="c.ctest",
    category=FailureType.TEST,
    tool="ctest",
    pattern=r"^The following tests FAILED:$",
    triggers=("The following tests FAILED:",),
    url="https://cmake.org/cmake/help/latest/manual/ctest.1.html",
)
def c_ctest(m: re.Match[str], ctx: LineContext) -> Block:
    """CTest's list of the tests that failed (`ctest`, `make test`,
    `cmake --build . --target test`).

    What it detects: `The following tests FAILED:` and the list under it,
    `\\t 14 - misc_tests (Failed)` (also `(SEGFAULT)`, `(Timeout)`,
    `(Subprocess aborted)`, `(Not Run)`), one record per test with
    hint["test_id"] the CTest name.  The list only names the test
    executables: each record is a fallback (Hit.key FALLBACK, confidence
    0.5), dropped when the test framework's own lines were read (Unity's
    `file:line:test:FAIL`, a compiler error); `Not Run` (the executable was
    not built) is compile.

    Example output (`ctest --output-on-failure`, cmake 3.25.1):
        89% tests passed, 2 tests failed out of 19

        Total Test time (real) =   0.08 sec

        The following tests FAILED:
        \t 14 - misc_tests (Failed)
        \t 18 - readme_examples (Failed)

    Recipe: test. Re-run the one test (`ctest -R '^misc_tests$'
    --output-on-failure`) to get its output and tell flaky from real.

    References: https://cmake.org/cmake/help/latest/manual/ctest.1.html
    """
    return _CTestFailed(ctx)
