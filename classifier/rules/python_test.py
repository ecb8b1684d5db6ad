"""Python test runners: pytest and unittest.

Every test record carries what the test recipe needs to re-run that one
test: hint `runner` ("pytest" or "unittest"), `test_id` (the pytest node
id `tests/test_x.py::TestC::test_y[<lambda>0]` exactly as pytest prints
it, or the unittest id `module.Class.test_x`), `test_file` and
`test_line` (the test's own file and line), plus `expected`/`actual` and
`why` (the line that says why) when the report shows them.

A test whose exception names a cause (NameError, an import error, a
refused connection, a missing environment variable) is recorded under the
cause's category at the throwing frame (python_causes.py), the test still
in the hint. The pytest report readers are in pytest_report.py.
"""

from __future__ import annotations

import re
from typing import Any

from ..taxonomy import FailureType
from .base import Hit, LineContext
from .doctest_report import DOCTEST_AT, DoctestBlock
from .git.ownership import REFUSED as GIT_REFUSED
from .pytest_report import PytestBlock
from .pytest_summary import COLLECT_PATTERN, SUMMARY, TITLE_PATTERN, SectionBlock, summary_hit
from .pytest_usage import HEAD as USAGE_HEAD
from .pytest_usage import PytestUsage
from .python_crash import INTERRUPTED
from .registry import rule
from .unittest_report import UnittestBlock

_PYTEST_DOCS = "https://docs.pytest.org/en/stable/how-to/output.html"
_UNITTEST_DOCS = "https://docs.python.org/3/library/unittest.html"


@rule(
    id="pytest.failure",
    category=FailureType.TEST,
    tool="pytest",
    pattern=TITLE_PATTERN,
    triggers=("__ ",),
    url=_PYTEST_DOCS,
)
def pytest_failure(m: re.Match[str], ctx: LineContext) -> PytestBlock | None:
    """A failed pytest test: its report in the FAILURES (or ERRORS) section.

    What it detects: the `____ test_name ____` header (`TestClass.test_y`,
    `test_y[param]`, `ERROR at setup of test_y`, `[doctest] pkg.mod.func`
    with its Expected:/Got: lines) and the report under it, in
    the long (default), short (`--tb=short`) and native (`--tb=native`)
    traceback styles, with or without `-q`: the `E   ` lines (the exception
    and the assertion's explanation) and the `path.py:line: ...` locations.
    The location is the innermost frame inside the project; the other
    frames go to `related`. The summary line `FAILED tests/x.py::test_y - ...`
    printed later is the same failure and merges into this record.

    Example output (`python -m pytest`, pytest 9.2.0):
        __________________________________ test_total __________________________________

            def test_total():
        >       assert total([{"price": 2}, {"price": 3}]) == 6
        E       AssertionError: assert 5 == 6

        tests/test_calc.py:7: AssertionError

    Recipe: test: re-run only this test (hint `runner` "pytest", `test_id`
    the node id); `expected`/`actual` from `assert actual == expected`
    (left operand = actual, as in pytest's own convention for `==`).

    References: https://docs.pytest.org/en/stable/how-to/output.html
    """
    if not m.group("title").strip("_ "):
        return None  # the `_ _ _ _` separator between frames
    return PytestBlock(ctx, m.group("title"), ctx.line_no)


@rule(
    id="pytest.collection_error",
    category=FailureType.COMPILE,
    tool="pytest",
    pattern=COLLECT_PATTERN,
    triggers=("ERROR collecting ",),
    url="https://docs.pytest.org/en/stable/explanation/goodpractices.html",
    priority=5,
)
def pytest_collection_error(m: re.Match[str], ctx: LineContext) -> PytestBlock:
    """A test module pytest could not import: an error during collection.

    What it detects: `____ ERROR collecting tests/test_x.py ____` and its
    report (`E   ModuleNotFoundError: No module named 'x'`, a SyntaxError, an
    exception raised at import time), and the summary line
    `ERROR tests/test_x.py` that repeats it.

    Category: compile, not test: no test ran, the test module does not load
    (a missing import, a syntax error), which is what the compile recipe
    fixes. This rule runs before pytest.failure, which would otherwise read
    the same header as a test report.

    Example output (`python -m pytest tests`, pytest 9.2.0):
        ______________________ ERROR collecting tests/test_api.py ______________________
        ImportError while importing test module '/work/app/tests/test_api.py'.
        tests/test_api.py:1: in <module>
            import requests_mock_missing
        E   ModuleNotFoundError: No module named 'requests_mock_missing'

    Recipe: compile; hint `module`, `package` (curated list only), `test_id`
    (the module, to re-run its tests once fixed), `runner` "pytest".

    References: https://docs.pytest.org/en/stable/explanation/goodpractices.html
    """
    return PytestBlock(ctx, m.group("title"), ctx.line_no)


