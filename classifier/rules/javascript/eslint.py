"""The eslint rule: the stylish formatter's per-file report."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...lazyre import lazy_compile
from ...security_codes import is_security_code
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..registry import rule

# -- eslint (stylish formatter) -------------------------------------------------------------

_ESLINT_MSG = lazy_compile(
    r"^\s+(?P<line>\d+):(?P<column>\d+)\s+(?P<severity>error|warning)\s+(?P<message>.+?)"
    r"(?:\s{2,}(?P<code>[@\w][\w@/.-]*))?\s*$"
)
_ESLINT_FILE = lazy_compile(r"^(?P<file>(?:[A-Za-z]:[\\/]|/|\.{1,2}[\\/]|[\w@.-]+[\\/])\S.*?)\s*$")
_ESLINT_SUMMARY = lazy_compile(r"^\s*(?:✖|X) \d+ problems? \(")


class _EslintBlock:
    max_lines = 100_000

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.hits: list[Hit] = []
        self.done = False

    def take(self, m: re.Match[str], line: str, line_no: int) -> None:
        code = m.group("code")
        trust = is_security_code(code, "eslint")
        # a warning is a failure only when the run failed because of it
        # (--max-warnings): classifier/warnings_policy.py decides
        warning = m.group("severity") != "error" and not trust
        message = m.group("message").strip()
        self.hits.append(
            Hit(
                signal=f"{m.group('severity')}  {message}" + (f"  {code}" if code else ""),
                message=message,
                file=self.file,
                line=int(m.group("line")) or None,
                column=int(m.group("column")) or None,
                code=code,
                log_line=line_no,
                category=FailureType.TRUST_GATE if trust else None,
                warning=warning,
                hint={"rule": code} if code else {},
            )
        )

    def feed(self, line: str, line_no: int) -> bool:
        if self.done:
            return False
        if not line.strip():
            return True
        m = _ESLINT_MSG.match(line)
        if m:
            self.take(m, line, line_no)
            return True
        if _ESLINT_SUMMARY.match(line):
            self.done = True
            return True
        if line.lstrip().startswith("✖ ") or line.strip().startswith(
            ("0 errors and", "1 error and", "1 warning and")
        ):
            return True  # "N errors and M warnings potentially fixable with `--fix`"
        f = _ESLINT_FILE.match(line)
        if f and not line.startswith(" "):
            self.file = f.group("file")
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="eslint.stylish",
    category=FailureType.COMPILE,
    tool="eslint",
    pattern=_ESLINT_MSG.pattern,
    triggers=("  error  ", "  warning  "),
    url="https://eslint.org/docs/latest/use/formatters/#stylish",
)
def eslint_stylish(m: re.Match[str], ctx: LineContext) -> Block | None:
    """eslint problems in the default `stylish` format.

    What it detects: a file header line (the file's path, alone on its line)
    followed by `  line:col  error  message  rule-id` lines, as many files as
    were linted, closed by `✖ N problems (E errors, W warnings)`. Each
    `error` line is one failure with the rule id as code; `warning` lines
    are warnings, failures only when the run failed because of them
    (`--max-warnings`, docs/warnings.md), except for security plugins (`security/...`, `no-secrets/...`), whose findings are
    trust_gate failures. Parsing errors have no rule id.

    Example output (`eslint src`, eslint 10.15.0, flat config):
        /work/app/src/app.js
          1:10  error    'helper' is defined but never used  no-unused-vars
          6:5   warning  Unexpected console statement        no-console

        ✖ 2 problems (1 error, 1 warning)

    Recipe: compile (trust_gate for security plugins). `rule` in the hint
    names the eslint rule.

    References: https://eslint.org/docs/latest/use/formatters/#stylish
    """
    header = None
    for prev in reversed(ctx.before(200)):
        if not prev.strip() or _ESLINT_MSG.match(prev):
            continue
        f = _ESLINT_FILE.match(prev)
        if f and not prev.startswith(" "):
            header = f.group("file")
        break
    if header is None:
        return None
    block = _EslintBlock(header)
    block.take(m, ctx.line, ctx.line_no)
    return block
