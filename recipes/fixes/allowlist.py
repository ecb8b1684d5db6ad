"""Allow-list entries in each scanner's own syntax (used by recipes/trust.py's
`mark_reviewed`, which only a human triggers).

* ESLint: `// eslint-disable-next-line <rule> -- reviewed` on its own line
  above the flagged one, at its indentation;
* semgrep: `# nosemgrep: <rule-id>` at the end of the flagged line;
* the comment leader of the file's language for the end-of-line markers.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from faultlens.classifier.files import read_text
from faultlens.classifier.lazyre import lazy_compile

from ..model import TextEdit, UnsafeEdit, Workspace
from ..safety import inside_workspace

_ESLINT_RULE = lazy_compile(r"(?:@[a-z0-9-]+/)?[a-z0-9-]+(?:/[a-z0-9-]+)?", re.ASCII)
_SEMGREP_RULE = lazy_compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}", re.ASCII)
HASH_COMMENT = frozenset(
    {
        ".py",
        ".pyi",
        ".sh",
        ".bash",
        ".rb",
        ".yaml",
        ".yml",
        ".toml",
        ".env",
        ".ini",
        ".cfg",
        ".conf",
        ".tf",
        ".r",
        ".pl",
        ".ps1",
    }
)
HASH_NAMES = frozenset({"Dockerfile", "Makefile", ".env", "Gemfile", "Procfile"})


def comment_prefix(path: str) -> str:
    """`#` or `//`: the line-comment leader of the file's language."""
    p = PurePosixPath(path)
    if p.name in HASH_NAMES or p.name.startswith(".env") or p.suffix.lower() in HASH_COMMENT:
        return "#"
    return "//"


def nosemgrep(prefix: str, rule_id: str | None) -> str:
    """`# nosemgrep: rule-id` (or a bare `# nosemgrep` when the id is unusable)."""
    rid = (rule_id or "").strip()
    if rid and _SEMGREP_RULE.fullmatch(rid):
        return f"{prefix} nosemgrep: {rid}"
    return f"{prefix} nosemgrep"


def eslint_disable_next_line(ws: Workspace, rel: str, line0: int, rule: str | None) -> TextEdit:
    """A `// eslint-disable-next-line RULE -- reviewed` line above line `line0`."""
    rid = (rule or "").strip()
    if not _ESLINT_RULE.fullmatch(rid):
        raise UnsafeEdit(f"refusing ESLint rule name {rid!r}")
    text = read_text(inside_workspace(ws, rel))
    lines = text.splitlines()
    if line0 < 0 or line0 >= len(lines):
        raise UnsafeEdit(f"{rel} has no line {line0 + 1}")
    if line0 > 0 and "eslint-disable-next-line" in lines[line0 - 1] and rid in lines[line0 - 1]:
        raise UnsafeEdit("the line is already marked reviewed")
    current = lines[line0]
    indent = current[: len(current) - len(current.lstrip(" \t"))]
    newline = "\r\n" if "\r\n" in text else "\n"
    comment = f"{indent}// eslint-disable-next-line {rid} -- reviewed by a human{newline}"
    return TextEdit(rel, line0, 0, line0, 0, comment)
