"""SARIF 2.1.0 logs (ruff, semgrep, bandit, CodeQL, eslint's SARIF formatter).

What it detects: every result whose level is `error` (or has no level, which
SARIF defines as a warning unless the rule's default configuration says
error) — and every result of a security tool, whatever its level, since a
scanner finding is a trust_gate for a human to review.  Location: the first
physical location (artifact URI relative to the cwd or the run's
`originalUriBaseIds`, region start line and column).

Category: a run whose driver is a security scanner (semgrep, bandit, codeql,
gitleaks, trufflehog, detect-secrets, trivy, snyk, ...) or whose rule ids or
tags say "security", or whose rule is a security check of a linter
(ruff's and flake8's `S` rules: classifier/security_codes.py) gives
trust_gate records; any other driver (compilers,
linters such as ruff or eslint) gives compile records.

Example input (`ruff check --output-format sarif`, ruff 0.17.6):
    {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "runs": [{"tool":
     {"driver": {"name": "ruff", ...}}, "results": [{"level": "error", "ruleId": "F821", ...

References: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
"""

from __future__ import annotations

import json
import logging
import re
from typing import IO, Any
from urllib.parse import unquote, urlparse

from ..engine import Classifier
from ..lazyre import lazy_compile
from ..rules.base import Hit
from ..security_codes import is_security_code
from ..taxonomy import FailureType
from .parsing import Parser

RULE_ID = "sarif.result"
_HEAD = lazy_compile(
    rb'^\s*\{.{0,4000}?"(?:\$schema"\s*:\s*"[^"]*sarif|version"\s*:\s*"2\.1\.0")', re.S
)
SECURITY_TOOLS = frozenset(
    {
        "semgrep",
        "bandit",
        "codeql",
        "gitleaks",
        "trufflehog",
        "detect-secrets",
        "trivy",
        "snyk",
        "gosec",
        "brakeman",
        "checkov",
        "grype",
        "osv-scanner",
        "njsscan",
        "eslint-plugin-security",
    }
)
MAX_SARIF = 512 * 1024 * 1024
# What a SARIF field of an unexpected shape raises (a string where an object
# belongs, a bad URI): the result or run is skipped, never the whole input.
_MALFORMED = (AttributeError, TypeError, ValueError, KeyError)
log = logging.getLogger(__name__)


def sniff(head: bytes) -> Parser | None:
    if not _HEAD.match(head.lstrip(b"\xef\xbb\xbf")):
        return None
    return parse if b'"runs"' in head else None


def parse(head: bytes, stream: IO[bytes], classifier: Classifier) -> None:
    data = head + stream.read(MAX_SARIF)
    try:
        doc = json.loads(data.decode("utf-8", "replace"))
    except json.JSONDecodeError:
        classifier.feed(data)  # not SARIF after all: classify as text
        return
    runs = doc.get("runs") if isinstance(doc, dict) else None
    for run in runs if isinstance(runs, list) else []:
        if isinstance(run, dict):
            try:
                _run(run, classifier)
            except _MALFORMED as exc:  # a field of the wrong shape: skip the rest of the run
                log.warning("SARIF run unreadable past this point: %s", exc)


def _run(run: dict[str, Any], c: Classifier) -> None:
    driver = ((run.get("tool") or {}).get("driver")) or {}
    tool = str(driver.get("name") or "sarif")
    rules = {str(r.get("id")): r for r in driver.get("rules") or [] if isinstance(r, dict)}
    bases = {
        k: (v or {}).get("uri", "")
        for k, v in (run.get("originalUriBaseIds") or {}).items()
        if isinstance(v, dict)
    }
    security_tool = tool.lower() in SECURITY_TOOLS
    for result in run.get("results") or []:
        if not isinstance(result, dict):
            continue
        try:
            _result(result, rules, tool, bases, security_tool, c)
        except _MALFORMED as exc:  # one malformed result: skip it, keep the others
            log.warning("SARIF result skipped: %s", exc)


def _result(
    result: dict[str, Any],
    rules: dict[str, Any],
    tool: str,
    bases: dict[str, str],
    security_tool: bool,
    c: Classifier,
) -> None:
    rule_id = str(result.get("ruleId") or (result.get("rule") or {}).get("id") or "")
    rule = rules.get(rule_id, {})
    level = result.get("level") or (rule.get("defaultConfiguration") or {}).get("level")
    security = security_tool or _security_rule(rule) or is_security_code(rule_id, tool.lower())
    if not security and level != "error":
        return
    c.add_hit(
        _hit(result, rule_id, tool, bases, security),
        rule_id=RULE_ID,
        category_=FailureType.TRUST_GATE if security else FailureType.COMPILE,
        tool=tool,
    )


def _security_rule(rule: dict[str, Any]) -> bool:
    props = rule.get("properties") or {}
    tags = [str(t).lower() for t in props.get("tags") or []]
    return "security" in tags or "security-severity" in props


def _hit(
    result: dict[str, Any], rule_id: str, tool: str, bases: dict[str, str], security: bool
) -> Hit:
    message = str((result.get("message") or {}).get("text") or rule_id or "SARIF result")
    file = line = column = end_line = end_column = None
    locs = result.get("locations") or []
    phys = (locs[0] or {}).get("physicalLocation") if locs and isinstance(locs[0], dict) else None
    if isinstance(phys, dict):
        art = phys.get("artifactLocation") or {}
        uri = str(art.get("uri") or "")
        base = bases.get(str(art.get("uriBaseId") or ""), "")
        file = _path(base + uri if base and not _absolute(uri) else uri) or None
        region = phys.get("region") or {}
        line = _pos(region.get("startLine"))
        column = _pos(region.get("startColumn"))
        end_line = _pos(region.get("endLine"))
        end_column = _pos(region.get("endColumn"))
    first = message.strip().splitlines()[0] if message.strip() else rule_id
    signal = f"{tool} {rule_id}: {first}" if rule_id else f"{tool}: {first}"
    hint: dict[str, Any] = {"rule_id": rule_id} if rule_id else {}
    if security:
        hint["finding"] = rule_id
    fixes = result.get("fixes")
    if fixes:
        hint["fixes"] = fixes[:3]
    return Hit(
        signal=signal[:500],
        message=first,
        file=file,
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        code=rule_id or None,
        hint=hint,
    )


def _absolute(uri: str) -> bool:
    return uri.startswith(("/", "file:")) or "://" in uri


def _path(uri: str) -> str:
    if uri.startswith("file:"):
        return unquote(urlparse(uri).path)
    return unquote(uri)


def _pos(value: object) -> int | None:
    return value if isinstance(value, int) and value > 0 else None
