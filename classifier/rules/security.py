"""Security gates (trust_gate): secret scanners (gitleaks, trufflehog,
detect-secrets), static analysers (bandit, semgrep, eslint-plugin-security),
dependency audits (npm audit, pip-audit) and a CONFIDENCE.md gate.

Never automatic: every finding is escalated for human review.  The secret a
scanner names goes into ``hint["_secret"]``; the engine moves it into its
vault and masks it in every field of every record (classifier/redact.py).
The text output people see is what is covered here; the JSON/SARIF reports
of these tools are structured inputs (classifier/structured/).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..taxonomy import FailureType
from .base import FALLBACK, Hit, LineContext, match_above, positive_int
from .registry import rule

_TG = FailureType.TRUST_GATE
# Above the generic tool families (infra 30, python 20): the lines a scanner's
# report block consumes (code excerpts, "File:" lines) are not theirs to claim.
BLOCK_PRIORITY = 40
_SECRET_TESTS = {"B105", "B106", "B107"}  # bandit's hard-coded password checks
_QUOTED = re.compile(r"'(?P<secret>[^']+)'")


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
        if m := re.match(r"^\s+Severity: (\w+)\s+Confidence: (\w+)", line):
            self.hit.hint["severity"] = m.group(1)
            self.hit.hint["confidence"] = m.group(2)
        elif m := re.match(r"^\s+CWE: (CWE-\d+)", line):
            self.hit.hint["cwe"] = m.group(1)
        elif m := re.match(r"^\s+More Info: (\S+)", line):
            self.hit.hint["more_info"] = m.group(1)
        elif m := re.match(r"^\s+Location: (.+?):(\d+):(\d+)\s*$", line):
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
    category=_TG,
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


# -- detect-secrets ---------------------------------------------------------------


@dataclass
class _DetectSecretsBlock:
    """`Secret Type:` / `Location:` pairs under the hook's ERROR banner."""

    banner: str
    max_lines: int = 400
    found: list[tuple[str, str, int | None, int]] = field(default_factory=list)
    kind: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if m := re.match(r"^Secret Type: (.+?)\s*$", line):
            self.kind = m.group(1)
            return True
        if self.kind and (m := re.match(r"^Location:\s+(.+?):(\d+)\s*$", line)):
            self.found.append((self.kind, m.group(1), int(m.group(2)), line_no))
            self.kind = None
            return True
        if line.startswith("Possible mitigations:"):
            self.max_lines = 0
            return True
        return not line.strip()

    def finish(self) -> Iterable[Hit]:
        for kind, file, line, line_no in self.found:
            yield Hit(
                signal=f"Secret Type: {kind}",
                message=f"detect-secrets: potential {kind} about to be committed",
                file=file,
                line=line,
                code=kind,
                log_line=line_no,
                hint={"secret_type": kind, "scanner": "detect-secrets"},
            )


@rule(
    id="security.detect_secrets",
    category=_TG,
    tool="detect-secrets",
    pattern=r"^ERROR: Potential secrets about to be committed to git repo!",
    triggers=("Potential secrets about to be committed",),
    url="https://github.com/Yelp/detect-secrets#detect-secrets-hook",
    priority=BLOCK_PRIORITY,
)
def detect_secrets_hook(m: re.Match[str], ctx: LineContext) -> _DetectSecretsBlock:
    """detect-secrets' pre-commit hook refusing a commit.

    What it detects: the `ERROR: Potential secrets about to be committed to
    git repo!` banner and each `Secret Type:` / `Location: file:line` pair
    below it (one record per pair). The hook never prints the secret itself.

    Example output (`detect-secrets-hook deploy/settings.toml`, detect-secrets 1.5.0):
        ERROR: Potential secrets about to be committed to git repo!

        Secret Type: AWS Access Key
        Location:    deploy/settings.toml:3

    Recipe: trust_gate (human review; a false positive is marked with an
    inline `pragma: allowlist secret` comment or added to the baseline).
    hint: secret_type.

    References: https://github.com/Yelp/detect-secrets#detect-secrets-hook
    """
    return _DetectSecretsBlock(banner=ctx.line.strip())


