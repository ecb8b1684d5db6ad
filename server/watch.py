"""Watched log files: which paths match the settings' globs, and a polling
fallback for clients that cannot watch files for us (Neovim on Linux).

Globs are relative to the workspace root, `/`-separated: `*` and `?` stay
inside one path segment, `**` spans any number of segments.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path, PurePosixPath

Snapshot = dict[Path, tuple[int, int]]  # path -> (mtime_ns, size)

_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "target"})


@lru_cache(maxsize=256)
def _compile(glob: str) -> re.Pattern[str]:
    out = []
    i = 0
    g = glob.lstrip("/")
    while i < len(g):
        if g.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif g.startswith("**", i):
            out.append(".*")
            i += 2
        elif g[i] == "*":
            out.append("[^/]*")
            i += 1
        elif g[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(g[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def matches(rel: str, globs: Sequence[str]) -> bool:
    """Whether a root-relative posix path matches one of the globs."""
    return any(_compile(g).match(rel) for g in globs)


def relative(path: Path, root: Path) -> str | None:
    """`path` relative to `root` (posix), or None when outside."""
    try:
        return PurePosixPath(path.resolve().relative_to(root.resolve())).as_posix()
    except ValueError:
        return None


def scan(root: Path, globs: Sequence[str], limit: int = 5000) -> Snapshot:
    """Every file under `root` matching the globs, with its mtime and size."""
    found: Snapshot = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS]
        for name in filenames:
            full = Path(dirpath, name)
            rel = relative(full, root)
            if rel is None or not matches(rel, globs):
                continue
            try:
                st = full.stat()
            except OSError:
                continue
            found[full] = (st.st_mtime_ns, st.st_size)
            if len(found) >= limit:
                return found
    return found


def diff(before: Snapshot, after: Snapshot) -> tuple[list[Path], list[Path]]:
    """(changed or created, deleted) between two snapshots."""
    changed = [p for p, sig in after.items() if before.get(p) != sig]
    deleted = [p for p in before if p not in after]
    return changed, deleted


def watcher_patterns(globs: Iterable[str]) -> list[str]:
    """Absolute-style glob patterns for clients without relative-pattern support."""
    return [g if g.startswith("**/") else f"**/{g.lstrip('/')}" for g in globs]
