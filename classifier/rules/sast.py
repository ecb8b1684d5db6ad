"""Static security analysers that report in their own text formats: gosec
(Go) and brakeman (Ruby on Rails). Every finding is a trust_gate: a human
reviews it, nothing is changed automatically (recipes/trust_gate.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext, positive_int
from .registry import rule

ECOSYSTEM = "Security scanners"
_TG = FailureType.TRUST_GATE
BLOCK_PRIORITY = 40  # as rules/security/: above the generic families


@rule(
    id="sast.gosec",
    category=_TG,
    tool="gosec",
    pattern=r"^\[(?P<file>[^\]]+?\.go):(?P<line>\d+)(?:-\d+)?(?::(?P<column>\d+))?\] - (?P<code>G\d{3})(?P<nosec> \(NoSec\))? \(\s*(?P<cwe>CWE-\d+|\"CWE\")\s*\): (?P<message>.+?) \(Confidence: (?P<confidence>\w+), Severity: (?P<severity>\w+)\)\s*$",
    triggers=("] - G",),
    url="https://github.com/securego/gosec#available-rules",
    priority=BLOCK_PRIORITY,
)
def gosec_issue(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A gosec finding in its default text report.

    What it detects: `[/path/main.go:13] - G204 ( CWE-78 ): Subprocess
    launched with a potential tainted input or cmd arguments (Confidence:
    HIGH, Severity: MEDIUM)`, the code excerpt after it being part of the
    report; the closing `Summary:` block is not a record. A finding marked
    `(NoSec)` was suppressed and is not a record either.

    Example output (`gosec ./...`, gosec 2.22; documented format, not
    captured: no package of gosec can be installed here):
        [/work/shop/main.go:10] - G101 ( CWE-798 ): Potential hardcoded credentials (Confidence: LOW, Severity: HIGH)
            9:
          > 10: const dbPassword = "hunter2-prod"

    Recipe: trust_gate (human review; a reviewed finding gets `// #nosec
    G101 -- reason`). hint: cwe, confidence, severity.

    References: https://github.com/securego/gosec#available-rules
    """
    if m.group("nosec"):
        return None
    cwe = m.group("cwe").strip('"')
    return Hit(
        signal=ctx.line.strip(),
        message=m.group("message").strip(),
        file=m.group("file"),
        line=int(m.group("line")),
        column=positive_int(m.group("column")),
        code=m.group("code"),
        hint={
            "cwe": cwe if cwe != "CWE" else None,
            "confidence": m.group("confidence").lower(),
            "severity": m.group("severity").lower(),
            "scanner": "gosec",
        },
    )


_BRAKEMAN_FIELD = lazy_compile(
    r"^(?P<key>Category|Check|Message|Code|File|Line|Link): (?P<value>.*)$"
)


@dataclass
class _BrakemanBlock:
    confidence: str
    start: int
    max_lines: int = 40
    fields: dict[str, str] = field(default_factory=dict)

    def feed(self, line: str, line_no: int) -> bool:
        m = _BRAKEMAN_FIELD.match(line)
        if m is None or m.group("key") in self.fields:
            return False
        self.fields[m.group("key")] = m.group("value").strip()
        return True

    def finish(self) -> Iterable[Hit]:
        f = self.fields
        if "Message" not in f or "File" not in f:
            return
        category = f.get("Category", "Security warning")
        yield Hit(
            signal=f"{category}: {f['Message']}",
            message=f"{f['Message']} ({category})",
            file=f["File"],
            line=positive_int(f.get("Line")),
            code=f.get("Check") or category,
            log_line=self.start,
            hint={
                "category": category,
                "confidence": self.confidence.lower(),
                "code": f.get("Code"),
                "scanner": "brakeman",
            },
        )


@rule(
    id="sast.brakeman",
    category=_TG,
    tool="brakeman",
    pattern=r"^Confidence: (?P<confidence>High|Medium|Weak)\s*$",
    triggers=("Confidence: High", "Confidence: Medium", "Confidence: Weak"),
    url="https://brakemanscanner.org/docs/warning_types/",
    priority=BLOCK_PRIORITY,
)
def brakeman_warning(m: re.Match[str], ctx: LineContext) -> _BrakemanBlock:
    """A brakeman warning in its text report (Ruby on Rails security scan).

    What it detects: under `== Warnings ==`, each `Confidence: High` line
    and the `Category:`, `Check:`, `Message:`, `Code:`, `File:`, `Line:`
    lines after it: one record per warning. "No warnings found" is a clean
    scan.

    Example output (`brakeman --no-pager`, brakeman 6.1.2; documented
    format, not captured: brakeman has no package here):
        Confidence: High
        Category: SQL Injection
        Check: SQL
        Message: Possible SQL injection
        Code: User.where("name = '#{params[:name]}'")
        File: app/controllers/users_controller.rb
        Line: 3

    Recipe: trust_gate (human review; a reviewed warning goes into
    config/brakeman.ignore). hint: category, confidence, code.

    References: https://brakemanscanner.org/docs/warning_types/
    """
    return _BrakemanBlock(confidence=m.group("confidence"), start=ctx.line_no)
