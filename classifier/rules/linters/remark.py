"""remark-lint's findings, as the unified engine's vfile reporter prints
them: a file line, then `line:col-line:col  warning  message  rule  source`."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, match_above
from ..registry import rule

_FILE_HEADER = lazy_compile(r"^(?P<file>[^\s:]+\.(?:md|mdx|markdown|mkd))\s*$")


@rule(
    id="linters.remark_lint",
    category=FailureType.COMPILE,
    tool="remark-lint",
    pattern=(
        r"^\s*(?P<line>\d+):(?P<col>\d+)(?:-\d+:\d+)?\s+(?P<level>warning|error)\s+(?P<message>.+?)"
        r"\s+(?P<rule>[\w-]+)\s+(?P<source>remark-lint|remark-validate-links|remark-[\w-]+)\s*$"
    ),
    triggers=(" remark-",),
    url="https://github.com/remarkjs/remark-lint#cli",
    priority=20,
)
def remark_lint(m: re.Match[str], ctx: LineContext) -> Hit:
    """A remark-lint problem in a Markdown file.

    What it detects: `8:5-8:23  warning  Unexpected reference to undefined
    definition ...  no-undefined-references  remark-lint` under the file's
    line (`docs/guide.md`).  remark reports every lint message as a
    warning; `--frail` makes warnings fail the run (a warning hit: a
    failure when the run failed because of it).

    Example output (`remark --frail --quiet docs`, remark-cli 12):
        docs/guide.md
        8:5-8:23 warning Unexpected reference to undefined definition, expected corresponding definition (`guide`) for a link or escaped opening bracket (`\\[`) for regular text no-undefined-references remark-lint

    Recipe: compile (`remark --output` writes the fixable ones). hint: rule.

    References: https://github.com/remarkjs/remark-lint, https://github.com/remarkjs/remark/tree/main/packages/remark-cli
    """
    header = match_above(ctx, _FILE_HEADER, 500)
    code = m.group("rule")
    return Hit(
        signal=ctx.line.strip(),
        message=m.group("message").strip(),
        file=header.group("file") if header else None,
        line=int(m.group("line")),
        column=int(m.group("col")),
        code=code,
        hint={"rule": code},
        warning=m.group("level") == "warning",
    )