@rule(
    id="pytest.conftest_error",
    category=FailureType.COMPILE,
    tool="pytest",
    pattern=r"^ImportError while loading conftest '[^']+'\.\s*$",
    triggers=("ImportError while loading conftest ",),
    url="https://docs.pytest.org/en/stable/reference/fixtures.html#conftest-py-sharing-fixtures-across-multiple-files",
)
def pytest_conftest_error(m: re.Match[str], ctx: LineContext) -> PytestBlock:
    """A conftest.py pytest could not import: no test was even collected.

    What it detects: `ImportError while loading conftest '/path/conftest.py'.`
    (pytest exit code 4), then the `conftest.py:N: in <module>` frames and
    the `E   ModuleNotFoundError: ...` line. There is no section header and
    no summary line; the report ends at the first line that is neither a
    frame, an indented source line nor an `E` line.

    Category: compile, for the reason given under pytest.collection_error:
    the test suite does not load.

    Example output (`python -m pytest tests`, pytest 9.2.0):
        ImportError while loading conftest '/work/app/tests/conftest.py'.
        tests/conftest.py:2: in <module>
            from fakeredis import FakeRedis
        E   ModuleNotFoundError: No module named 'fakeredis'

    Recipe: compile; hint `module` (and `package` from the curated list),
    `runner` "pytest".

    References: https://docs.pytest.org/en/stable/reference/fixtures.html#conftest-py-sharing-fixtures-across-multiple-files
    """
    return PytestBlock(ctx, ctx.line.strip(), ctx.line_no)


@rule(
    id="pytest.summary",
    category=FailureType.TEST,
    tool="pytest",
    pattern=SUMMARY.pattern,
    triggers=("FAILED ", "ERROR ", "SUBFAILED", "SUBFAIL "),
    url="https://docs.pytest.org/en/stable/how-to/output.html#producing-a-detailed-summary-report",
)
def pytest_summary(m: re.Match[str], ctx: LineContext) -> Hit:
    """A line of pytest's "short test summary info".

    What it detects: `FAILED tests/test_x.py::TestC::test_y - message` and
    `ERROR tests/test_x.py[::test] - message`. When the detail report was
    printed above (the usual case) this merges into its record (same key)
    and only adds the exact node id; alone (`--tb=no`, a log that kept the
    tail) it is the record, located at the test file. `ERROR` for a file
    alone is a collection error (compile).

    Example output (`python -m pytest -q --tb=no`, pytest 9.2.0):
        FAILED tests/test_calc.py::TestRatio::test_zero - ZeroDivisionError: division...

    Recipe: test: re-run hint `test_id` with hint `runner`.

    References: https://docs.pytest.org/en/stable/how-to/output.html#producing-a-detailed-summary-report
    """
    return summary_hit(m, ctx.line, ctx.line_no)


@rule(
    id="pytest.section",
    category=FailureType.TEST,
    tool="pytest",
    pattern=r"^=+ (?:FAILURES|ERRORS) =+$",
    triggers=(" FAILURES ", " ERRORS "),
    url="https://docs.pytest.org/en/stable/how-to/output.html#modifying-python-traceback-printing",
)
def pytest_section(m: re.Match[str], ctx: LineContext) -> SectionBlock:
    """pytest's FAILURES and ERRORS sections, including the one-line
    traceback style (`--tb=line`).

    What it detects: the `=== FAILURES ===` / `=== ERRORS ===` section and
    everything in it. Each titled report is read as pytest.failure or
    pytest.collection_error describe (and recorded under those ids). In
    the `--tb=line` style a failed test is only its `E` line and
    `/abs/path/file.py:line: message` (the innermost frame), without the
    test's name: those are recorded under this id, and the FAILED lines of
    the short test summary that follows are paired with them in order,
    which gives each its node id and merges the two.

    Example output (`python -m pytest --tb=line`, pytest 9.2.0):
        =================================== FAILURES ===================================
        E   AssertionError: assert 4 == 5
        /work/app/tests/test_calc.py:7: AssertionError: assert 4 == 5

    Recipe: test, as for pytest.failure.

    References: https://docs.pytest.org/en/stable/how-to/output.html#modifying-python-traceback-printing
    """
    return SectionBlock(ctx)


