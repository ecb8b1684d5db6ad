"""Reading one failed or erroring test of unittest's text runner (the rule is in python_test.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .python_causes import cause_of, exception_hint
from .python_traceback import TRACEBACK_HEAD, Traceback

_SEPARATOR = lazy_compile(r"^(?:-{20,}|={20,})$")
_UNITTEST_NE = lazy_compile(r"^(?P<actual>.+?) != (?P<expected>.+?)(?: : .*)?$")


class UnittestBlock:
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
        if tb.exc == "AssertionError" and tb.message.startswith("Failed doctest test for "):
            return []  # a DocTestCase: the failed examples under it are the records
        where = tb.location()
        failed_import = self.test_id.startswith("unittest.loader._FailedTest.")
        test_id = self.test_id.rsplit(".", 1)[-1] if failed_import else self.test_id
        hint: dict[str, Any] = {
            "runner": "unittest",
            "test_id": test_id,
            **exception_hint(tb.exc, tb.message, self.ctx),
            "why": tb.signal[:500],
        }
        method = test_id.rsplit(".", 1)[-1]
        own = next((f for f in tb.frames if f.func == method), None)
        if own is not None and not failed_import:
            hint["test_file"] = self.ctx.resolve(own.file)
            hint["test_line"] = own.line
        ne = _UNITTEST_NE.match(tb.message)
        if ne and tb.exc.endswith("AssertionError"):
            hint["actual"], hint["expected"] = ne.group("actual"), ne.group("expected")
        explanation = [x.rstrip() for x in self.extra if x.strip()][:12]
        if explanation:
            hint["explanation"] = explanation
        if tb.chain:
            hint["context"] = [r.text[:300] for r in tb.chain]
        category = FailureType.COMPILE if failed_import else FailureType.TEST
        source = [f.code for f in tb.frames if f.code]
        cause = cause_of(tb.exceptions(), source, self.ctx.in_project)
        file, line = (where.file, where.line) if where else (None, None)
        signal = tb.signal
        code: str | None = tb.exc
        if cause is not None and (
            category is FailureType.TEST or cause.category is FailureType.INFRA
        ):
            category = cause.category
            hint.update(cause.hint)
            if cause.at is not None:
                file, line = cause.at
                signal = hint["why"] = cause.hint["cause_exception"]
                code = signal.split(":", 1)[0]
        return [
            Hit(
                signal=signal,
                message=f"{self.outcome}: {test_id}: {signal}",
                file=file,
                line=line,
                code=code,
                category=category,
                log_line=tb.exc_line or self.start,
                hint=hint,
                related=tb.related(where),
                key=("unittest", self.outcome, test_id),
            )
        ]
