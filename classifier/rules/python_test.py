"""Python test runners: pytest and unittest.

Every test record carries what the test recipe needs to re-run that one
test: hint `runner` ("pytest" or "unittest") and `test_id` (the pytest node
id `tests/test_x.py::TestC::test_y`, or the unittest id
`module.Class.test_x`), plus `expected`/`actual` when the assertion shows
them.

pytest prints a failure twice: a detail block in the FAILURES/ERRORS
section and a line in the "short test summary info". Both hits carry the
same key, so the engine keeps one record (the detail, which has the
location; the summary adds the exact node id when the detail could not).
The key is ("pytest", outcome, <file name>::<test path>): the detail block
only knows the test file as printed in its first frame (relative, or
absolute under `--tb=native`), the summary knows the node id, and the file
name is what both share.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from typing import Any

from ..taxonomy import FailureType
from .base import Hit, LineContext
from .python import (
    FRAME,
    SYNTAX_ERRORS,
    TRACEBACK_HEAD,
    Traceback,
    exception_hint,
    innermost_in_project,
    is_pseudo,
)
from .registry import rule

_PYTEST_DOCS = "https://docs.pytest.org/en/stable/how-to/output.html"
_UNITTEST_DOCS = "https://docs.python.org/3/library/unittest.html"

_HEADER = re.compile(r"^_+ (?P<title>\S.*?) _+$")
_SECTION = re.compile(r"^=+ .* =+$")
_LOCATION = re.compile(r"^(?P<file>[^\s:][^:]*?\.py):(?P<line>\d+)(?:: ?(?P<rest>.*))?$")
_FIXTURE_AT = re.compile(r"^file (?P<file>.+?\.py), line (?P<line>\d+)$")
_CAPTURED = re.compile(r"^-+ Captured .+ -+$")
_E_LINE = re.compile(r"^E\s{1,8}(?P<text>.*)$")
_EXC_TEXT = re.compile(r"^(?P<exc>[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*):(?: (?P<message>.*))?$")
_EXC_NAME = re.compile(
    r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failed|Failure|Iteration|Timeout)"
    r"(?::|$)"
)
_ASSERT_EQ = re.compile(r"^(?:AssertionError: )?assert (?P<actual>.+?) == (?P<expected>.+)$")
_UNITTEST_NE = re.compile(r"^(?P<actual>.+?) != (?P<expected>.+?)(?: : .*)?$")
_LIBRARY_MARKERS = ("site-packages", "dist-packages", "/lib/python", "<frozen ")
_SUMMARY_WORDS = ("FAILED ", "ERROR ", "SKIPPED ", "XFAIL ", "XPASS ", "PASSED ")
_MAX_FRAMES = 256


def _node_key(outcome: str, node: str) -> tuple[str, ...]:
    """The merge key of a pytest failure, from its node id."""
    path, sep, rest = node.partition("::")
    name = posixpath.basename(path.replace("\\", "/"))
    if not sep:  # a collection error names the file only
        return ("pytest", outcome, name)
    if outcome == "error":
        return ("pytest", outcome, rest)
    return ("pytest", outcome, f"{name}::{rest}")


def _title_to_path(title: str) -> str:
    """`TestC.test_y[1.5]` (a detail header) -> `TestC::test_y[1.5]` (node id)."""
    head, bracket, params = title.partition("[")
    return head.replace(".", "::") + bracket + params


def _assert_hint(text: str) -> dict[str, Any]:
    m = _ASSERT_EQ.match(text.strip())
    return {"actual": m.group("actual"), "expected": m.group("expected")} if m else {}


def _exception_of(text: str) -> tuple[str | None, str]:
    """(exception name, message) of an `E` line or a summary message."""
    if text.startswith("assert "):
        return "AssertionError", text
    m = _EXC_TEXT.match(text)
    if m and (m.group("exc")[:1].isupper() or "." in m.group("exc")):
        return m.group("exc"), (m.group("message") or "").strip()
    return None, text


class _Frames:
    """Locations seen in a report, innermost last."""

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.items: list[tuple[str, int, str]] = []

    def add(self, file: str, line: int, note: str) -> None:
        if is_pseudo(file):
            return
        if len(self.items) < _MAX_FRAMES:
            self.items.append((file, line, note))
        else:
            self.items[-1] = (file, line, note)

    def pick(self) -> tuple[str, int, str] | None:
        return innermost_in_project(self.items, lambda item: item[0], self.ctx, _LIBRARY_MARKERS)

    def first_project_file(self) -> str | None:
        for file, _, _ in self.items:
            if self.ctx.in_project(file) or not any(m in file for m in _LIBRARY_MARKERS):
                return file
        return None

    def related(
        self, chosen: tuple[str, int, str] | None
    ) -> list[tuple[str, int | None, int | None, str]]:
        return [(f, ln, None, note) for f, ln, note in self.items if (f, ln, note) != chosen]


class _PytestBlock:
    """One `___ title ___` report of the FAILURES or ERRORS section."""

    max_lines = 50_000

    def __init__(self, ctx: LineContext, title: str, start: int) -> None:
        self.ctx = ctx
        self.title = title
        self.start = start
        self.frames = _Frames(ctx)
        self.e_lines: list[str] = []
        self.e_line_no: int | None = None
        self.native: Traceback | None = None
        self.native_exc: tuple[str, str, int | None] | None = None
        self.syntax_at: tuple[str, int] | None = None
        self.strict = False  # end at the first line that is not part of a report
        self.captured = False  # in the "Captured stdout/stderr/log" sections
        self.doctest: dict[str, list[str]] = {}
        self.doctest_part: str | None = None
        if title.startswith("ImportError while loading conftest "):
            self.kind = "conftest"
            self.name = title.split("'")[1] if title.count("'") >= 2 else title
            self.strict = True
        elif title.startswith("ERROR collecting "):
            self.kind = "collect"
            self.name = title[len("ERROR collecting ") :].strip()
        elif title.startswith(("ERROR at setup of ", "ERROR at teardown of ")):
            self.kind = "error"
            self.name = title.split(" of ", 1)[1].strip()
        else:
            self.kind = "failed"
            self.name = title.removeprefix("[doctest] ")

    def feed(self, line: str, line_no: int) -> bool:
        if self.native is not None:
            if self.native.feed(line, line_no):
                return True
            self._end_native()
        if _SECTION.match(line):
            return False
        h = _HEADER.match(line)
        if h and not line.startswith("_ _"):
            return False
        if self.captured:
            return True
        if _CAPTURED.match(line):
            # what the test printed or logged follows: not part of the failure
            self.captured = True
            return True
        if line.strip() == TRACEBACK_HEAD:  # --tb=native
            self.native = Traceback(self.ctx)
            return True
        if line in ("Expected:", "Got:", "Got nothing", "Expected nothing"):
            # a doctest's report (pytest --doctest-modules)
            part = "expected" if line.startswith("Expected") else "actual"
            self.doctest_part = part if line.endswith(":") else None
            self.doctest.setdefault(part, [])
            return True
        if self.doctest_part is not None:
            if line.startswith("    ") and len(self.doctest[self.doctest_part]) < 20:
                self.doctest[self.doctest_part].append(line[4:])
                return True
            self.doctest_part = None
        e = _E_LINE.match(line)
        if e:
            text = e.group("text").rstrip()
            where = FRAME.match(text)
            if where and where.group("func") is None:  # a SyntaxError's `File "x", line N`
                self.syntax_at = (where.group("file"), int(where.group("line")))
            if len(self.e_lines) < 40:
                self.e_lines.append(text)
            if self.e_line_no is None:
                self.e_line_no = line_no
            return True
        loc = _LOCATION.match(line) or _FIXTURE_AT.match(line)
        if loc:
            rest = (loc.groupdict().get("rest") or "").strip()
            self.frames.add(loc.group("file"), int(loc.group("line")), rest)
            return True
        return not self.strict or line[:1] in (" ", "\t")

    def _end_native(self) -> None:
        tb = self.native
        self.native = None
        if tb is None:
            return
        for f in tb.frames:
            self.frames.add(f.file, f.line, f"in {f.func}")
        if tb.exc:
            self.native_exc = (tb.exc, tb.message, tb.exc_line)

    def finish(self) -> Iterable[Hit]:
        if self.native is not None:
            self._end_native()
        lines = [t.strip() for t in self.e_lines if t.strip()]
        # the exception line, else the first `E` line (an assertion, "fixture not found")
        text = next(
            (t for t in lines if t.startswith("assert ") or _EXC_NAME.match(t)),
            lines[0] if lines else "",
        )
        exc, message = _exception_of(text) if text else (None, "")
        log_line = self.e_line_no
        last_rest = self.frames.items[-1][2] if self.frames.items else ""
        if not text and _EXC_NAME.match(last_rest):  # e.g. `prices.py:4: DocTestFailure`
            text, exc, message = last_rest, last_rest.split(":", 1)[0], ""
        if self.native_exc and not text:
            exc, message, log_line = self.native_exc
            text = f"{exc}: {message}" if message else exc
        if not text and not self.frames.items:
            return []  # a `___ word ___` line that was not a pytest report
        where = self.frames.pick()
        if self.syntax_at and exc and exc.rsplit(".", 1)[-1] in SYNTAX_ERRORS:
            where = (*self.syntax_at, "")
        hint: dict[str, Any] = {"runner": "pytest"}
        if exc:
            hint.update(exception_hint(exc, message, self.ctx))
        hint.update(_assert_hint(text))
        for part, got in self.doctest.items():
            hint[part] = "\n".join(got)
        category = FailureType.TEST
        rule_id = "pytest.failure"
        key: tuple[str, ...]
        if self.kind == "conftest":
            category = FailureType.COMPILE
            rule_id = "pytest.conftest_error"
            node = ""
            key = ("pytest", "conftest", self.name)
        elif self.kind == "collect":
            category = FailureType.COMPILE
            rule_id = "pytest.collection_error"
            node = self.name
            key = _node_key("error", node)
        elif self.kind == "error":
            node = ""
            key = ("pytest", "error", _title_to_path(self.name))
        else:
            test_file = self.frames.first_project_file()
            doctest = self.title.startswith("[doctest] ")
            path = self.name if doctest else _title_to_path(self.name)
            node = f"{test_file}::{path}" if test_file else ""
            key = _node_key("failed", node) if node else ("pytest", "failed", path)
        if node and not node.startswith("/"):
            hint["test_id"] = node
        signal = text or self.title
        return [
            Hit(
                signal=signal,
                message=f"{self.title}: {signal}" if text else self.title,
                file=where[0] if where else None,
                line=where[1] if where else None,
                code=exc,
                category=category,
                log_line=log_line or self.start,
                hint=hint,
                related=self.frames.related(where),
                key=key,
                rule_id=rule_id,
            )
        ]


_TITLE_PATTERN = (
    r"^_+ (?P<title>(?:ERROR at (?:setup|teardown) of |\[doctest\] )?[\w.:/\\-]+(?:\[.*\])?) _+$"
)
_COLLECT_PATTERN = r"^_+ (?P<title>ERROR collecting \S.*?) _+$"
_TITLE = re.compile(_TITLE_PATTERN)
_COLLECT_TITLE = re.compile(_COLLECT_PATTERN)
# Sections pytest may print between FAILURES and the short test summary.
_BETWEEN_SECTIONS = (" warnings summary ", " PASSES ", " slowest ", " Captured ")
_SECTION_NAMES = re.compile(r"^=+ (?:FAILURES|ERRORS) =+$")


@rule(
    id="pytest.failure",
    category=FailureType.TEST,
    tool="pytest",
    pattern=_TITLE_PATTERN,
    triggers=("__ ",),
    url=_PYTEST_DOCS,
)
def pytest_failure(m: re.Match[str], ctx: LineContext) -> _PytestBlock | None:
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
    return _PytestBlock(ctx, m.group("title"), ctx.line_no)


@rule(
    id="pytest.collection_error",
    category=FailureType.COMPILE,
    tool="pytest",
    pattern=_COLLECT_PATTERN,
    triggers=("ERROR collecting ",),
    url="https://docs.pytest.org/en/stable/explanation/goodpractices.html",
    priority=5,
)
def pytest_collection_error(m: re.Match[str], ctx: LineContext) -> _PytestBlock:
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
    return _PytestBlock(ctx, m.group("title"), ctx.line_no)


@rule(
    id="pytest.conftest_error",
    category=FailureType.COMPILE,
    tool="pytest",
    pattern=r"^ImportError while loading conftest '[^']+'\.\s*$",
    triggers=("ImportError while loading conftest ",),
    url="https://docs.pytest.org/en/stable/reference/fixtures.html#conftest-py-sharing-fixtures-across-multiple-files",
)
def pytest_conftest_error(m: re.Match[str], ctx: LineContext) -> _PytestBlock:
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
    return _PytestBlock(ctx, ctx.line.strip(), ctx.line_no)


_SUMMARY = re.compile(
    r"^(?P<outcome>FAILED|ERROR) (?P<node>[^\s:]+?\.py(?:::\S.*?)?)(?: - (?P<message>.*))?$"
)


def _summary_hit(m: re.Match[str], line: str, line_no: int) -> Hit:
    outcome = m.group("outcome").lower()
    node = m.group("node")
    message = (m.group("message") or "").strip()
    exc = _exception_of(message)[0] if message else None
    hint: dict[str, Any] = {"runner": "pytest", "test_id": node}
    if exc:
        hint["exception"] = exc
    if not message.endswith("..."):  # a truncated message would give a wrong value
        hint.update(_assert_hint(message))
    collect = outcome == "error" and "::" not in node
    path = node.partition("::")[0]
    return Hit(
        signal=line.strip(),
        message=line.strip(),
        file=path,
        code=exc,
        category=FailureType.COMPILE if collect else FailureType.TEST,
        log_line=line_no,
        hint=hint,
        key=_node_key(outcome, node),
        rule_id="pytest.collection_error" if collect else "pytest.summary",
    )


@rule(
    id="pytest.summary",
    category=FailureType.TEST,
    tool="pytest",
    pattern=_SUMMARY.pattern,
    triggers=("FAILED ", "ERROR "),
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
    return _summary_hit(m, ctx.line, ctx.line_no)


class _SectionBlock:
    """The FAILURES and ERRORS sections of a pytest run, read as one report.

    Each `___ title ___` report in them is read by a _PytestBlock (records
    under pytest.failure / pytest.collection_error); in the `--tb=line`
    style there are no titles, only an `E` excerpt and a `path:line:
    message` location per failed test, and the FAILED lines of the short
    test summary that follows give them their node ids, in the same order.
    Reading the whole section here means a report title is recognised
    however long it is (pytest pads it with a single `_` when the title
    fills the line), without a broad literal trigger."""

    max_lines = 2_000_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.reports: list[Hit] = []
        self.sub: _PytestBlock | None = None
        self.entries: list[Hit] = []
        self.e_text: str | None = None
        self.e_line_no: int | None = None
        self.summary = False
        self.skipping = False
        self.summaries: list[Hit] = []
        self.paired = 0

    def _close_sub(self) -> None:
        if self.sub is not None:
            self.reports.extend(self.sub.finish())
            self.sub = None

    def feed(self, line: str, line_no: int) -> bool:
        if self.summary:
            return self._summary_line(line, line_no)
        if self.sub is not None:
            if self.sub.feed(line, line_no):
                return True
            self._close_sub()
        if _SECTION.match(line):
            if _SECTION_NAMES.match(line):
                return True  # ERRORS followed by FAILURES
            if self.entries and any(name in line for name in _BETWEEN_SECTIONS):
                self.skipping = True  # read on to the summary the entries pair with
                return True
            self.skipping = False
            self.summary = "short test summary info" in line and bool(self.entries)
            return self.summary
        if self.skipping:
            return True
        title = _TITLE.match(line) or _COLLECT_TITLE.match(line)
        if title and title.group("title").strip("_ "):
            self.sub = _PytestBlock(self.ctx, title.group("title"), line_no)
            return True
        return self._line_style(line, line_no)

    def _summary_line(self, line: str, line_no: int) -> bool:
        s = _SUMMARY.match(line)
        if s is None:
            return line.startswith(_SUMMARY_WORDS)
        hit = _summary_hit(s, line, line_no)
        if s.group("outcome") == "FAILED" and self.paired < len(self.entries):
            entry = self.entries[self.paired]
            self.paired += 1
            entry.key = hit.key
            entry.hint.setdefault("test_id", hit.hint["test_id"])
        else:
            self.summaries.append(hit)
        return True

    def _line_style(self, line: str, line_no: int) -> bool:
        e = _E_LINE.match(line)
        if e:
            self.e_text = e.group("text").strip()
            self.e_line_no = line_no
            return True
        loc = _LOCATION.match(line)
        if loc and self.e_text is not None:
            text = self.e_text
            exc, message = _exception_of(text)
            hint: dict[str, Any] = {"runner": "pytest", **_assert_hint(text)}
            if exc:
                hint.update(exception_hint(exc, message, self.ctx))
            self.entries.append(
                Hit(
                    signal=line.strip(),
                    message=(loc.group("rest") or text).strip(),
                    file=loc.group("file"),
                    line=int(loc.group("line")),
                    code=exc,
                    log_line=self.e_line_no,
                    hint=hint,
                )
            )
            self.e_text = None
            return True
        # continuation of an E excerpt (indented), or a stray line
        return self.e_text is not None and (line.startswith(" ") or not line.strip())

    def finish(self) -> Iterable[Hit]:
        self._close_sub()
        return [*self.reports, *self.entries, *self.summaries]


@rule(
    id="pytest.section",
    category=FailureType.TEST,
    tool="pytest",
    pattern=r"^=+ (?:FAILURES|ERRORS) =+$",
    triggers=(" FAILURES ", " ERRORS "),
    url="https://docs.pytest.org/en/stable/how-to/output.html#modifying-python-traceback-printing",
)
def pytest_section(m: re.Match[str], ctx: LineContext) -> _SectionBlock:
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
    return _SectionBlock(ctx)


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
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        hint=hint,
        key=("pytest", "no-tests"),
    )


# -- unittest -------------------------------------------------------------------
_SEPARATOR = re.compile(r"^(?:-{20,}|={20,})$")


class _UnittestBlock:
    """One `FAIL:`/`ERROR:` report of unittest's text runner."""

    max_lines = 50_000

    def __init__(self, ctx: LineContext, outcome: str, test_id: str, start: int) -> None:
        self.ctx = ctx
        self.outcome = outcome
        self.test_id = test_id
        self.start = start
        self.tb: Traceback | None = None
        self.done_tb: Traceback | None = None
        self.separators = 0
        self.extra: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if self.tb is not None:
            if self.tb.feed(line, line_no):
                return True
            self.done_tb, self.tb = self.tb, None
        if _SEPARATOR.match(line.strip()):
            if line.startswith("=") or self.done_tb is not None:
                return False
            self.separators += 1
            return True
        if line.strip() == TRACEBACK_HEAD and self.done_tb is None:
            self.tb = Traceback(self.ctx)
            return True
        if self.done_tb is not None and len(self.extra) < 20:
            self.extra.append(line)  # e.g. a string diff after the exception line
        return True

    def finish(self) -> Iterable[Hit]:
        tb = self.done_tb or self.tb
        if tb is None or tb.exc is None:
            return []
        where = tb.location()
        failed_import = self.test_id.startswith("unittest.loader._FailedTest.")
        test_id = self.test_id.rsplit(".", 1)[-1] if failed_import else self.test_id
        hint: dict[str, Any] = {
            "runner": "unittest",
            "test_id": test_id,
            **exception_hint(tb.exc, tb.message, self.ctx),
        }
        ne = _UNITTEST_NE.match(tb.message)
        if ne and tb.exc.endswith("AssertionError"):
            hint["actual"], hint["expected"] = ne.group("actual"), ne.group("expected")
        return [
            Hit(
                signal=tb.signal,
                message=f"{self.outcome}: {test_id}: {tb.signal}",
                file=where.file if where else None,
                line=where.line if where else None,
                code=tb.exc,
                category=FailureType.COMPILE if failed_import else FailureType.TEST,
                log_line=tb.exc_line or self.start,
                hint=hint,
                related=tb.related(where),
                key=("unittest", self.outcome, test_id),
            )
        ]


@rule(
    id="unittest.failure",
    category=FailureType.TEST,
    tool="unittest",
    pattern=r"^(?P<outcome>FAIL|ERROR): (?P<name>[\w.]+) \((?P<where>[\w.]+)\)",
    triggers=("FAIL: ", "ERROR: "),
    url=_UNITTEST_DOCS,
)
def unittest_failure(m: re.Match[str], ctx: LineContext) -> _UnittestBlock:
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
    return _UnittestBlock(ctx, m.group("outcome"), test_id, ctx.line_no)
