"""Security rules for dependency audits: npm audit, pip-audit."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...lazyre import lazy_compile
from ..base import FALLBACK, Hit, LineContext
from ..registry import rule
from .common import BLOCK_PRIORITY, TRUST_GATE

# -- npm audit -----------------------------------------------------------------------------

_NPM_PACKAGE = lazy_compile(r"^(?P<package>(?:@[\w.-]+/)?[\w.-]+)  (?P<range>\S.*)$")
_ADVISORY = lazy_compile(r"^(?P<title>.+?) - (?P<url>https://github\.com/advisories/\S+)\s*$")


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
    category=TRUST_GATE,
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
    category=TRUST_GATE,
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


# A row of pip-audit's table: package, version, advisory id (PYSEC-, GHSA-, CVE-...).
_VULN_ROW = lazy_compile(r"^\S+\s+\d\S*\s+[A-Z][A-Z0-9]*-[\w-]+(?:\s|$)")


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
        if len(parts) < 3 or not _VULN_ROW.match(line):
            return False  # the table ended: another program's output
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
    category=TRUST_GATE,
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
