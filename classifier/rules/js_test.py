"""JavaScript test runners: jest, vitest, mocha, uvu and the Node.js test runner.

Every failing test is one record whose hint carries what the test recipe
needs to re-run that test alone: `test_id` (the full name, suite names and
test name joined by spaces, the form `jest -t`, `vitest -t` and
`mocha --grep` match), `test_path` (the names one by one), `test_file`,
`runner`, and `expected` / `actual` when the runner printed them.
Summaries ("Tests: 4 failed", "3 failing", "✖ failing tests:") are never
records of their own; a failure printed twice is one record.
"""

from __future__ import annotations

import re

from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .jest_vitest import VITEST_FAIL, JestBlock, VitestBlock, VitestUnhandledBlock
from .mocha_node import NODE_FAIL, MochaBlock, NodeTestBlock, ZeroPassingBlock
from .registry import rule
from .uvu_report import HEADER as UVU_HEADER
from .uvu_report import UvuBlock

# -- jest ---------------------------------------------------------------------------------


@rule(
    id="jest.failure",
    category=FailureType.TEST,
    tool="jest",
    pattern=r"^\s*FAIL\s+(?P<file>[^\s>]+?)(?:\s+\([\d.]+ m?s\))?\s*$",
    triggers=("FAIL",),
    url="https://jestjs.io/docs/cli",
)
def jest_failure(m: re.Match[str], ctx: LineContext) -> Block:
    """jest failing tests: `FAIL file` and its `● Suite › test` blocks.

    What it detects: each `● Suite › test` block under a `FAIL path` line:
    the assertion message, `Expected:` / `Received:` (or the `- Expected` /
    `+ Received` diff), and the stack frames `at ... (file:line:col)`. The
    record sits at the frame in the test file (the failing assertion), else
    at the innermost frame inside the project. `● Test suite failed to run`
    is a compile failure when it is a missing module or a syntax error, a
    test failure otherwise. The closing "Tests: N failed" summary is not a
    record; a test repeated under "Summary of all failing tests" is the same
    record.

    Example output (`jest`, jest 30.5.2):
        FAIL test/math.test.js
          ● math › adds big numbers

            expect(received).toBe(expected) // Object.is equality

            Expected: 10
            Received: 11
              at Object.toBe (test/math.test.js:9:23)

    Recipe: test: re-run that one test (`jest <test_file> -t <test_id>`)
    to tell flaky from real; a real assertion failure is escalated with
    expected vs actual.

    References: https://jestjs.io/docs/cli
    """
    return JestBlock(m.group("file"), ctx)


@rule(
    id="jest.no_tests",
    category=FailureType.TEST,
    tool="jest",
    pattern=r"^No tests found, exiting with code 1",
    triggers=("No tests found, exiting with code",),
    url="https://jestjs.io/docs/cli#--passwithnotests",
)
def jest_no_tests(m: re.Match[str], ctx: LineContext) -> Hit:
    """jest ran no test although tests were expected.

    What it detects: `No tests found, exiting with code 1`, which jest
    prints when no test file matched (a wrong path or pattern, a
    `testMatch` that finds nothing) and `--passWithNoTests` was not given.

    Example output (`jest test/checkout`, jest 30.5.2):
        No tests found, exiting with code 1
        Run with `--passWithNoTests` to exit with code 0

    Recipe: test: nothing to re-run; escalated with the pattern that
    matched nothing.

    References: https://jestjs.io/docs/cli#--passwithnotests
    """
    return Hit(
        signal=ctx.line.strip(), message=ctx.line.strip(), hint={"runner": "jest", "no_tests": True}
    )


# -- vitest -------------------------------------------------------------------------------


@rule(
    id="vitest.failure",
    category=FailureType.TEST,
    tool="vitest",
    pattern=VITEST_FAIL,
    triggers=("FAIL",),
    url="https://vitest.dev/guide/cli",
    priority=1,
)
def vitest_failure(m: re.Match[str], ctx: LineContext) -> Block:
    """vitest failing tests: `FAIL file > suite > test` and `❯ file:line:col`.

    What it detects: each ` FAIL  file > suite > test` heading of vitest's
    "Failed Tests" section, the error under it (`AssertionError: expected
    11 to be 10`), the `- Expected` / `+ Received` diff and the
    `❯ file:line:col` locations, up to the `⎯⎯⎯[1/4]⎯` separator. The
    record sits at the location in the test file, else the innermost one in
    the project. ` FAIL  file [ file ]` (a file that failed to load) is a
    compile failure for a missing module or a syntax error. The `×` lines of
    the run list and the "Tests  4 failed" summary are not records.

    Example output (`vitest run --globals`, vitest 4.1.12):
         FAIL  test/math.test.js > math > adds big numbers
        AssertionError: expected 11 to be 10 // Object.is equality
         ❯ test/math.test.js:9:23

    Recipe: test: re-run that test alone (`vitest run <test_file> -t
    <test_id>`); a real assertion failure is escalated with expected vs
    actual.

    References: https://vitest.dev/guide/cli
    """
    return VitestBlock(m, ctx)


