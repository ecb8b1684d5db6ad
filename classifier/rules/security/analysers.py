"""Security rules for static analysers: bandit, semgrep, eslint-plugin-security."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...lazyre import lazy_compile
from ..base import Hit, LineContext, lines_above, match_above
from ..registry import rule
from .common import BLOCK_PRIORITY, TRUST_GATE

_SECRET_TESTS = {"B105", "B106", "B107"}  # bandit's hard-coded password checks
_QUOTED = lazy_compile(r"'(?P<secret>[^']+)'")

# -- bandit -------------------------------------------------------------------


@dataclass
class _BanditBlock:
    """The indented lines after `>> Issue:` up to the dashed separator."""

    hit: Hit
    max_lines: int = 60

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith("-----"):
            self.max_lines = 0  # the separator ends the issue
            return True
        # (each regex is tried only on lines holding its label)
        if "Severity: " in line and (
            m := re.match(r"^\s+Severity: (\w+)\s+Confidence: (\w+)", line)
        ):
            self.hit.hint["severity"] = m.group(1)
            self.hit.hint["confidence"] = m.group(2)
        elif "CWE: " in line and (m := re.match(r"^\s+CWE: (CWE-\d+)", line)):
            self.hit.hint["cwe"] = m.group(1)
        elif "More Info: " in line and (m := re.match(r"^\s+More Info: (\S+)", line)):
            self.hit.hint["more_info"] = m.group(1)
        elif "Location: " in line and (m := re.match(r"^\s+Location: (.+?):(\d+):(\d+)\s*$", line)):
            self.hit.file = m.group(1)
            self.hit.line = int(m.group(2))
            self.hit.column = int(m.group(3)) + 1  # bandit's column is 0-based
        elif not re.match(r"^\d+\t|^\s*$", line):
            return False
        return True

    def finish(self) -> Iterable[Hit]:
        yield self.hit


@rule(
    id="security.bandit",
    category=TRUST_GATE,
    tool="bandit",
    pattern=r"^>> Issue: \[(?P<code>B\d+):(?P<test>\w+)\] (?P<message>.+)$",
    triggers=(">> Issue: [",),
    url="https://bandit.readthedocs.io/en/latest/plugins/index.html",
    priority=BLOCK_PRIORITY,
)
def bandit_issue(m: re.Match[str], ctx: LineContext) -> _BanditBlock:
    """A bandit finding (Python static security analysis).

    What it detects: `>> Issue: [B602:subprocess_popen_with_shell_equals_true]
    ...` with the Severity/Confidence, CWE, More Info and `Location:
    file:line:col` lines that follow; the code excerpt is not a failure. A
    hard-coded password (B105/B106/B107) names the secret in quotes: it is
    redacted everywhere. "No issues identified." is a clean run.

    Example output (`bandit -r app`, bandit 1.9.4):
        >> Issue: [B105:hardcoded_password_string] Possible hardcoded password: 'hunter2-prod-db'
           Severity: Low   Confidence: Medium
           Location: app/settings.py:6:14

    Recipe: trust_gate (human review; a reviewed finding is allow-listed with
    `# nosec B105`). hint: test, severity, confidence, cwe, more_info, secret
    (masked).

    References: https://bandit.readthedocs.io/en/latest/plugins/index.html
    """
    code = m.group("code")
    hint: dict[str, object] = {"test": m.group("test"), "scanner": "bandit"}
    if code in _SECRET_TESTS and (q := _QUOTED.search(m.group("message"))):
        hint["_secret"] = q.group("secret")
    hit = Hit(
        signal=ctx.line.strip().removeprefix(">> Issue: "),
        message=m.group("message"),
        code=code,
        hint=hint,
    )
    return _BanditBlock(hit)


# -- semgrep -------------------------------------------------------------------------------

_SEMGREP_FILE = lazy_compile(r"^ {4}(?P<file>[^\s❯❱┆].*?\S)\s*$")
_SEMGREP_SEVERITY = {"❯❯❱": "error", "❯❱": "warning", "❱": "info"}


@dataclass
class _SemgrepBlock:
    """A semgrep finding's message lines, up to its first `N┆ code` line."""

    hit: Hit
    max_lines: int = 60
    message: list[str] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        if m := re.match(r"^\s+(\d+)┆", line):
            self.hit.line = int(m.group(1))
            self.max_lines = 0
            return True
        text = line.strip()
        if not text:
            return True
        if text.startswith("❰❰") or text.startswith("Details:") or text.startswith("Autofix"):
            if text.startswith("Details:"):
                self.hit.hint["details"] = text.removeprefix("Details:").strip()
            return True
        if re.match(r"^ {5,}\S", line):
            self.message.append(text)
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        if self.message:
            self.hit.message = " ".join(self.message)
        yield self.hit


