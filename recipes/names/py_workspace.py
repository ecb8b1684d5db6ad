"""How the workspace itself imports names: every absolute `import m [as a]`
and `from m import n [as a]` in its Python files, by the name it binds.  A
name the project always imports the same way is imported that way again.
Bounded: at most MAX_FILES files read, larger ones skipped."""

from __future__ import annotations

import ast
from pathlib import Path

from ..fixes.scan import read_small, walk_sources

MAX_FILES = 3000


def import_conventions(root: Path, exclude: Path | None = None) -> dict[str, set[str]]:
    """Bound name -> the import statements (normalised text) that bind it."""
    out: dict[str, set[str]] = {}
    skip = exclude.resolve() if exclude is not None else None
    for n, path in enumerate(walk_sources(root, (".py",))):
        if n >= MAX_FILES:
            break
        if skip is not None and path.resolve() == skip:
            continue
        text = read_small(path)
        if not text or "import" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        out.setdefault(a.asname, set()).add(f"import {a.name} as {a.asname}")
                    elif "." not in a.name:
                        out.setdefault(a.name, set()).add(f"import {a.name}")
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for a in node.names:
                    if a.name == "*":
                        continue
                    bound = a.asname or a.name
                    alias = f" as {a.asname}" if a.asname and a.asname != a.name else ""
                    out.setdefault(bound, set()).add(f"from {node.module} import {a.name}{alias}")
    return out
