"""Marking a trust-gate finding reviewed, in the scanning tool's own syntax.

Never automatic: only a human calls this (a code action, or the CLI).

* gitleaks: the finding's fingerprint (`file:rule:line` or the fingerprint
  gitleaks printed) appended to `.gitleaksignore`;
* bandit / semgrep: `# nosec` (bandit, with the test id) or
  `# nosemgrep: <rule-id>` at the end of the flagged line;
* ESLint: `// eslint-disable-next-line <rule> -- reviewed by a human` above it
  (recipes/fixes/allowlist.py);
* detect-secrets: `# pragma: allowlist secret` at the end of the flagged line.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from faultlens.classifier.files import read_text
from faultlens.classifier.lazyre import lazy_compile

from .fixes import allowlist
from .model import CommandStep, TextEdit, UnsafeEdit, Workspace
from .safety import inside_workspace, to_workspace_relative

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

_FINGERPRINT = lazy_compile(r"[A-Za-z0-9_./:@-]{1,400}", re.ASCII)
_BANDIT_ID = lazy_compile(r"B\d{3}", re.ASCII)


def _source_rel(record: FailureRecord, ws: Workspace) -> str:
    if not record.source_file or not record.source_line:
        raise UnsafeEdit("the finding names no file and line")
    cwd = str(record.hint.get("cwd") or ".")
    base = ws.root if cwd == "." else inside_workspace(ws, cwd)
    return to_workspace_relative(ws, base / record.source_file)


def _end_of_line(ws: Workspace, rel: str, line0: int, suffix: str) -> TextEdit:
    text = read_text(inside_workspace(ws, rel))
    lines = text.splitlines()
    if line0 >= len(lines):
        raise UnsafeEdit(f"{rel} has no line {line0 + 1}")
    current = lines[line0]
    if suffix.strip() in current:
        raise UnsafeEdit("the line is already marked reviewed")
    col = len(current)
    return TextEdit(rel, line0, col, line0, col, f"  {suffix}")


def mark_reviewed(record: FailureRecord, ws: Workspace) -> TextEdit | CommandStep:
    """The allow-list entry that records a human's review of the finding."""
    if record.failure_type.value != "trust_gate":
        raise UnsafeEdit("only trust_gate findings are marked reviewed")
    from .planners.trust_gate import is_policy_refusal

    if is_policy_refusal(record):
        raise UnsafeEdit("a push the remote refused is not a finding to allow-list")
    tool = (record.tool or "").lower()
    if tool == "gitleaks":
        fp = str(record.hint.get("fingerprint") or "")
        if not fp:
            rule = str(record.hint.get("rule_id") or record.code or "")
            rel = _source_rel(record, ws)
            fp = f"{rel}:{rule}:{record.source_line}"
        if not _FINGERPRINT.fullmatch(fp):
            raise UnsafeEdit(f"refusing gitleaks fingerprint {fp!r}")
        ignore = inside_workspace(ws, ".gitleaksignore")
        text = read_text(ignore) if ignore.exists() else ""
        if fp in text.splitlines():
            raise UnsafeEdit("the finding is already in .gitleaksignore")
        lines = text.splitlines()
        if text and not text.endswith("\n"):
            # Append after the last line, which has no newline yet.
            last = len(lines) - 1
            return TextEdit(
                ".gitleaksignore", last, len(lines[last]), last, len(lines[last]), f"\n{fp}\n"
            )
        return TextEdit(".gitleaksignore", len(lines), 0, len(lines), 0, f"{fp}\n")
    rel = _source_rel(record, ws)
    line0 = int(record.source_line or 1) - 1
    prefix = allowlist.comment_prefix(rel)
    if tool == "eslint":
        return allowlist.eslint_disable_next_line(ws, rel, line0, record.code)
    if tool == "bandit":
        code = str(record.code or "")
        suffix = f"{prefix} nosec {code}" if _BANDIT_ID.fullmatch(code) else f"{prefix} nosec"
        return _end_of_line(ws, rel, line0, suffix)
    if tool == "semgrep":
        return _end_of_line(ws, rel, line0, allowlist.nosemgrep(prefix, record.code))
    return _end_of_line(ws, rel, line0, f"{prefix} pragma: allowlist secret")