@rule(
    id="pytest.no_tests",
    category=FailureType.TEST,
    tool="pytest",
    pattern=r"^(?:=+ )?(?:no tests ran|(?P<deselected>\d+) deselected) in [\d.]+s(?: \([\d:]+\))?(?: =+)?\s*$",
    triggers=("no tests ran in ", " deselected in "),
    url="https://docs.pytest.org/en/stable/reference/exit-codes.html",
)
def pytest_no_tests(m: re.Match[str], ctx: LineContext) -> Hit:
    """pytest collected nothing: "no tests ran" (exit code 5).

    What it detects: the closing line `=== no tests ran in 0.01s ===` (or
    `no tests ran in 0.01s` under `-q`), printed after "collected 0 items"
    when the selection found no test: a wrong path, a `-k` that matches
    nothing, test files not named `test_*.py`; and `=== 2 deselected in
    0.01s ===` when `-k`/`-m` deselected every collected test (also exit
    code 5; a run where some tests ran says "N passed, M deselected" and is
    not matched). Tests were expected and none ran, the taxonomy's
    "0 passing when tests expected".

    Example output (`python -m pytest tests`, pytest 9.2.0):
        collected 0 items

        ============================ no tests ran in 0.01s =============================

    After pytest.interrupted (SIGINT stopped the run) it is that
    interruption's consequence and folded into its record.  After git refused the repository in the same output (git's "detected
    dubious ownership"), the empty run is that refusal's consequence: it is
    folded into git.dubious_ownership's infra record.

    Recipe: test; no location (hint `runner` "pytest").

    References: https://docs.pytest.org/en/stable/reference/exit-codes.html
    """
    deselected = m.group("deselected")
    message = (
        f"pytest ran no tests: all {deselected} collected tests were deselected"
        if deselected
        else "pytest collected no tests: no tests ran"
    )
    hint: dict[str, Any] = {"runner": "pytest"}
    if deselected:
        hint["deselected"] = int(deselected)
    if ctx.state.get(INTERRUPTED):
        # the run was stopped from outside before any test finished
        return Hit(
            signal=ctx.line.strip(),
            message=message,
            category=FailureType.INFRA,
            hint={"consequence": message},
            key=("interrupted", "pytest"),
        )
    refused = ctx.state.get(GIT_REFUSED)
    if refused is not None:
        # git refused the repository above: the tests to run came from git
        return Hit(
            signal=ctx.line.strip(),
            message=message,
            category=FailureType.INFRA,
            hint={"consequence": message},
            key=("repo_ownership", refused),
        )
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        hint=hint,
        key=("pytest", "no-tests"),
    )


