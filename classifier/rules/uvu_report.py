"""Reading uvu's failure reports (the rule is uvu.failure in js_test.py).

    cart.js
    • ✘ ✘   (1 / 3)

       FAIL  "totals three"
        Expected values to be strictly equal:  (is)

            ++6    (Expected)
            --7    (Actual)

        at assert (/app/node_modules/uvu/assert/index.js:33:8)
        at Object.handler (/app/test/cart.js:10:10)

       FAIL  count  "counts wrong"
        empty carts count  (ok)
        ...

A report is the `FAIL  [suite  ]"name"` header, the error's message (an
assertion's ends with its operator, `(is)`), the `++`/`--` lines of uvu's
diff and the stack.  uvu prints an error that is not an assertion by its
message alone ("fmt is not defined"): a missing name there is the
ReferenceError it is.  The test's own frame is uvu's `handler` frame."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from .base import Hit, LineContext
from .js_frames import Frame, parse_frame
from .js_test_hit import MAX_TEXTS, test_hit

HEADER = lazy_compile(r'^   FAIL  (?:(?P<suite>\S(?:.*?\S)?)  )?"(?P<name>.*)"$')
_MESSAGE = lazy_compile(r"^    (?P<message>\S.*?)(?:  \((?P<op>\w+)\))?$")
_DIFF = lazy_compile(r"^\s{6,}(?P<sign>\+\+|--)(?P<value>.*?)(?:\s{2,}\((?:Expected|Actual)\))?$")
_NOT_DEFINED = lazy_compile(r"^[A-Za-z_$][\w$]* is not defined$")


class UvuBlock:
    """One uvu failure report, from its header to the end of its stack."""

    max_lines = 2000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.header = ctx.line.strip()
        self.log_line = ctx.line_no
        self.names = [n for n in (m.group("suite"), m.group("name")) if n]
        self.message = ""
        self.operator: str | None = None
        self.frames: list[Frame] = []
        self.texts: list[str] = []
        self.values: dict[str, str] = {}

    def feed(self, line: str, line_no: int) -> bool:
        if HEADER.match(line):
            return False  # the next test's report
        if not line.strip():
            return True
        if not line.startswith("    "):
            return False  # the next suite's line, or the totals
        frame = parse_frame(line)
        if frame is not None:
            self.frames.append(frame)
            return True
        if self.frames:
            return False
        if not self.message:
            m = _MESSAGE.match(line)
            if m:
                self.message, self.operator = m.group("message"), m.group("op")
            return True
        diff = _DIFF.match(line)
        if diff:
            key = "expected" if diff.group("sign") == "++" else "actual"
            value = diff.group("value").replace("·", " ").strip()
            self.values[key] = f"{self.values[key]}\n{value}" if key in self.values else value
        if len(self.texts) < MAX_TEXTS:
            self.texts.append(line)
        return True

    def finish(self) -> Iterable[Hit]:
        message = self.message
        if self.operator is None and _NOT_DEFINED.match(message):
            message = f"ReferenceError: {message}"  # uvu prints a thrown error's message only
        handler = next((f for f in self.frames if f.func.endswith("handler")), None)
        values = self.values if "expected" in self.values and "actual" in self.values else {}
        return [
            test_hit(
                runner="uvu",
                names=self.names,
                test_file=handler.file if handler else None,
                message=message,
                frames=self.frames,
                ctx=self.ctx,
                log_line=self.log_line,
                values=values,
                signal=f"{self.header}: {self.message}" if self.message else self.header,
                texts=self.texts,
            )
        ]