@rule(
    id="security.semgrep",
    category=TRUST_GATE,
    tool="semgrep",
    pattern=r"^\s+(?P<severity>❯❯❱|❯❱|❱) (?P<code>[\w.:/-]+)\s*$",
    triggers=("❱ ",),
    url="https://semgrep.dev/docs/cli-reference",
    priority=BLOCK_PRIORITY,
)
def semgrep_finding(m: re.Match[str], ctx: LineContext) -> _SemgrepBlock:
    """A semgrep finding in its default text output.

    What it detects: the rule line (`❯❯❱ rule-id` for an error, `❯❱` a
    warning, `❱` info) under the indented file header, the message lines
    below it and the first `N┆ code` line, which gives the line. The file is
    the last header printed above the rule.

    Example output (`semgrep --config rules.yml --metrics=off --error app`, semgrep 1.185.0):
            app/handlers.py
           ❯❯❱ python-eval-user-input
                  eval() on data that may come from a user runs arbitrary code; parse it instead.
                    7┆ return eval(expression)

    Recipe: trust_gate (human review; a reviewed finding is silenced with
    `# nosemgrep: rule-id`). hint: severity, details.

    References: https://semgrep.dev/docs/cli-reference
    """
    fm = match_above(ctx, _SEMGREP_FILE, 60)
    file = fm.group("file") if fm else None
    hit = Hit(
        signal=f"{m.group('severity')} {m.group('code')}",
        message=m.group("code"),
        file=file,
        code=m.group("code"),
        hint={"severity": _SEMGREP_SEVERITY[m.group("severity")], "scanner": "semgrep"},
    )
    return _SemgrepBlock(hit)


# -- eslint-plugin-security -----------------------------------------------------------------

_ESLINT_FILE = lazy_compile(
    r"^(?P<file>(?:/|[A-Za-z]:[\\/]|\.{0,2}/?)?[^\s:][^:]*\.[A-Za-z0-9]+)\s*$"
)


@rule(
    id="security.eslint_plugin_security",
    category=TRUST_GATE,
    tool="eslint",
    pattern=r"^\s+(?P<line>\d+):(?P<column>\d+)\s+(?P<level>error|warning)\s+(?P<message>.+?)\s+(?P<code>security(?:-node)?/[\w-]+)\s*$",
    triggers=(" security/", " security-node/"),
    url="https://github.com/eslint-community/eslint-plugin-security#rules",
    priority=20,
)
def eslint_plugin_security(m: re.Match[str], ctx: LineContext) -> Hit:
    """An eslint-plugin-security warning in eslint's stylish output.

    What it detects: `  9:3  warning  Found child_process.exec() with non
    Literal first argument  security/detect-child-process`, the file being
    the last unindented path printed above it. Any eslint rule in the
    `security/` (or `security-node/`) namespace is a trust gate, not a
    compile error, whatever its level.

    Example output (`eslint --max-warnings 0 src`, eslint 9.39.5, eslint-plugin-security 3.0.1):
        /repo/src/files.js
           9:3   warning  Found child_process.exec() with non Literal first argument  security/detect-child-process

    Recipe: trust_gate (human review; a reviewed finding gets an
    `// eslint-disable-next-line security/...` comment). hint: level.

    References: https://github.com/eslint-community/eslint-plugin-security#rules
    """
    file = None
    for line in lines_above(ctx, 200):
        if line and not line[0].isspace() and (fm := _ESLINT_FILE.match(line)):
            file = fm.group("file")
            break
    return Hit(
        signal=f"{m.group('message')}  {m.group('code')}",
        message=m.group("message"),
        file=file,
        line=int(m.group("line")),
        column=int(m.group("column")),
        code=m.group("code"),
        hint={"level": m.group("level"), "scanner": "eslint-plugin-security"},
    )
