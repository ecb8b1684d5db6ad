"""pytest's FAILURES/ERRORS sections read as one report, and its short test
summary (the rules that start these readers are in python_test.py; one
report's reader is pytest_report.PytestBlock)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .pytest_report import (
    E_LINE,
    LOCATION,
    SECTION,
    SUMMARY_WORDS,
    PytestBlock,
    assert_hint,
    exception_of,
    node_key,
)
from .python_causes import cause_of, exception_hint
from .python_traceback import Raised

# A subtest's report adds its message and parameters: `IlenTests.test_ilen (n=0)`,
# `test_f [counts] (n=1)` (pytest 9's own subtests, and pytest-subtests).
TITLE_PATTERN = (
    r"^_+ (?P<title>(?:ERROR at (?:setup|teardown) of |\[doctest\] )?[\w.:/\\-]+(?:\[.*?\])?"
    r"(?: \[[^\]]*\])?(?: \(.*\))?) _+$"
)
COLLECT_PATTERN = r"^_+ (?P<title>ERROR collecting \S.*?) _+$"
_TITLE = lazy_compile(TITLE_PATTERN)
_COLLECT_TITLE = lazy_compile(COLLECT_PATTERN)
# Sections pytest may print between FAILURES and the short test summary.
_BETWEEN_SECTIONS = (" warnings summary ", " PASSES ", " slowest ", " Captured ")
_SECTION_NAMES = lazy_compile(r"^=+ (?:FAILURES|ERRORS) =+$")

# `FAILED node - message`; a failed subtest: `SUBFAILED(n=0) node - ...`,
# `SUBFAILED[msg] (n=1) node` (pytest >= 9), `(n=0) SUBFAIL node` (pytest-subtests).
_SUB = r"\[[^\]]*\](?: \(.*?\))?|\(.*?\)"
SUMMARY = lazy_compile(
    rf"^(?:(?P<pre>{_SUB}) )?(?P<outcome>FAILED|ERROR|SUBFAIL(?:ED)?)(?P<post>{_SUB})? "
    r"(?P<node>[^\s:]+?\.py(?:::\S.*?)?|[^\s:]+?\.(?:rst|txt|md)::\S.*?)"
    r"(?: - (?P<message>.*))?$"
)
# The parent's own line after its failed subtests (pytest >= 9): not a failure of its own.
_SUBTESTS_FAILED = lazy_compile(r"^contains \d+(?P<rest>.*)$")


def _counts_subtests(text: str) -> bool:
    """`contains 2 failed subtests`, also as pytest cuts it to the terminal's
    width (`contains 2 ...`, `contains 2 failed su...`)."""
    m = _SUBTESTS_FAILED.match(text)
    if m is None:
        return False
    rest = m.group("rest")
    if rest.endswith("..."):
        return " failed subtests".startswith(rest[:-3].rstrip())
    return rest in (" failed subtest", " failed subtests")


def summary_hit(m: re.Match[str], line: str, line_no: int) -> Hit:
    """The record of one short-test-summary line (`FAILED node - message`)."""
    outcome = m.group("outcome").lower()
    node = m.group("node")
    message = (m.group("message") or "").strip()
    subtest = m.group("pre") or m.group("post") if outcome.startswith("subfail") else None
    if subtest is not None:
        outcome = "failed"
    exc = exception_of(message)[0] if message else None
    collect = outcome == "error" and "::" not in node
    path = node.partition("::")[0]
    hint: dict[str, Any] = {"runner": "pytest", "test_id": node}
    if subtest:
        hint["subtest"] = subtest
    if not collect:
        hint["test_file"] = path
    if exc:
        hint["exception"] = exc
    truncated = message.endswith("...")  # a truncated message would give a wrong value
    if message and not truncated:
        hint["why"] = message
        hint.update(assert_hint(message))
    return Hit(
        signal=line.strip(),
        message=line.strip(),
        file=path,
        code=exc,
        category=FailureType.COMPILE if collect else FailureType.TEST,
        log_line=line_no,
        hint=hint,
        key=(*node_key(outcome, node), subtest) if subtest else node_key(outcome, node),
        rule_id="pytest.collection_error" if collect else "pytest.summary",
    )


class SectionBlock:
    """The FAILURES and ERRORS sections of a pytest run, read as one report.

    Each `___ title ___` report in them is read by a PytestBlock (records
    under pytest.failure / pytest.collection_error); in the `--tb=line`
    style there are no titles, only an `E` excerpt and a `path:line:
    message` location per failed test, and the FAILED lines of the short
    test summary that follows give them their node ids, in the same order.
    Reading the whole section here means a report title is recognised
    however long it is (pytest pads it with a single `_` when the title
    fills the line), without a broad literal trigger, and that each
    report gets the exact node id of its summary line."""

    max_lines = 2_000_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.reports: list[Hit] = []
        self.sub: PytestBlock | None = None
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
        head = line[:1]  # (an anchored regex is tried only where it can start)
        if head == "=" and SECTION.match(line):
            if _SECTION_NAMES.match(line):
                return True  # ERRORS followed by FAILURES
            if (self.entries or self.reports) and any(n in line for n in _BETWEEN_SECTIONS):
                self.skipping = True  # read on to the summary the reports pair with
                return True
            self.skipping = False
            self.summary = "short test summary info" in line and bool(self.entries or self.reports)
            return self.summary
        if self.skipping:
            return True
        title = (_TITLE.match(line) or _COLLECT_TITLE.match(line)) if head == "_" else None
        if title and title.group("title").strip("_ "):
            self.sub = PytestBlock(self.ctx, title.group("title"), line_no)
            return True
        return self._line_style(line, line_no)

    def _summary_line(self, line: str, line_no: int) -> bool:
        s = SUMMARY.match(line)
        if s is None:
            return line.startswith(SUMMARY_WORDS)
        hit = summary_hit(s, line, line_no)
        if s.group("outcome") == "FAILED" and self.paired < len(self.entries):
            entry = self.entries[self.paired]
            self.paired += 1
            entry.key = hit.key
            entry.hint.setdefault("test_id", hit.hint["test_id"])
            entry.hint.setdefault("test_file", hit.hint["test_file"])
        else:
            self.summaries.append(hit)
        return True

    def _line_style(self, line: str, line_no: int) -> bool:
        e = E_LINE.match(line) if line[:1] == "E" else None
        if e:
            self.e_text = e.group("text").strip()
            self.e_line_no = line_no
            return True
        loc = LOCATION.match(line) if ".py:" in line else None
        if loc and self.e_text is not None:
            text = self.e_text
            exc, message = exception_of(text)
            hint: dict[str, Any] = {"runner": "pytest", **assert_hint(text), "why": text[:500]}
            category = FailureType.TEST
            if exc:
                hint.update(exception_hint(exc, message, self.ctx))
                cause = cause_of([Raised(exc, message)], (), self.ctx.in_project)
                if cause is not None:
                    category = cause.category
                    hint.update(cause.hint)
            self.entries.append(
                Hit(
                    signal=line.strip(),
                    message=(loc.group("rest") or text).strip(),
                    file=loc.group("file"),
                    line=int(loc.group("line")),
                    code=exc,
                    category=category,
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
        self._drop_subtest_parents()
        # A summary line names its report's test exactly (the report only
        # has the test's title): its node id replaces the report's.
        by_key = {h.key: h for h in self.reports if h.key is not None}
        alone: list[Hit] = []
        for s in self.summaries:
            report = by_key.get(s.key) if s.key is not None else None
            if report is None:
                alone.append(s)
                continue
            node = s.hint["test_id"]
            report.hint["test_id"] = node
            if "::" in node and "test_file" in s.hint:
                report.hint["test_file"] = self.ctx.resolve(s.hint["test_file"])
        return [*self.reports, *self.entries, *alone]

    def _drop_subtest_parents(self) -> None:
        """A test whose subtests failed is reported once more as `contains N
        failed subtests` (its report and its FAILED line): the subtests are the
        failures, that line only counts them."""
        parents = {
            h.hint.get("test_id") for h in [*self.reports, *self.summaries] if "subtest" in h.hint
        }

        def parent(h: Hit) -> bool:
            why = str(h.hint.get("why") or h.message or "")
            counted = _counts_subtests(why.rsplit(" - ", 1)[-1].strip())
            return (
                counted
                and "subtest" not in h.hint
                and (h.hint.get("test_id") in parents or not parents)
            )

        self.reports = [h for h in self.reports if not parent(h)]
        self.summaries = [h for h in self.summaries if not parent(h)]
