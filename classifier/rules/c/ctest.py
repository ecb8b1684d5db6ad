"""C and C++ test runners: Unity's result lines and CTest's summary of the
tests that failed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...taxonomy import FailureType
from ..base import FALLBACK, Block, Hit, LineContext
from ..registry import rule

# `Expected 3 Was 4`, `Expected "a" Was "b"`, `Expected TRUE Was FALSE`
_EXPECTED = re.compile(r"^Expected (?P<expected>.+?) Was (?P<actual>.+?)(?:\. .*)?$")


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
_FAILED_TEST = re.compile(r"^\s+(?P<number>\d+) - (?P<name>\S+) \((?P<why>[^)]+)\)(?:\s+\S+)*$")


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