@rule(
    id="vitest.no_tests",
    category=FailureType.TEST,
    tool="vitest",
    pattern=r"^No test files found, exiting with code 1",
    triggers=("No test files found, exiting with code",),
    url="https://vitest.dev/config/#passwithnotests",
)
def vitest_no_tests(m: re.Match[str], ctx: LineContext) -> Hit:
    """vitest found no test file although tests were expected.

    What it detects: `No test files found, exiting with code 1` (no file
    matched the filter or the `include` globs; `--passWithNoTests` not set).

    Example output (`vitest run checkout`, vitest 4.1.12):
        No test files found, exiting with code 1

    Recipe: test: nothing to re-run; escalated with the filter.

    References: https://vitest.dev/config/#passwithnotests
    """
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip(),
        hint={"runner": "vitest", "no_tests": True},
    )


@rule(
    id="vitest.unhandled",
    category=FailureType.TEST,
    tool="vitest",
    pattern=r"^⎯+ (?P<kind>Uncaught Exception|Unhandled Rejection|Unhandled Error) ⎯+\s*$",
    triggers=("⎯ Uncaught Exception ⎯", "⎯ Unhandled Rejection ⎯", "⎯ Unhandled Error ⎯"),
    url="https://vitest.dev/config/#dangerouslyignoreunhandlederrors",
)
def vitest_unhandled(m: re.Match[str], ctx: LineContext) -> Block:
    """vitest errors thrown outside any test (the run fails though tests pass).

    What it detects: the `⎯⎯ Uncaught Exception ⎯⎯` / `Unhandled Rejection`
    reports of vitest's "Unhandled Errors" section: the error, its
    `❯ fn file:line:col` locations and the lines naming the test file it
    came from and the latest test that ran. The record sits at the innermost
    location inside the project; `latest_test` in the hint is only vitest's
    guess, so no `test_id` is given.

    Example output (`vitest run --globals`, vitest 4.1.12):
        ⎯⎯⎯⎯⎯ Uncaught Exception ⎯⎯⎯⎯⎯
        TypeError: late failure: socket closed
         ❯ Timeout._onTimeout test/timer.test.js:2:28
        This error originated in "test/timer.test.js" test file.

    Recipe: test: re-run the test file once to tell flaky from real.

    References: https://vitest.dev/config/#dangerouslyignoreunhandlederrors
    """
    return VitestUnhandledBlock(m.group("kind"), ctx)


# -- mocha --------------------------------------------------------------------------------


@rule(
    id="mocha.failure",
    category=FailureType.TEST,
    tool="mocha",
    pattern=r"^\s+(?P<count>\d+) failing\s*$",
    triggers=(" failing",),
    url="https://mochajs.org/#spec",
)
def mocha_failure(m: re.Match[str], ctx: LineContext) -> Block | None:
    """mocha failures: the numbered blocks after `N failing`.

    What it detects: the spec reporter's `N failing` line and the numbered
    failures under it (`1) suite` / `test:` title lines, the error message,
    mocha's `+ expected - actual` diff and the stack). The test file is the
    file of the `Context.<anonymous>` frame (the test body); the record sits
    there, else at the innermost frame inside the project.

    Example output (`mocha`, mocha 12.0.3):
          3 failing

          1) math
               adds big numbers:

              AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
              at Context.<anonymous> (test/math.test.js:10:12)

    Recipe: test: re-run that test alone (`mocha <test_file> --grep
    <test_id>`); a real assertion failure is escalated with expected vs
    actual (read from the diff).

    References: https://mochajs.org/#spec
    """
    count = int(m.group("count"))
    return MochaBlock(count, ctx) if count > 0 else None


