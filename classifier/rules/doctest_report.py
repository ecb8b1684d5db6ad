"""Reading one failed example of `python -m doctest` (the rule is in python_test.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .python_causes import cause_of, exception_hint
from .python_traceback import FRAME, TRACEBACK_HEAD, Raised, is_pseudo

DOCTEST_AT = lazy_compile(r'^File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>\S+)$')
_DOCTEST_PARTS = {"Failed example:": "example", "Expected:": "expected", "Got:": "actual"}


class DoctestBlock:
    """One failed example of `python -m doctest` (or doctest.testmod())."""

    max_lines = 2_000

    def __init__(self, ctx: LineContext, at: re.Match[str]) -> None:
        self.ctx = ctx
        self.at = at
        self.log_line = ctx.line_no - 1
        self.parts: dict[str, list[str]] = {"example": []}
        self.part = "example"
        self.exception: str | None = None
        self.innermost: tuple[str, int] | None = None  # the raising frame

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith("****"):
            return False
        if line in _DOCTEST_PARTS:
            self.part = _DOCTEST_PARTS[line]
            self.parts.setdefault(self.part, [])
            return True
        if line in ("Exception raised:", "Expected nothing", "Got nothing"):
            self.part = "raised" if line.startswith("Exception") else ""
            return True
        if not line.startswith("    "):
            return False
        text = line[4:]
        if self.part == "raised":
            frame = FRAME.match(text)
            if frame:
                self.innermost = (frame.group("file"), int(frame.group("line")))
            elif not text.startswith(" ") and text.strip() and text != TRACEBACK_HEAD:
                self.exception = text.strip()  # the exception line ends the traceback
        elif self.part and len(self.parts[self.part]) < 20:
            self.parts[self.part].append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        at = self.at
        example = "\n".join(self.parts.get("example", []))
        hint: dict[str, Any] = {
            "runner": "doctest",
            "test_id": at.group("name"),
            "test_file": self.ctx.resolve(at.group("file")),
            "test_line": int(at.group("line")),
            "example": example,
        }
        for part in ("expected", "actual"):
            if part in self.parts:
                hint[part] = "\n".join(self.parts[part])
        file, line = at.group("file"), int(at.group("line"))
        category: FailureType | None = None
        signal = f"doctest failed: {at.group('name')}: {example.splitlines()[0] if example else ''}"
        if self.exception:
            hint["why"] = self.exception[:500]
            exc, _, message = self.exception.partition(":")
            hint.update(exception_hint(exc, message.strip(), self.ctx))
            # The example is right and the code it ran is not: an exception
            # raised inside the project (not in the example's own `<doctest>`
            # frame) may name a cause, the code's (a missing import).
            raised = self.innermost
            if raised is not None and not is_pseudo(raised[0]):
                cause = cause_of([Raised(exc, message.strip())], (), self.ctx.in_project)
                if cause is not None:
                    category = cause.category
                    hint.update(cause.hint)
                    file, line = raised
                    signal = self.exception
        elif "expected" in hint:
            hint["why"] = f"expected {hint['expected']!r}, got {hint.get('actual', '')!r}"
        return [
            Hit(
                signal=signal,
                message=f"Failed example in {at.group('name')}: {example}",
                file=file,
                line=line,
                code=hint.get("exception"),
                category=category,
                log_line=self.log_line,
                hint=hint,
                key=("doctest", at.group("file"), at.group("line")),
            )
        ]