# -- unittest -------------------------------------------------------------------
@rule(
    id="unittest.failure",
    category=FailureType.TEST,
    tool="unittest",
    pattern=r"^(?P<outcome>FAIL|ERROR): (?P<name>[\w.]+) \((?P<where>[\w.]+)\)",
    triggers=("FAIL: ", "ERROR: "),
    url=_UNITTEST_DOCS,
)
def unittest_failure(m: re.Match[str], ctx: LineContext) -> UnittestBlock:
    """A failed or erroring unittest test.

    What it detects: `FAIL: test_x (module.Class.test_x)` (Python 3.11+; older
    versions print `(module.Class)`) or `ERROR: ...`, the dashed separator,
    and the traceback under it; the location is the traceback's innermost
    frame inside the project. The closing `FAILED (failures=1)` only counts
    what these blocks already reported and is not a record of its own. A
    test module that does not import (`ERROR: test_x
    (unittest.loader._FailedTest.test_x)` with an ImportError) is compile.

    Example output (`python -m unittest`, Python 3.11.7):
        ======================================================================
        FAIL: test_total (test_cart.CartTest.test_total)
        ----------------------------------------------------------------------
        Traceback (most recent call last):
          File "/work/app/test_cart.py", line 8, in test_total
            self.assertEqual(total([2, 3]), 6)
        AssertionError: 5 != 6

    Recipe: test: re-run hint `test_id` (`python -m unittest
    module.Class.test_x`), hint `runner` "unittest"; `actual`/`expected`
    from `first != second` of assertEqual(first, second), first taken as
    the actual value.

    References: https://docs.python.org/3/library/unittest.html
    """
    name, where = m.group("name"), m.group("where")
    test_id = where if where == name or where.endswith("." + name) else f"{where}.{name}"
    return UnittestBlock(ctx, m.group("outcome"), test_id, ctx.line_no)


# -- doctest ----------------------------------------------------------------------
@rule(
    id="doctest.failure",
    category=FailureType.TEST,
    tool="doctest",
    pattern=r"^Failed example:$",
    triggers=("Failed example:",),
    url="https://docs.python.org/3/library/doctest.html",
)
def doctest_failure(m: re.Match[str], ctx: LineContext) -> DoctestBlock | None:
    """A failed doctest example (`python -m doctest file.py`, `doctest.testmod()`).

    What it detects: doctest's report of one example, `File "x.py", line N,
    in module.func` then `Failed example:` with the example's source, and
    either `Expected:` / `Got:` (the values become hint `expected` and
    `actual`) or `Exception raised:` with the traceback (its exception line
    is hint `why`). The record sits at the example's line (the `>>>` line of
    the docstring), so the editor shows it where the example is; the
    closing "N items had failures" summary is not a record. (pytest
    `--doctest-modules` reports are pytest.failure's.)

    Example output (`python3 -m doctest shop/prices.py`, Python 3.11.7):
        **********************************************************************
        File "/work/app/shop/prices.py", line 11, in prices.with_tax
        Failed example:
            with_tax(10)
        Expected:
            12.0
        Got:
            12.5

    Recipe: test: re-run the module's doctests (`python -m doctest
    <test_file>`); a real failure is escalated with expected vs actual.

    References: https://docs.python.org/3/library/doctest.html
    """
    before = ctx.before(1)
    at = DOCTEST_AT.match(before[-1]) if before else None
    return DoctestBlock(ctx, at) if at else None


@rule(
    id="pytest.usage_error",
    category=FailureType.COMPILE,
    tool="pytest",
    pattern=USAGE_HEAD.pattern,
    triggers=(": error: unrecognized arguments: ",),
    url="https://docs.pytest.org/en/stable/reference/customize.html",
)
def pytest_usage_error(m: re.Match[str], ctx: LineContext) -> PytestUsage:
    """pytest refusing an option it does not know (no test ran).

    What it detects: `python -m pytest: error: unrecognized arguments:
    --cov=parse ...` and the `inifile:` (`configfile:`) line pytest prints
    under it (classifier/rules/pytest_usage.py). An option of a known plugin
    (`--cov` of pytest-cov, `-n` of pytest-xdist, `--timeout`, ...) is that
    plugin missing: compile, hint `module`/`package` = the plugin, on the
    config's line that uses the option (usually `addopts`). Any other
    option is a mistake in the command or the config (compile, no package).

    Example output (`python -m pytest -q`, pytest 9.2.0, a project whose
    pyproject.toml sets `addopts = "--cov=parse ..."`, pytest-cov not installed):
        ERROR: usage: python -m pytest [options] [file_or_dir] [file_or_dir] [...]
        python -m pytest: error: unrecognized arguments: --cov=parse --cov-append
          inifile: /src/parse/pyproject.toml
          rootdir: /src/parse

    Recipe: compile: install the plugin when the project declares it (its
    test extra, a requirements file), else suggest the install command.

    References: https://docs.pytest.org/en/stable/reference/customize.html,
    https://pytest-cov.readthedocs.io/en/latest/config.html
    """
    return PytestUsage(m, ctx)
