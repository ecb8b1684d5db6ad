"""SQL: sqlfluff's lint report (its human format).

`sqlfluff lint` exits 1 for any violation it prints (`--nofail` makes them
advisory: docs/warnings.md), parse errors (`PRS`) included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule

ECOSYSTEM = "SQL"
_VIOLATION = lazy_compile(
    r"^L:\s*(?P<line>\d+) \| P:\s*(?P<column>\d+) \| \s*(?P<code>[A-Z]{2,3}\d{0,2}) \| (?P<message>.*?)\s*$"
)
_CONTINUATION = lazy_compile(r"^\s+\| (?P<more>.*?)\s*$")
_NAME = lazy_compile(r"\s*\[(?P<name>[a-z_]+\.[a-z_]+)\]\s*$")


@dataclass
class _SqlfluffBlock:
    file: str
    max_lines: int = 100_000
    hits: list[Hit] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    def _close(self) -> None:
        if self.hits and self.parts:
            hit = self.hits[-1]
            text = " ".join(self.parts)
            if name := _NAME.search(text):
                hit.hint["rule_name"] = name.group("name")
                text = text[: name.start()]
            hit.message = text.strip()
        self.parts = []

    def feed(self, line: str, line_no: int) -> bool:
        if m := _VIOLATION.match(line):
            self._close()
            code = m.group("code")
            self.hits.append(
                Hit(
                    signal=line.strip(),
                    message=m.group("message"),
                    file=self.file,
                    line=int(m.group("line")),
                    column=int(m.group("column")),
                    code=code,
                    log_line=line_no,
                    hint={"parse_error": True} if code == "PRS" else {},
                )
            )
            self.parts = [m.group("message")]
            return True
        if (c := _CONTINUATION.match(line)) and self.hits:
            self.parts.append(c.group("more"))
            return True
        self._close()
        return False

    def finish(self) -> Iterable[Hit]:
        self._close()
        return self.hits


@rule(
    id="sql.sqlfluff",
    category=FailureType.COMPILE,
    tool="sqlfluff",
    pattern=r"^== \[(?P<file>.+)\] FAIL\s*$",
    triggers=("] FAIL",),
    url="https://docs.sqlfluff.com/en/stable/reference/rules.html",
    priority=20,
)
def sqlfluff_lint(m: re.Match[str], ctx: LineContext) -> Block:
    """sqlfluff lint violations (and parse errors) in its human format.

    What it detects: `== [report.sql] FAIL`, then `L:   1 | P:   8 | RF02 |
    message` lines, the message wrapped onto `| ...` continuation lines
    and ending in the rule's name (`[references.qualification]`, hint
    rule_name). A `PRS` line is a parse error. `== [file] PASS` and "All
    Finished!" are not records.

    Example output (`sqlfluff lint report.sql`, sqlfluff 4.5.0, dialect postgres):
        == [report.sql] FAIL
        L:   1 | P:  16 | LT01 | Unexpected whitespace before comma ','. [layout.spacing]
        L:   4 | P:  20 |  PRS | Line 4, Position 20: Found unparsable section: 'and and

    Recipe: compile (`sqlfluff fix` fixes layout rules). hint: rule_name,
    parse_error.

    References: https://docs.sqlfluff.com/en/stable/reference/rules.html
    """
    return _SqlfluffBlock(file=m.group("file"))
