"""Reading pytest's reports: the FAILURES/ERRORS sections and the short
test summary (the rules that start these readers are in python_test.py).

pytest prints a failure twice: a detail block in the FAILURES/ERRORS
section and a line in the "short test summary info". Both hits carry the
same key, so the engine keeps one record (the detail, which has the
location); the summary's node id is exact (the detail only has the test's
title and the file of its first frame), so it replaces the detail's when
both are read by the section reader. The key is ("pytest", outcome, <file
name>::<test path>): the detail block only knows the test file as printed
in its first frame (relative, or absolute under `--tb=native`), the summary
knows the node id, and the file name is what both share.

A report whose exception names a cause (a NameError, an import error, a
refused connection, a missing environment variable; python_causes.py) is a
record of the cause's category, at the throwing frame; the test stays in
the hint (`test_id`, `test_file`, `test_line`), so the test can be re-run
once the cause is fixed. A chained exception ("During handling of the
above exception ...") is the context of the one reported after it: one
record, the earlier exceptions in hint `context`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .python_causes import cause_of, exception_hint
from .python_traceback import (
    CHAIN_MARKERS,
    FRAME,
    SYNTAX_ERRORS,
    TRACEBACK_HEAD,
    Raised,
    Traceback,
    append_chain,
    innermost_in_project,
    is_pseudo,
)

_HEADER = lazy_compile(r"^_+ (?P<title>\S.*?) _+$")
_SUBTEST_TITLE = lazy_compile(
    r"^(?P<base>\S+?(?:\[.*?\])?)(?P<sub> \[[^\]]*\](?: \(.*\))?| \(.*\))$"
)
SECTION = lazy_compile(r"^=+ .* =+$")
LOCATION = lazy_compile(r"^(?P<file>[^\s:][^:]*?\.py):(?P<line>\d+)(?:: ?(?P<rest>.*))?$")
_FIXTURE_AT = lazy_compile(r"^file (?P<file>.+?\.py), line (?P<line>\d+)$")
# The doc example a doctest report is about (any file: --doctest-glob='*.rst').
_DOCTEST_AT = lazy_compile(
    r"^(?P<file>\S+?):(?P<line>\d+): (?:DocTestFailure|UnexpectedException)$"
)
_CAPTURED = lazy_compile(r"^-+ Captured .+ -+$")
E_LINE = lazy_compile(r"^E\s{1,8}(?P<text>.*)$")
_EXC_TEXT = lazy_compile(r"^(?P<exc>[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*):(?: (?P<message>.*))?$")
_EXC_NAME = lazy_compile(
    r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failed|Failure|Iteration|Timeout)"
    r"(?::|$)"
)
_ASSERT_EQ = lazy_compile(r"^(?:AssertionError: )?assert (?P<actual>.+?) == (?P<expected>.+)$")
_LIBRARY_MARKERS = ("site-packages", "dist-packages", "/lib/python", "<frozen ")
SUMMARY_WORDS = ("FAILED ", "ERROR ", "SKIPPED ", "XFAIL ", "XPASS ", "PASSED ")
_MAX_FRAMES = 256
_MAX_CODE = 200  # source lines kept of one report (what a cause is read from)
_MAX_EXPLANATION = 12


def node_key(outcome: str, node: str) -> tuple[str, ...]:
    """The merge key of a pytest failure, from its node id."""
    path, sep, rest = node.partition("::")
    name = posixpath.basename(path.replace("\\", "/"))
    if not sep:  # a collection error names the file only
        return ("pytest", outcome, name)
    if outcome == "error":
        return ("pytest", outcome, rest)
    return ("pytest", outcome, f"{name}::{rest}")


def title_to_path(title: str) -> str:
    """`TestC.test_y[1.5]` (a detail header) -> `TestC::test_y[1.5]` (node id)."""
    head, bracket, params = title.partition("[")
    return head.replace(".", "::") + bracket + params


def assert_hint(text: str) -> dict[str, Any]:
    m = _ASSERT_EQ.match(text.strip())
    return {"actual": m.group("actual"), "expected": m.group("expected")} if m else {}


def exception_of(text: str) -> tuple[str | None, str]:
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

    def line_in(self, file: str) -> int | None:
        """The line of the first frame in `file` (the test's own line)."""
        return next((ln for f, ln, _ in self.items if f == file), None)

    def related(
        self, chosen: tuple[str, int, str] | None
    ) -> list[tuple[str, int | None, int | None, str]]:
        return [(f, ln, None, note) for f, ln, note in self.items if (f, ln, note) != chosen]


def _reported(lines: list[str]) -> str:
    """The exception line of a report's `E` lines, else the first of them
    (an assertion's explanation, "fixture 'x' not found")."""
    return next(
        (t for t in lines if t.startswith("assert ") or _EXC_NAME.match(t)),
        lines[0] if lines else "",
    )


class PytestBlock:
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
        self.chain: list[Raised] = []  # exceptions before the reported one
        self.code: list[str] = []  # source lines shown (all parts)
        self.doctest_at: tuple[str, int] | None = None  # the doc example's file and line
        self.raised_in: str | None = None  # the innermost frame's file (--tb=native, doctests)
        self.subtest: str | None = None  # `(n=0)`, `[msg] (n=1)`: a failed subtest
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
            sub = _SUBTEST_TITLE.match(self.name)
            if sub:  # `IlenTests.test_ilen (n=0)`: one subtest of the test
                self.name, self.subtest = sub.group("base"), sub.group("sub").strip()

    def feed(self, line: str, line_no: int) -> bool:
        if self.native is not None:
            if self.native.feed(line, line_no):
                return True
            self._end_native()
        # (each anchored regex is tried only on the lines starting with its
        # first character: most lines of a report are source and `E` lines)
        head = line[:1]
        if head == "=" and SECTION.match(line):
            return False
        if head == "_" and _HEADER.match(line) and not line.startswith("_ _"):
            return False
        if self.captured:
            return True
        if head == "-" and _CAPTURED.match(line):
            # what the test printed or logged follows: not part of the failure
            self.captured = True
            return True
        stripped = line.strip()
        if stripped == TRACEBACK_HEAD:  # --tb=native
            if self.strict and self.e_lines:
                return False  # a report without a section ended: another program's traceback
            self.native = Traceback(self.ctx)
            return True
        if stripped in CHAIN_MARKERS:
            self._next_part()
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
        e = E_LINE.match(line) if head == "E" else None
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
        doc = _DOCTEST_AT.match(line) if self.title.startswith("[doctest] ") else None
        if doc:
            self.doctest_at = (doc.group("file"), int(doc.group("line")))
            if line.endswith("DocTestFailure"):
                self.frames.add(*self.doctest_at, "DocTestFailure")
            return True
        loc = (LOCATION.match(line) if ".py:" in line else None) or (
            _FIXTURE_AT.match(line) if head == "f" else None
        )
        if loc:
            rest = (loc.groupdict().get("rest") or "").strip()
            self.frames.add(loc.group("file"), int(loc.group("line")), rest)
            return True
        if head in (" ", ">") and stripped and len(self.code) < _MAX_CODE:
            self.code.append(stripped.lstrip("> "))
        return not self.strict or head in (" ", "\t")

    def _next_part(self) -> None:
        """A chain marker: what was read so far is the context of what follows."""
        lines = [t.strip() for t in self.e_lines if t.strip()]
        exc, message = exception_of(_reported(lines)) if lines else (None, "")
        if exc:
            at = self.frames.pick()
            append_chain(self.chain, Raised(exc, message, (), (at[0], at[1]) if at else None))
        self.e_lines = []
        self.e_line_no = None
        self.syntax_at = None
        self.frames = _Frames(self.ctx)

    def _end_native(self) -> None:
        tb = self.native
        self.native = None
        if tb is None:
            return
        for f in tb.frames:
            self.frames.add(f.file, f.line, f"in {f.func}")
        self.code.extend(f.code for f in tb.frames if f.code)
        for raised in tb.chain:
            append_chain(self.chain, raised)
        if tb.exc:
            self.native_exc = (tb.exc, tb.message, tb.exc_line)
        if tb.frames:
            self.raised_in = tb.frames[-1].file

    def finish(self) -> Iterable[Hit]:
        if self.native is not None:
            self._end_native()
        lines = [t.strip() for t in self.e_lines if t.strip()]
        text = _reported(lines)
        exc, message = exception_of(text) if text else (None, "")
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
        hint.update(assert_hint(text))
        for part, got in self.doctest.items():
            hint[part] = "\n".join(got)
        if text:
            hint["why"] = text[:500]
            more = [t for t in lines if t != text][:_MAX_EXPLANATION]
            if more:
                hint["explanation"] = more
        if self.chain:
            hint["context"] = [r.text[:300] for r in self.chain]
        category, rule_id, node, key = self._identity()
        doctest = self.title.startswith("[doctest] ")
        # A doc example is a test of its own (at its line), unless what it
        # ran raised inside the project's code: that code is the cause.
        raised_in_code = self.raised_in is not None and not is_pseudo(self.raised_in)
        if exc and (not doctest or raised_in_code) and self.kind != "conftest":
            chain = [*self.chain, Raised(exc, message, tuple(self.code))]
            cause = cause_of(chain, self.code, self.ctx.in_project)
            if cause is not None and (
                category is FailureType.TEST or cause.category is FailureType.INFRA
            ):
                category = cause.category
                hint.update(cause.hint)
                if cause.at is not None:  # a chained NameError under "DID NOT WARN"
                    where = (*cause.at, "")
                    text = hint["why"] = cause.hint["cause_exception"]
                    exc = text.split(":", 1)[0]
        elif doctest and self.doctest_at is not None:
            where = (*self.doctest_at, "")
        if node and not node.startswith("/"):
            hint["test_id"] = node
        if self.subtest:
            hint["subtest"] = self.subtest
        test_file = node.partition("::")[0] if node else None
        if test_file and self.kind != "collect":
            hint["test_file"] = self.ctx.resolve(test_file)
            test_line = self.doctest_at[1] if self.doctest_at else self.frames.line_in(test_file)
            if test_line:
                hint["test_line"] = test_line
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

    def _identity(self) -> tuple[FailureType, str, str, tuple[str, ...]]:
        """(category, rule id, node id, merge key) from the report's kind."""
        if self.kind == "conftest":
            return (
                FailureType.COMPILE,
                "pytest.conftest_error",
                "",
                ("pytest", "conftest", self.name),
            )
        if self.kind == "collect":
            return (
                FailureType.COMPILE,
                "pytest.collection_error",
                self.name,
                node_key("error", self.name),
            )
        if self.kind == "error":
            # the first frame is the fixture's (often a conftest.py), not the
            # test's: the summary line gives the node id
            return (
                FailureType.TEST,
                "pytest.failure",
                "",
                ("pytest", "error", title_to_path(self.name)),
            )
        doctest = self.title.startswith("[doctest] ")
        test_file = self.doctest_at[0] if self.doctest_at else self.frames.first_project_file()
        path = self.name if doctest else title_to_path(self.name)
        node = f"{test_file}::{path}" if test_file else ""
        key = node_key("failed", node) if node else ("pytest", "failed", path)
        if self.subtest:
            key = (*key, self.subtest)
        return FailureType.TEST, "pytest.failure", node, key
