"""Spelling checks CI runs on code and docs: codespell.

codespell exits 65 when it finds a misspelling, so each one fails the run.
"""

from __future__ import annotations

import re

from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

ECOSYSTEM = "Docs & text"


@rule(
    id="spelling.codespell",
    category=FailureType.COMPILE,
    tool="codespell",
    pattern=r"^(?P<file>[^\s:][^:]*):(?P<line>\d+): (?P<word>\S+) ==> (?P<fixes>[^,\s][^|]*?)(?: \| (?P<reason>.+))?\s*$",
    triggers=(" ==> ",),
    url="https://github.com/codespell-project/codespell#usage",
    priority=20,
)
def codespell_typo(m: re.Match[str], ctx: LineContext) -> Hit:
    """A misspelling codespell found.

    What it detects: `docs/setup.md:3: recieve ==> receive` (several
    candidates are comma-separated; a reason may follow `|`).

    Example output (`codespell docs`, codespell 2.4.3):
        docs/setup.md:3: recieve ==> receive
        docs/util.py:3: teh ==> the

    Recipe: compile (`codespell -w` writes the single suggestion). hint:
    word, suggestions.

    References: https://github.com/codespell-project/codespell#usage
    """
    word = m.group("word")
    suggestions = [s.strip() for s in m.group("fixes").split(",") if s.strip()]
    hint: dict[str, object] = {"word": word, "suggestions": suggestions}
    if len(suggestions) == 1:
        hint["suggestion"] = suggestions[0]
    return Hit(
        signal=ctx.line.strip(),
        message=f"misspelling: {word} ==> {', '.join(suggestions)}",
        file=m.group("file"),
        line=int(m.group("line")),
        code="codespell",
        hint=hint,
    )
