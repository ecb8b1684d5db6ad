"""TSLint's findings: its default `stylish`-like report (a file line, then
`ERROR: line:col  rule  message`) and the `prose` format."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, match_above
from ..registry import rule

_FILE_HEADER = lazy_compile(r"^(?P<file>[^\s:][^:]*\.[jt]sx?):\d+:\d+\s*$")


@rule(
    id="linters.tslint",
    category=FailureType.COMPILE,
    tool="tslint",
    pattern=(
        r"^(?P<level>ERROR|WARNING): (?:\((?P<rule>[\w/-]+)\) )?(?:(?P<file>[^\s:][^:]*\.[jt]sx?):"
        r"(?P<line>\d+):(?P<col>\d+) - (?P<message>.+)"
        r"|(?P<sline>\d+):(?P<scol>\d+)\s+(?P<srule>[\w/-]+)\s+(?P<smessage>.+))$"
    ),
    triggers=("ERROR: ", "WARNING: "),
    url="https://palantir.github.io/tslint/usage/cli/",
    priority=20,
)
def tslint(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A TSLint problem.

    What it detects: the default report of TSLint 6 (`src/cart.ts:2:20`,
    then `ERROR: 2:20  array-type  Array type using 'Array<T>' is
    forbidden.`) and `-t prose` (`ERROR: src/cart.ts:4:9 - Forbidden 'var'
    keyword`, with `(rule)` before the file in verbose mode).  A WARNING is
    a warning hit (TSLint exits 0 on warnings).

    Example output (`tslint -c tslint.json 'src/**/*.ts'`, tslint 6.1.3):
        src/cart.ts:2:20
        ERROR: 2:20  array-type      Array type using 'Array<T>' is forbidden. Use 'T[]' instead.

    Recipe: compile (`tslint --fix` corrects the fixable rules). hint: rule.

    References: https://palantir.github.io/tslint/usage/cli/, https://palantir.github.io/tslint/rules/
    """
    if m.group("sline"):
        header = match_above(ctx, _FILE_HEADER, 200)
        if header is None:
            return None  # not under a TSLint file line: another tool's "ERROR: 2:20 ..."
        file, line, col = header.group("file"), m.group("sline"), m.group("scol")
        code, message = m.group("srule"), m.group("smessage").strip()
    else:
        file, line, col = m.group("file"), m.group("line"), m.group("col")
        code, message = m.group("rule"), m.group("message").strip()
    hint: dict[str, object] = {"rule": code} if code else {}
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=file,
        line=int(line),
        column=int(col),
        code=code,
        hint=hint,
        warning=m.group("level") == "WARNING",
    )
