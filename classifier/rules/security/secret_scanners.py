"""Security rules for secret scanners: detect-secrets, gitleaks, trufflehog,
and any tool's "secret detected" line.  The secret goes into
``hint["_secret"]`` for the engine's vault."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..base import FALLBACK, Hit, LineContext, positive_int
from ..registry import rule
from .common import BLOCK_PRIORITY, TRUST_GATE

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
    category=TRUST_GATE,
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
    category=TRUST_GATE,
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
    category=TRUST_GATE,
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
    category=TRUST_GATE,
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


@rule(
    id="security.secret_detected",
    category=TRUST_GATE,
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
