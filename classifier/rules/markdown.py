"""Markdown: markdownlint (markdownlint-cli and markdownlint-cli2).

markdownlint exits 1 for any `error`-severity violation; a rule configured
as `"warning"` prints `warning` and does not fail the run (exit 0), so it is
a warning hit (docs/warnings.md).
"""

from __future__ import annotations

import re

from ..taxonomy import FailureType
from .base import Hit, LineContext, hit_from_match
from .registry import rule

ECOSYSTEM = "Markdown"


@rule(
    id="markdown.markdownlint",
    category=FailureType.COMPILE,
    tool="markdownlint",
    pattern=r"^(?P<file>[^\s:][^:]*):(?P<line>\d+)(?::(?P<column>\d+))? (?:(?P<level>error|warning) )?(?P<code>MD\d{3})(?P<aliases>(?:/[\w-]+)*) (?P<message>.+)$",
    triggers=(" MD0",),
    url="https://github.com/DavidAnson/markdownlint/blob/main/doc/Rules.md",
    priority=20,
)
def markdownlint(m: re.Match[str], ctx: LineContext) -> Hit:
    """A markdownlint violation.

    What it detects: `file:line[:col] [error|warning] MD018/alias message
    [detail]` (markdownlint-cli 0.50 and markdownlint-cli2; older versions
    print no severity word, every violation an error). The column is absent
    for whole-line rules.

    Example output (`markdownlint docs`, markdownlint-cli 0.50.0):
        docs/guide.md:3:1 error MD018/no-missing-space-atx No space after hash on atx style heading [Context: "##Install"]
        docs/guide.md:5 error MD040/fenced-code-language Fenced code blocks should have a language specified [Context: "```"]

    Recipe: compile (`markdownlint --fix` fixes many). hint: rule (the
    alias), level.

    References: https://github.com/DavidAnson/markdownlint/blob/main/doc/Rules.md
    """
    level = m.group("level") or "error"
    alias = m.group("aliases").lstrip("/").split("/")[0] or None
    return hit_from_match(
        m,
        ctx,
        warning=level == "warning",
        hint={"rule": alias, "level": level},
    )
