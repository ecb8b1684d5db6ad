"""CSS: stylelint in its default (`string`) format; its JSON report is a
structured input (classifier/structured/lint_reports.py).

stylelint exits 2 when a rule at `error` severity reports anything; a
`warning` (⚠) does not fail the run unless `--max-warnings` is exceeded, so
it is a warning hit (docs/warnings.md; the "Max warnings exceeded" line is
read by fatal_warnings.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, lines_above
from .registry import rule

ECOSYSTEM = "CSS"
_PROBLEM = lazy_compile(
    r"^\s+(?P<line>\d+):(?P<column>\d+)\s+(?P<mark>✖|⚠)\s+(?P<message>.+?)(?:\s{2,}(?P<code>[a-z@][\w@/-]*))?\s*$"
)
_FILE = lazy_compile(
    r"^(?P<file>\S.*?\.(?:css|scss|sass|less|sss|vue|html|svelte|astro|[jt]sx?))\s*$"
)


class _StylelintBlock:
    max_lines = 100_000

    def __init__(self, file: str) -> None:
        self.file = file
        self.hits: list[Hit] = []

    def take(self, m: re.Match[str], line: str, line_no: int) -> None:
        code = m.group("code")
        level = "error" if m.group("mark") == "✖" else "warning"
        self.hits.append(
            Hit(
                signal=line.strip(),
                message=m.group("message").strip(),
                file=self.file,
                line=int(m.group("line")),
                column=int(m.group("column")),
                code=code,
                log_line=line_no,
                warning=level == "warning",
                hint={"rule": code, "level": level} if code else {"level": level},
            )
        )

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return True
        if m := _PROBLEM.match(line):
            self.take(m, line, line_no)
            return True
        if f := _FILE.match(line):
            self.file = f.group("file")
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="css.stylelint",
    category=FailureType.COMPILE,
    tool="stylelint",
    pattern=_PROBLEM.pattern,
    triggers=("  ✖  ", "  ⚠  "),
    url="https://stylelint.io/user-guide/cli",
    priority=20,
)
def stylelint_string(m: re.Match[str], ctx: LineContext) -> Block | None:
    """stylelint problems in its default `string` format.

    What it detects: the file's path alone on a line, then `  2:3  ✖
    message  rule-name` lines (`✖` error, `⚠` warning), for as many files
    as were linted, closed by `✖ N problems (E errors, W warnings)`. Each
    problem is a record (a `⚠` one a warning: a failure only when the run
    failed because of it).

    Example output (`stylelint "src/**/*.css"`, stylelint 16.25.0):
        src/site.css
          2:3   ✖  Unexpected unknown property "colr"  property-no-unknown
          3:10  ⚠  Expected "#ffffff" to be "#fff"     color-hex-length

        ✖ 3 problems (2 errors, 1 warning)

    Recipe: compile (`stylelint --fix` fixes some). hint: rule, level.

    References: https://stylelint.io/user-guide/cli
    """
    header = None
    for prev in lines_above(ctx, 400):
        if not prev.strip() or _PROBLEM.match(prev):
            continue
        if f := _FILE.match(prev):
            header = f.group("file")
        break
    if header is None:
        return None
    block = _StylelintBlock(header)
    block.take(m, ctx.line, ctx.line_no)
    return block
