"""JavaScript linters and format checkers as CI runs them: eslint's compact,
unix and pretty (xo's) formatters (its stylish default is in javascript/eslint.py, its JSON and
checkstyle reports are structured inputs), `standard`, and `prettier
--check`.

A finding the tool fails the run for is a compile record; an eslint
`warning` is a warning hit (a failure only when the run failed because of
it: `--max-warnings`, docs/warnings.md; eslint's "too many warnings" line
is read by fatal_warnings.py). A rule of a security plugin
(`security/...`, `no-unsanitized/...`) is a trust_gate whatever its level.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..lazyre import lazy_compile
from ..security_codes import is_security_code
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, hit_from_match, lines_above
from .registry import rule

ECOSYSTEM = "JavaScript"
_FORMATTERS = "https://eslint.org/docs/latest/use/formatters/"


def _eslint_hit(m: re.Match[str], ctx: LineContext, severity: str) -> Hit:
    code = m.group("code")
    security = is_security_code(code, "eslint")
    return hit_from_match(
        m,
        ctx,
        category=FailureType.TRUST_GATE if security else None,
        warning=severity.lower() == "warning" and not security,
        hint={"rule": code, "level": severity.lower()} if code else {"level": severity.lower()},
    )


@rule(
    id="js_lint.eslint_compact",
    category=FailureType.COMPILE,
    tool="eslint",
    pattern=r"^(?P<file>\S.*?): line (?P<line>\d+), col (?P<column>\d+), (?P<severity>Error|Warning) - (?P<message>.+?)(?: \((?P<code>[@\w][\w@/.-]*)\))?$",
    triggers=(", Error - ", ", Warning - "),
    url=_FORMATTERS,
    priority=20,
)
def eslint_compact(m: re.Match[str], ctx: LineContext) -> Hit:
    """eslint problems in the `compact` format (`eslint -f compact`).

    What it detects: `file: line 1, col 10, Error - message (rule-id)`, one
    problem per line; a parsing error has no rule id. `Warning` lines are
    warnings (kept only when the run failed because of them). The closing
    `N problems` line is not a record.

    Example output (`eslint -f compact src`, eslint 10.15.0, eslint-formatter-compact 9.0.1):
        /work/app/src/app.js: line 1, col 10, Error - 'helper' is defined but never used. (no-unused-vars)
        /work/app/src/util.js: line 2, col 13, Error - Parsing error: Unexpected token ;

    Recipe: compile (trust_gate for a security plugin's rule). hint: rule, level.

    References: https://eslint.org/docs/latest/use/formatters/,
    https://www.npmjs.com/package/eslint-formatter-compact
    """
    return _eslint_hit(m, ctx, m.group("severity"))


@rule(
    id="js_lint.eslint_unix",
    category=FailureType.COMPILE,
    tool="eslint",
    pattern=r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+): (?P<message>.+) \[(?P<severity>Error|Warning)(?:/(?P<code>[@\w][\w@/.-]*))?\]$",
    triggers=(" [Error/", " [Error]", " [Warning/", " [Warning]"),
    url=_FORMATTERS,
    priority=20,
)
def eslint_unix(m: re.Match[str], ctx: LineContext) -> Hit:
    """eslint problems in the `unix` format (`eslint -f unix`).

    What it detects: `file:line:col: message [Error/rule-id]` (`[Error]`
    alone for a parsing error); `[Warning/...]` lines are warnings.

    Example output (`eslint -f unix src`, eslint 10.15.0, eslint-formatter-unix 9.0.1):
        /work/app/src/app.js:5:13: Expected '===' and instead saw '=='. [Error/eqeqeq]
        /work/app/src/app.js:6:5: Unexpected console statement. [Warning/no-console]

    Recipe: compile (trust_gate for a security plugin's rule). hint: rule, level.

    References: https://eslint.org/docs/latest/use/formatters/,
    https://www.npmjs.com/package/eslint-formatter-unix
    """
    return _eslint_hit(m, ctx, m.group("severity"))


# -- xo (eslint-formatter-pretty) ---------------------------------------------------------

# A file's heading: `  src/app.js:2:8` (the position of its first problem).
_PRETTY_FILE = lazy_compile(r"^  (?P<file>[^\s:][^:]*):\d+:\d+$")
PRETTY_HEADING_SCAN = 2000  # lines looked back for a problem's file heading


@rule(
    id="js_lint.eslint_pretty",
    category=FailureType.COMPILE,
    tool="eslint",
    pattern=(
        r"^  (?P<severity>[✖⚠]) +(?P<line>\d+):(?P<column>\d+) +(?P<message>\S.*?)"
        r"(?: {2,}(?P<code>[@\w][\w@/.-]*))?\s*$"
    ),
    triggers=("  ✖ ", "  ⚠ "),
    url="https://github.com/sindresorhus/eslint-formatter-pretty",
    priority=20,
)
def eslint_pretty(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """eslint problems in the `pretty` format, xo's default reporter.

    What it detects: under each file's heading (`  src/app.js:2:8`), one
    line per problem, `  ✖  2:8   message   rule-id` (`⚠` for a warning: a
    warning hit, kept only when the run failed because of it; a parsing
    error has no rule id). The file is the nearest heading above (a
    problem line with none is not read). The closing `1 warning` / `7
    errors` counts are not records.

    Example output (`xo`, xo 1.2.3):
          extra.js:2:8
          ⚠   5:2   Unexpected todo comment: TODO: fix this.  no-warning-comments
          ✖   2:8   Expected === and instead saw ==.          eqeqeq

    Recipe: compile (trust_gate for a security plugin's rule). hint: rule, level.

    References: https://github.com/sindresorhus/eslint-formatter-pretty,
    https://github.com/xojs/xo
    """
    state = ctx.state
    last = state.get("line_no")
    file = state.get("file") if last == ctx.line_no - 1 else None
    if file is None:
        for prev in lines_above(ctx, PRETTY_HEADING_SCAN):
            if heading := _PRETTY_FILE.match(prev):
                file = heading.group("file")
                break
            if prev.strip() and not prev.startswith(("  ✖ ", "  ⚠ ")):
                return None
    if file is None:
        return None
    state["line_no"], state["file"] = ctx.line_no, file
    code = m.group("code")
    security = is_security_code(code, "eslint")
    level = "warning" if m.group("severity") == "⚠" else "error"
    return Hit(
        signal=ctx.line.strip(),
        message=m.group("message").strip(),
        file=file,
        line=int(m.group("line")),
        column=int(m.group("column")),
        code=code,
        category=FailureType.TRUST_GATE if security else None,
        warning=level == "warning" and not security,
        hint={"rule": code, "level": level} if code else {"level": level},
    )


# -- standard --------------------------------------------------------------------------------

_STANDARD_LINE = lazy_compile(
    r"^  (?P<file>\S.*?):(?P<line>\d+):(?P<column>\d+): (?P<message>.+?)"
    r"(?: \((?P<code>[@\w][\w@/.-]*)\))?(?P<warning> \(warning\))?\s*$"
)


@dataclass
class _StandardBlock:
    tool: str
    max_lines: int = 100_000
    hits: list[Hit] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith(f"{self.tool}: "):
            return True  # more of the banner ("Run `standard --fix` ...")
        m = _STANDARD_LINE.match(line)
        if m is None:
            return False
        code = m.group("code")
        security = is_security_code(code, "eslint")
        self.hits.append(
            Hit(
                signal=line.strip(),
                message=m.group("message").strip(),
                file=m.group("file"),
                line=int(m.group("line")),
                column=int(m.group("column")),
                code=code,
                log_line=line_no,
                category=FailureType.TRUST_GATE if security else None,
                warning=bool(m.group("warning")) and not security,
                hint={"rule": code} if code else {},
            )
        )
        return True

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="js_lint.standard",
    category=FailureType.COMPILE,
    tool="standard",
    pattern=r"^(?P<tool>standard|semistandard|ts-standard|standardx): Use (?:JavaScript|Semicolons|TypeScript).*\(https?://\S+\)\s*$",
    triggers=("standard: Use JavaScript", "standard: Use Semicolons", "standard: Use TypeScript"),
    url="https://standardjs.com/#usage",
    priority=20,
)
def standard_style(m: re.Match[str], ctx: LineContext) -> Block:
    """JavaScript Standard Style (`standard`, `semistandard`, `ts-standard`).

    What it detects: the banner `standard: Use JavaScript Standard Style
    (https://standardjs.com)` (not Ruby's standardrb banner, ruby.py's) and the indented `  file:line:col: message
    (rule-id)` lines after it, one record each. A line ending in
    `(warning)` is a warning: standard exits 0 for warnings alone.

    Example output (`standard src/cart.js`, standard 17.1.2):
        standard: Use JavaScript Standard Style (https://standardjs.com)
        standard: Run `standard --fix` to automatically fix some problems.
          /work/app/src/cart.js:1:16: Extra semicolon. (semi)
          /work/app/src/cart.js:5:8: Unexpected var, use let or const instead. (no-var) (warning)

    Recipe: compile (`standard --fix` fixes most). hint: rule.

    References: https://standardjs.com/#usage
    """
    return _StandardBlock(tool=m.group("tool"))


# -- prettier --check --------------------------------------------------------------------------

_PRETTIER_FILE = lazy_compile(r"^\[warn\] (?P<file>\S.*?)\s*$")


@dataclass
class _Collected:
    """Hits already known when the rule matched: yielded when the next line
    comes (or the output ends)."""

    hits: list[Hit]
    max_lines: int = 1

    def feed(self, line: str, line_no: int) -> bool:
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="js_lint.prettier_check",
    category=FailureType.COMPILE,
    tool="prettier",
    pattern=r"^\[warn\] Code style issues (?:found in (?:the above file|\d+ files)|in \d+ files)",
    triggers=("[warn] Code style issues",),
    url="https://prettier.io/docs/cli#--check",
    priority=20,
)
def prettier_check(m: re.Match[str], ctx: LineContext) -> Block | None:
    """`prettier --check` finding files that are not formatted.

    What it detects: the closing `[warn] Code style issues found in the
    above file. Run Prettier with --write to fix.` (or `... in N files`),
    and the `[warn] FILE` lines above it, back to `Checking formatting...`:
    one record per file, with no line (prettier names no place).

    Example output (`prettier --check src`, prettier 3.10.1):
        Checking formatting...
        [warn] src/config.js
        [warn] Code style issues found in the above file. Run Prettier with --write to fix.

    Recipe: compile (`prettier --write FILE` formats it). hint: formatter.

    References: https://prettier.io/docs/cli#--check
    """
    hits: list[Hit] = []
    for offset, line in enumerate(lines_above(ctx, 500), start=1):
        if line.startswith("Checking formatting"):
            break
        f = _PRETTIER_FILE.match(line)
        if f is None or ": " in f.group("file") or f.group("file").startswith("Code style"):
            continue  # not a file name ("[warn] Ignored unknown option ...: ...")
        hits.append(
            Hit(
                signal=line.strip(),
                message=f"{f.group('file')}: not formatted (prettier --check)",
                file=f.group("file"),
                code="prettier-check",
                log_line=ctx.line_no - offset,
                hint={"formatter": "prettier"},
            )
        )
    if not hits:
        return None
    hits.reverse()
    return _Collected(hits)


@rule(
    id="js_lint.prettier_syntax_error",
    category=FailureType.COMPILE,
    tool="prettier",
    pattern=r"^\[error\] (?P<file>[^\s:][^:]*): (?P<message>(?P<kind>SyntaxError|Error): .+?) \((?P<line>\d+):(?P<column>\d+)\)\s*$",
    triggers=("[error] ",),
    url="https://prettier.io/docs/cli",
    priority=20,
)
def prettier_syntax_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """A file prettier could not parse.

    What it detects: `[error] FILE: SyntaxError: message (line:col)`, the
    code frame prettier prints after it (`[error] > 2 | ...`) being part of
    the same report.

    Example output (`prettier --check src`, prettier 3.10.1):
        [error] src/pick.js: SyntaxError: Unexpected token, expected "," (2:33)
        [error] > 2 |   return list.filter((x) => x.ok;

    Recipe: compile (fix the syntax). hint: kind.

    References: https://prettier.io/docs/cli
    """
    kind = m.group("kind")
    return hit_from_match(m, ctx, code=kind, hint={"kind": kind, "formatter": "prettier"})