@rule(
    id="mocha.no_tests",
    category=FailureType.TEST,
    tool="mocha",
    pattern=r"^(?:\s+0 passing \(\d+m?s\)\s*$|Error: No test files found)",
    triggers=("0 passing (", "Error: No test files found"),
    url="https://mochajs.org/#command-line-usage",
    priority=30,
)
def mocha_no_tests(m: re.Match[str], ctx: LineContext) -> Block | Hit:
    """mocha ran no test although tests were expected.

    What it detects: `0 passing (1ms)` with neither failing nor pending
    tests after it (a `--grep` or spec that matched nothing, a describe with
    no `it`), and `Error: No test files found: "spec"`, mocha's exit for a
    spec glob that matched no file.

    Example output (`mocha --grep checkout`, mocha 12.0.3):
          0 passing (1ms)

    Recipe: test: nothing to re-run; escalated with the filter that
    matched nothing.

    References: https://mochajs.org/#command-line-usage
    """
    if ctx.line.startswith("Error: No test files found"):
        return Hit(
            signal=ctx.line.strip(),
            message=ctx.line.strip(),
            hint={"runner": "mocha", "no_tests": True},
        )
    return ZeroPassingBlock(ctx)


# -- node:test (spec reporter) --------------------------------------------------------------


@rule(
    id="node_test.spec",
    category=FailureType.TEST,
    tool="node:test",
    pattern=NODE_FAIL,
    triggers=("✖ ",),
    url="https://nodejs.org/api/test.html#test-reporters",
)
def node_test_spec(m: re.Match[str], ctx: LineContext) -> Block:
    """Node.js test runner failures in the spec reporter (`node --test`).

    What it detects: `✖ name (1.2ms)` lines followed by the error (indented
    deeper), the stack `at TestContext.<anonymous> (file:line:col)` and the
    error's properties (`actual: 11,` / `expected: 10,`). The suite path
    comes from the `▶ suite` lines above. A suite's own `✖ suite (ms)` line
    (no error under it) is not a record; the "✖ failing tests:" recap at
    the end repeats each failure, which stays one record. When the output
    is not a terminal, Node 20 prints TAP instead (see tap.not_ok).

    Example output (`node --test --test-reporter=spec`, Node.js 20.20.2):
        ▶ math
          ✖ adds big numbers (6.97ms)
            AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
                at TestContext.<anonymous> (/work/app/test/math.test.js:11:12)

    Recipe: test: re-run that test alone (`node --test
    --test-name-pattern <test_name> <test_file>`); a real assertion failure
    is escalated with expected vs actual.

    References: https://nodejs.org/api/test.html#test-reporters
    """
    return NodeTestBlock(m, ctx)


# -- uvu ----------------------------------------------------------------------------------


@rule(
    id="uvu.failure",
    category=FailureType.TEST,
    tool="uvu",
    pattern=UVU_HEADER.pattern,
    triggers=("   FAIL  ",),
    url="https://github.com/lukeed/uvu/blob/master/docs/cli.md",
    priority=2,
)
def uvu_failure(m: re.Match[str], ctx: LineContext) -> Block:
    """uvu failing tests: each `FAIL  [suite  ]"name"` report.

    What it detects: the report's header (suite and test name), the error's
    message (an assertion's ends with its operator, `(is)`, `(equal)`), the
    `++expected` / `--actual` lines of uvu's diff and the stack
    (classifier/rules/uvu_report.py). The record sits at the test's own
    frame (uvu's `Object.handler`), or at the frame that threw when the
    error names a cause: uvu prints a thrown error by its message alone, so
    `fmt is not defined` is read as the ReferenceError it is (compile, at
    the line that uses the name). The `Total: / Passed:` summary is not a
    record.

    Example output (`uvu test`, uvu 0.5.6):
           FAIL  "totals three"
            Expected values to be strictly equal:  (is)

                ++6    (Expected)
                --7    (Actual)

            at assert (/app/node_modules/uvu/assert/index.js:33:8)
            at Object.handler (/app/test/cart.js:10:10)

    Recipe: test: re-run the test's file (`uvu test '^cart\\.js$'`: uvu
    selects files, not tests); a test of that file that is not reported
    failing again, with nothing skipped, passed.

    References: https://github.com/lukeed/uvu/blob/master/docs/cli.md,
    https://github.com/lukeed/uvu/blob/master/docs/api.assert.md
    """
    return UvuBlock(m, ctx)
