"""Branch, ref and remote names that may go on a git command line.

Pure functions.  A name read from output (or from git's own config, which a
hostile clone may have written) is used only when it passes these checks:
git's check-ref-format rules, ASCII only, and never anything git could read
as an option (a leading `-`, `--upload-pack=...`).
"""

from __future__ import annotations

import re

from faultlens.classifier.lazyre import lazy_compile

_REMOTE = lazy_compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", re.ASCII)
_REF_CHARS = lazy_compile(r"[A-Za-z0-9._/+#@,=!%&-]+", re.ASCII)
MAX_REF = 255


def valid_ref(name: object) -> bool:
    """A branch or ref name git's check-ref-format accepts (one level allowed),
    restricted to printable ASCII, never starting with `-`."""
    if not isinstance(name, str) or not name or len(name) > MAX_REF:
        return False
    if name.startswith("-") or name == "@" or not _REF_CHARS.fullmatch(name):
        return False
    if ".." in name or "@{" in name or "//" in name:
        return False
    if name.startswith("/") or name.endswith(("/", ".")):
        return False
    return not any(p.startswith(".") or p.endswith(".lock") for p in name.split("/"))


def valid_remote(name: object) -> bool:
    """A remote's name (`origin`), or `.` (the upstream is a local branch)."""
    if name == ".":
        return True
    if not isinstance(name, str) or not _REMOTE.fullmatch(name):
        return False
    return ".." not in name and not name.endswith((".lock", "."))


def short_branch(ref: str) -> str:
    """`refs/heads/main` → `main` (other names unchanged)."""
    return ref[len("refs/heads/") :] if ref.startswith("refs/heads/") else ref