# -- gitleaks -------------------------------------------------------------------------


@dataclass
class _FieldsBlock:
    """`Key: value` lines of one finding, up to the blank line after it."""

    fields: dict[str, str]
    start: int
    max_lines: int = 40
    keys: tuple[str, ...] = ()

    def feed(self, line: str, line_no: int) -> bool:
        m = re.match(r"^(?P<key>[A-Z][A-Za-z_ ]*?):\s*(?P<value>.*)$", line)
        if m and (not self.keys or m.group("key") in self.keys):
            self.fields.setdefault(m.group("key"), m.group("value").strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return ()


_GITLEAKS_KEYS = (
    "Secret",
    "RuleID",
    "Entropy",
    "File",
    "Line",
    "Commit",
    "Author",
    "Email",
    "Date",
    "Fingerprint",
    "Link",
    "Tags",
    "Match",
)


@dataclass
class _GitleaksBlock(_FieldsBlock):
    keys: tuple[str, ...] = _GITLEAKS_KEYS

    def finish(self) -> Iterable[Hit]:
        f = self.fields
        rule_id = f.get("RuleID", "secret")
        hint: dict[str, object] = {"rule_id": rule_id, "scanner": "gitleaks"}
        for key in ("Commit", "Fingerprint", "Entropy"):
            if key in f:
                hint[key.lower()] = f[key]
        if f.get("Secret") and f["Secret"] != "REDACTED":  # noqa: S105 (gitleaks --redact)
            hint["_secret"] = f["Secret"]
        file = f.get("File")
        yield Hit(
            signal=f"Finding: {f.get('Finding', '')}".strip(),
            message=f"gitleaks {rule_id}: secret in {file or 'the scanned input'}",
            file=file,
            line=positive_int(f.get("Line")),
            code=rule_id,
            log_line=self.start,
            hint=hint,
        )


@rule(
    id="security.gitleaks",
    category=_TG,
    tool="gitleaks",
    pattern=r"^Finding:\s{2,}(?P<finding>.*)$",
    triggers=("Finding:  ",),
    url="https://github.com/gitleaks/gitleaks#usage",
    priority=BLOCK_PRIORITY,
)
def gitleaks_finding(m: re.Match[str], ctx: LineContext) -> _GitleaksBlock:
    """A gitleaks finding in its verbose (`-v`) report.

    What it detects: `Finding:` followed by `Secret:`, `RuleID:`,
    `Entropy:`, `File:`, `Line:` (and `Commit:`, `Author:`, `Fingerprint:`
    when scanning git history); one record per finding. The `Secret:` value
    is redacted in every record.

    Example output (`gitleaks dir -v deploy`, gitleaks 8.x; documented
    format, not captured: the Go module proxy cannot be reached here):
        Finding:     API_KEY = "Zm9v…"
        Secret:      Zm9v…
        RuleID:      generic-api-key
        File:        deploy/app.env
        Line:        2

    Recipe: trust_gate (human review; a reviewed finding goes into
    `.gitleaksignore` by its Fingerprint). hint: rule_id, commit,
    fingerprint, secret (masked).

    References: https://github.com/gitleaks/gitleaks#usage
    """
    return _GitleaksBlock(fields={"Finding": m.group("finding")}, start=ctx.line_no)


@rule(
    id="security.gitleaks_summary",
    category=_TG,
    tool="gitleaks",
    pattern=r"\b(?:WRN|warn)\w*\]?\s+(?P<n>\d+)? ?leaks found(?:: (?P<count>\d+))?",
    triggers=("leaks found",),
    url="https://github.com/gitleaks/gitleaks#exit-codes",
    priority=BLOCK_PRIORITY,
)
def gitleaks_summary(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """gitleaks' closing "leaks found: N" warning.

    What it detects: `WRN leaks found: 2` (and "N leaks found in partial
    scan"). Without `-v` it is all gitleaks prints, so it stands as the
    record; when the findings were printed it is a summary and is dropped.

    Example output (`gitleaks git`, gitleaks 8.x; documented format):
        10:25AM WRN leaks found: 1

    Recipe: trust_gate (re-run with `-v` or `--report-path` to see the
    findings). hint: count.

    References: https://github.com/gitleaks/gitleaks#exit-codes
    """
    count = m.group("count") or m.group("n")
    if count == "0":
        return None
    return Hit(
        signal=ctx.line.strip(),
        message=f"gitleaks: {count or 'some'} leaks found",
        code="leaks-found",
        confidence=0.8,
        hint={"count": int(count) if count else None, "scanner": "gitleaks"},
        key=(FALLBACK, "gitleaks"),
    )


# -- trufflehog --------------------------------------------------------------------------

_TRUFFLEHOG_KEYS = (
    "Detector Type",
    "Decoder Type",
    "Raw result",
    "Raw result with variables",
    "File",
    "Line",
    "Commit",
    "Email",
    "Repository",
    "Timestamp",
    "Link",
    "Rotation_guide",
    "Verification issue",
)


@dataclass
class _TrufflehogBlock(_FieldsBlock):
    keys: tuple[str, ...] = _TRUFFLEHOG_KEYS
    verified: str = "unverified"

    def feed(self, line: str, line_no: int) -> bool:
        # extra metadata lines such as "Account: 1234" or "Arn: ..."
        if super().feed(line, line_no):
            return True
        m = re.match(r"^(?P<key>[A-Z][\w ]{1,30}): (?P<value>\S.*)$", line)
        return bool(m) and not line.startswith("Found ")

    def finish(self) -> Iterable[Hit]:
        f = self.fields
        detector = f.get("Detector Type", "secret")
        hint: dict[str, object] = {
            "detector": detector,
            "verified": self.verified,
            "scanner": "trufflehog",
        }
        for key in ("Commit", "Repository", "Decoder Type"):
            if key in f:
                hint[key.lower().replace(" ", "_")] = f[key]
        if f.get("Raw result"):
            hint["_secret"] = f["Raw result"]
        file = f.get("File")
        yield Hit(
            signal=f"Found {self.verified} result: {detector} secret in {file or 'input'}",
            message=f"trufflehog {detector} ({self.verified}) secret in {file or 'the scanned input'}",
            file=file,
            line=positive_int(f.get("Line")),
            code=detector,
            log_line=self.start,
            confidence=1.0 if self.verified == "verified" else 0.8,
            hint=hint,
        )


@rule(
    id="security.trufflehog",
    category=_TG,
    tool="trufflehog",
    pattern=r"^Found (?P<verified>verified|unverified|unknown) result",
    triggers=("Found verified result", "Found unverified result", "Found unknown result"),
    url="https://github.com/trufflesecurity/trufflehog#example-output",
    priority=BLOCK_PRIORITY,
)
def trufflehog_result(m: re.Match[str], ctx: LineContext) -> _TrufflehogBlock:
    """A trufflehog v3 result in its default (text) output.

    What it detects: `Found verified result 🐷🔑` / `Found unverified result
    🐷🔑❓` and the `Detector Type:`, `Decoder Type:`, `Raw result:`, `File:`,
    `Line:` (`Commit:`, `Repository:` for git sources) lines after it. The
    raw result is redacted everywhere. A verified secret (live, checked
    against its service) has confidence 1.0, an unverified one 0.8.

    Example output (`trufflehog filesystem deploy`, trufflehog 3.x;
    documented format, not captured: the Go module proxy cannot be reached here):
        Found unverified result 🐷🔑❓
        Detector Type: URI
        Raw result: https://admin:…@db.internal.example
        File: deploy/db.env

    Recipe: trust_gate (rotate the secret, then remove it from the history).
    hint: detector, verified, commit, repository, secret (masked).

    References: https://github.com/trufflesecurity/trufflehog#example-output
    """
    return _TrufflehogBlock(fields={}, start=ctx.line_no, verified=m.group("verified"))


# -- semgrep -------------------------------------------------------------------------------

_SEMGREP_FILE = re.compile(r"^ {4}(?P<file>[^\s❯❱┆].*?\S)\s*$")
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
    category=_TG,
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

_ESLINT_FILE = re.compile(
    r"^(?P<file>(?:/|[A-Za-z]:[\\/]|\.{0,2}/?)?[^\s:][^:]*\.[A-Za-z0-9]+)\s*$"
)


@rule(
    id="security.eslint_plugin_security",
    category=_TG,
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
    for line in reversed(ctx.before(200)):
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


# -- npm audit -----------------------------------------------------------------------------

_NPM_PACKAGE = re.compile(r"^(?P<package>(?:@[\w.-]+/)?[\w.-]+)  (?P<range>\S.*)$")
_ADVISORY = re.compile(r"^(?P<title>.+?) - (?P<url>https://github\.com/advisories/\S+)\s*$")


@dataclass
class _NpmAuditBlock:
    hit: Hit
    max_lines: int = 400
    advisories: list[dict[str, str]] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return False
        if m := _ADVISORY.match(line):
            self.advisories.append({"title": m.group("title"), "url": m.group("url")})
        elif line.startswith("fix available via") or line.startswith("No fix available"):
            self.hit.hint["fix"] = line.strip()
        elif m := re.match(r"^Will install (\S+)", line):
            self.hit.hint["fix_install"] = m.group(1).rstrip(",")
        return True

    def finish(self) -> Iterable[Hit]:
        self.hit.hint["advisories"] = self.advisories
        if self.advisories:
            self.hit.message += ": " + "; ".join(a["title"] for a in self.advisories)
        yield self.hit


@rule(
    id="security.npm_audit",
    category=_TG,
    tool="npm",
    pattern=r"^Severity: (?P<severity>low|moderate|high|critical)\s*$",
    triggers=("Severity: ",),
    url="https://docs.npmjs.com/cli/commands/npm-audit",
    priority=BLOCK_PRIORITY,
)
def npm_audit_entry(m: re.Match[str], ctx: LineContext) -> _NpmAuditBlock | None:
    """A vulnerable package in `npm audit`'s report.

    What it detects: a `package  <range>` line followed by `Severity: high`,
    the advisory lines (`Title - https://github.com/advisories/GHSA-...`),
    `fix available via ...` and the node_modules paths; one record per
    package. The record is placed on the package's entry in package.json
    (or package-lock.json) when the file is in the working directory.

    Example output (`npm audit`, npm 10; documented format, not captured: the
    registry's audit endpoint answers 405 here):
        # npm audit report

        lodash  <=4.17.20
        Severity: high
        Command Injection in lodash - https://github.com/advisories/GHSA-35jh-r3h4-6jhm

    Recipe: trust_gate (human review of `npm audit fix`). hint: package,
    range, severity, advisories, fix, ecosystem.

    References: https://docs.npmjs.com/cli/commands/npm-audit
    """
    before = ctx.before(1)
    pm = _NPM_PACKAGE.match(before[-1]) if before else None
    if pm is None:
        return None
    package = pm.group("package")
    hit = Hit(
        signal=f"{package}  {pm.group('range')}  Severity: {m.group('severity')}",
        message=f"{package} {pm.group('range')} ({m.group('severity')})",
        code=f"npm-audit:{m.group('severity')}",
        log_line=ctx.line_no - 1,
        hint={
            "package": package,
            "range": pm.group("range"),
            "severity": m.group("severity"),
            "ecosystem": "npm",
            "scanner": "npm audit",
        },
    )
    return _NpmAuditBlock(hit)


@rule(
    id="security.npm_audit_summary",
    category=_TG,
    tool="npm",
    pattern=r"^(?:found )?(?P<count>\d*[1-9]\d*) (?:(?P<severity>low|moderate|high|critical) severity )?vulnerabilit(?:y|ies)\b",
    # Not " vulnerabilit": every clean `npm install` prints "found 0
    # vulnerabilities".  A count ending in 1-9, a count of two or more digits
    # ending in 0, or a severity: never the clean line.
    triggers=(
        *(f"{d} vulnerabilit" for d in "123456789"),
        *(f"{d}0 vulnerabilit" for d in "0123456789"),
        " severity vulnerabilit",
    ),
    url="https://docs.npmjs.com/cli/commands/npm-audit",
    priority=BLOCK_PRIORITY,
)
def npm_audit_summary(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """npm's vulnerability count (after `npm install`, `npm ci`, `npm audit`).

    What it detects: `3 high severity vulnerabilities`, `19 vulnerabilities
    (2 low, 6 moderate, 8 high, 3 critical)`. `found 0 vulnerabilities` is
    clean. It stands as the record only when no package entry was printed.

    Example output (`npm install`, npm 10; documented format):
        1 high severity vulnerability

    Recipe: trust_gate (run `npm audit` for the packages). hint: count,
    severity.

    References: https://docs.npmjs.com/cli/commands/npm-audit
    """
    count = int(m.group("count"))
    if count == 0:
        return None
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip(),
        code="npm-audit",
        confidence=0.7,
        hint={"count": count, "severity": m.group("severity"), "ecosystem": "npm"},
        key=(FALLBACK, "npm-audit"),
    )


# -- pip-audit ----------------------------------------------------------------------------


@dataclass
class _PipAuditBlock:
    summary: str
    start: int
    max_lines: int = 2000
    rows: dict[str, dict[str, object]] = field(default_factory=dict)
    last: str | None = None
    header: bool = False

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return bool(not self.header)
        if re.match(r"^(?:Name|Package)\s+Version\s+ID\b", line):
            self.header = True
            return True
        if re.match(r"^-+(?: -+)+\s*$", line):
            return True
        if not self.header:
            return False
        if line[0].isspace() and self.last:  # a wrapped row: more ids for the last package
            parts = line.split()
            ids = self.rows[self.last]["ids"]
            if parts and isinstance(ids, list):
                ids.append(parts[0])
            return True
        parts = line.split()
        if len(parts) < 3:
            return False
        name, version, vid = parts[0], parts[1], parts[2]
        fix = " ".join(parts[3:]).split(",")[0].strip() or None
        row = self.rows.setdefault(
            name,
            {"package": name, "version": version, "ids": [], "fix_versions": [], "line": line_no},
        )
        ids, fixes = row["ids"], row["fix_versions"]
        if isinstance(ids, list):
            ids.append(vid)
        if fix and isinstance(fixes, list):
            fixes.append(fix)
        self.last = name
        return True

    def finish(self) -> Iterable[Hit]:
        for name, row in self.rows.items():
            ids = row["ids"] if isinstance(row["ids"], list) else []
            line_no = row["line"] if isinstance(row["line"], int) else self.start
            yield Hit(
                signal=f"{name} {row['version']}: {', '.join(map(str, ids))}",
                message=f"{name} {row['version']} has known vulnerabilities: {', '.join(map(str, ids))}",
                code="pip-audit",
                log_line=line_no,
                hint={
                    "package": name,
                    "version": row["version"],
                    "ids": ids,
                    "fix_versions": row["fix_versions"],
                    "ecosystem": "pypi",
                    "scanner": "pip-audit",
                },
            )
        if not self.rows:
            yield Hit(
                signal=self.summary,
                message=self.summary,
                code="pip-audit",
                log_line=self.start,
                confidence=0.7,
                hint={"ecosystem": "pypi", "scanner": "pip-audit"},
            )


@rule(
    id="security.pip_audit",
    category=_TG,
    tool="pip-audit",
    pattern=r"^Found (?P<count>\d+) known vulnerabilit(?:y|ies)(?:, ignored \d+)? in (?P<packages>\d+) packages?",
    triggers=("known vulnerabilit",),
    url="https://github.com/pypa/pip-audit#examples",
    priority=BLOCK_PRIORITY,
)
def pip_audit_found(m: re.Match[str], ctx: LineContext) -> _PipAuditBlock:
    """pip-audit's vulnerability report (its default columns format).

    What it detects: `Found N known vulnerabilities in M packages` and the
    table that follows (`Name Version ID Fix Versions`); one record per
    package, every advisory id in the hint. The record is placed on the
    package's line in requirements.txt (or pyproject.toml) when the file is
    in the working directory. "No known vulnerabilities found" is clean.

    Example output (`pip-audit -r requirements.txt`, pip-audit 2.10.1;
    documented format, not captured: PyPI's per-version JSON API and OSV
    cannot be reached here):
        Found 2 known vulnerabilities in 1 package
        Name     Version ID            Fix Versions
        -------- ------- ------------- ------------
        requests 2.19.1  PYSEC-2018-28 2.20.0

    Recipe: trust_gate (human review of the upgrade to a fix version). hint:
    package, version, ids, fix_versions, ecosystem.

    References: https://github.com/pypa/pip-audit#examples
    """
    return _PipAuditBlock(summary=ctx.line.strip(), start=ctx.line_no)


# -- CONFIDENCE.md gate and generic secret reports ---------------------------------------------


@rule(
    id="security.confidence_gate",
    category=_TG,
    tool="confidence-gate",
    pattern=r"(?P<file>(?<!\S)\S{0,240}?CONFIDENCE\.md)\s+gate:?\s+FAIL(?:ED)?\b[:\s-]*(?P<message>.*)$",
    triggers=("CONFIDENCE.md gate",),
    priority=BLOCK_PRIORITY,
)
def confidence_gate(m: re.Match[str], ctx: LineContext) -> Hit:
    """A CONFIDENCE.md gate that failed (an agent workflow's trust gate).

    What it detects: `CONFIDENCE.md gate FAIL` (also `gate: FAIL`,
    `FAILED`) with the reason after it. The record points at CONFIDENCE.md
    when the file exists in the working directory.

    Example output (documented format, not captured: the failure taxonomy
    seed, shared/seeds/000 trust_gate signals):
        CONFIDENCE.md gate FAIL: confidence 0.62 below threshold 0.80 (after 2 attempts)

    Recipe: trust_gate (human review; never retried automatically). hint:
    reason, attempts.

    References: shared/seeds/000 (trust_gate: "CONFIDENCE.md gate FAIL" after 2 attempts)
    """
    file = m.group("file")
    reason = m.group("message").strip()
    hint: dict[str, object] = {"reason": reason}
    if a := re.search(r"after (\d+) attempts?", reason):
        hint["attempts"] = int(a.group(1))
    return Hit(
        signal=ctx.line.strip(),
        message=f"{file} gate failed" + (f": {reason}" if reason else ""),
        file=file if ctx.exists(file) else None,
        code="confidence-gate",
        hint=hint,
    )


@rule(
    id="security.secret_detected",
    category=_TG,
    tool="secret-scan",
    pattern=r"(?i)\b(?P<what>secrets? (?:were |was |have been |has been )?detected|api[ _-]?keys? (?:was |were )?found|leaked (?:secret|credential|api key)s?)\b(?P<rest>.*)$",
    triggers=(
        "secret detected",
        "Secret detected",
        "SECRET DETECTED",
        "secrets detected",
        "Secrets detected",
        "API key found",
        "api key found",
        "API Key found",
        "API keys found",
        "eaked secret",
        "eaked credential",
        "eaked API key",
    ),
    priority=BLOCK_PRIORITY,
)
def secret_detected(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A generic "secret detected" / "API key found" report.

    What it detects: the seed's trust_gate signals as CI jobs and pre-commit
    hooks print them ("Secret detected in config/app.env", "API key found
    in src/client.ts:12", "Leaked secrets ..."). A file:line after "in" is
    taken as the location. "0 secrets detected" / "no secrets detected" are
    clean.

    Example output (documented format, not captured: the failure taxonomy
    seed, shared/seeds/000 trust_gate signals):
        ERROR: API key found in src/client.ts:12

    Recipe: trust_gate (human review). hint: what.

    References: shared/seeds/000 (trust_gate: "secret detected", "API key found")
    """
    head = ctx.line[: m.start()].lower()
    if re.search(r"\b(?:no|0|zero|not)\s*$", head):
        return None
    file = line = None
    if loc := re.search(r"\bin\s+(?P<file>[\w./-]+\.\w+)(?::(?P<line>\d+))?", m.group("rest")):
        file = loc.group("file")
        line = positive_int(loc.group("line"))
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip(),
        file=file,
        line=line,
        code="secret-detected",
        confidence=0.8,
        hint={"what": m.group("what")},
    )
