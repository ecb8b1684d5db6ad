"""The oxc toolchain's checkers: oxlint's diagnostics and `oxfmt --check`.

oxlint prints each diagnostic in the graphical report of the `miette`
crate: a heading `  x plugin(rule): message` (`!` for a warning; `×` and
`⚠` on a terminal), then the source span under a `,-[file:line:col]`
(`╭─[file:line:col]`) line, then `help:` text, and at the end `Found N
warnings and M errors.`  oxfmt lists the files it would change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..security_codes import is_security_code
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, lines_above
from .registry import rule

ECOSYSTEM = "JavaScript"

# `x eslint(no-debugger): message`, `! typescript(no-explicit-any): ...`, or a
# parse error's bare `x Unexpected token`
_HEADING = lazy_compile(
    r"^\s*(?P<severity>[x!×⚠]) (?:(?P<plugin>[\w-]+)\((?P<rule>[\w/-]+)\): )?"
    r"(?P<message>\S.*?)\s*$"
)
HEADING_SCAN = 8  # lines looked back from a span for its diagnostic's heading


@rule(
    id="oxlint.diagnostic",
    category=FailureType.COMPILE,
    tool="oxlint",
    pattern=r"^\s+(?:,-|╭─)\[(?P<file>[^\[\]\s:][^\[\]:]*):(?P<line>\d+):(?P<column>\d+)\]\s*$",
    triggers=(",-[", "╭─["),
    url="https://oxc.rs/docs/guide/usage/linter/cli.html",
    priority=20,
)
def oxlint_diagnostic(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """oxlint's diagnostics (its default graphical report).

    What it detects: each diagnostic's source span `,-[src/a.ts:22:11]`
    with the heading above it, `  x eslint(no-debugger): message` (a
    parse error's has no rule: `  x Unexpected token`; `!`: a warning, kept only when the run failed because of warnings:
    `--deny-warnings`, `--max-warnings 0`, or a non-zero exit with only
    warnings). A span with no such heading above it (another tool's
    miette report) is not read; the `Found N warnings and M errors.` line
    is not a record. A security plugin's rule is trust_gate.

    Example output (`oxlint -D no-debugger src`, oxlint 1.95.0):
          x eslint(no-debugger): `debugger` statement is not allowed
            ,-[src/defu.ts:23:5]
         22 |     const unusedCount: number = "x";
         23 |     debugger;
            :     ^^^^^^^^^
            `----
          help: Remove the debugger statement

    Recipe: compile (`oxlint --fix` fixes some). hint: rule, plugin, level.

    References: https://oxc.rs/docs/guide/usage/linter/cli.html,
    https://oxc.rs/docs/guide/usage/linter/rules.html
    """
    heading = None
    for prev in lines_above(ctx, HEADING_SCAN):
        if (heading := _HEADING.match(prev)) is not None:
            break
        if prev.strip().startswith(("`----", "╰────")):
            return None  # the previous diagnostic's end: this span has no heading
    if heading is None:
        return None
    plugin, rule_name = heading.group("plugin"), heading.group("rule")
    code = f"{plugin}/{rule_name}" if plugin else None
    security = plugin == "security" or (code is not None and is_security_code(code, "eslint"))
    level = "warning" if heading.group("severity") in "!⚠" else "error"
    hint = {"level": level}
    if plugin:
        hint.update(rule=rule_name, plugin=plugin)
    return Hit(
        signal=heading.group(0).strip(),
        message=heading.group("message"),
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")),
        code=code,
        category=FailureType.TRUST_GATE if security else None,
        warning=level == "warning" and not security,
        hint=hint,
    )


# -- oxfmt --check ---------------------------------------------------------------------------

_OXFMT_FILE = lazy_compile(r"^(?P<file>\S.*?) \(\d+(?:\.\d+)?m?s\)$")
_OXFMT_END = lazy_compile(r"^Format issues found in above \d+ files?\.")


class _OxfmtCheck:
    """The files `oxfmt --check` lists after `Checking formatting...`, kept
    when it ends with `Format issues found in above N files.`"""

    max_lines = 100_000

    def __init__(self) -> None:
        self.files: list[tuple[str, int]] = []
        self.failed = False

    def feed(self, line: str, line_no: int) -> bool:
        text = line.rstrip()
        if not text:
            return True
        if (m := _OXFMT_FILE.match(text)) is not None:
            self.files.append((m.group("file"), line_no))
            return True
        if _OXFMT_END.match(text):
            self.failed = True
        return False

    def finish(self) -> Iterable[Hit]:
        if not self.failed:
            return []
        return [
            Hit(
                signal=f"{file} (not formatted)",
                message=f"{file} is not formatted as oxfmt formats it",
                file=file,
                log_line=line_no,
                code="format",
            )
            for file, line_no in self.files
        ]


@rule(
    id="oxfmt.check",
    category=FailureType.COMPILE,
    tool="oxfmt",
    pattern=r"^Checking formatting\.\.\.$",
    triggers=("Checking formatting...",),
    url="https://oxc.rs/docs/guide/usage/formatter.html",
    priority=20,
)
def oxfmt_check(m: re.Match[str], ctx: LineContext) -> Block:
    """Files `oxfmt --check` would reformat.

    What it detects: the `src/a.ts (0ms)` lines after `Checking
    formatting...`, one record per file, when the report ends with
    `Format issues found in above N files. Run without --check to fix.`;
    a clean check (`All matched files use the correct format.`) gives none.

    Example output (`oxfmt --check src test`, oxfmt 0.43.0):
        Checking formatting...

        src/defu.ts (0ms)

        Format issues found in above 1 files. Run without `--check` to fix.

    Recipe: compile: `oxfmt FILE` rewrites the file.

    References: https://oxc.rs/docs/guide/usage/formatter.html
    """
    return _OxfmtCheck()
