"""Python: every undefined name of the failing file fixed in one attempt.

When a NameError (or a test runner's report of one) names one name, the
file's other undefined names are found as pyflakes finds them, each is
resolved (recipes/names/py_resolve.py: the workspace's own imports and
definitions, then the failing interpreter's index), and the imports are
added in one edit each place, grouped and ordered as an editor adds them;
a name none provides that is one or two edits from exactly one name in
scope there is respelt (recipes/names/nearest.py).  The plan is made only
when the name the failure names is among those fixed."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..model import TextEdit
from ..names import py_index, py_place, py_resolve, py_undefined, py_workspace
from ..names.nearest import nearest
from . import py_names

MAX_SHEBANG = 256


@dataclass(slots=True)
class Batch:
    """What one attempt does to the file: the edits, and what they are."""

    edits: list[TextEdit] = field(default_factory=list)
    imports: list[py_resolve.Chosen] = field(default_factory=list)
    respelt: dict[str, str] = field(default_factory=dict)
    candidates: dict[str, list[str]] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)

    def fixes(self, name: str) -> bool:
        return name in self.respelt or any(c.name == name for c in self.imports)


def interpreter(
    command: list[str] | None, root: Path, fallback: str, path_env: str | None
) -> str | None:
    """The Python the failing command runs: its first word when that is a
    Python, else the interpreter its script's `#!` line names (`pytest`,
    `.venv/bin/pytest`), else `fallback` (the project's venv or python3)."""
    first = command[0] if command else ""
    if first:
        exe = py_index.resolve_interpreter(
            str(root / first) if os.sep in first and not os.path.isabs(first) else first, path_env
        )
        if exe and os.path.basename(exe).startswith("python"):
            return exe
        if exe:
            shebang = _shebang(exe)
            if shebang:
                return shebang
    return py_index.resolve_interpreter(fallback, path_env)


def _shebang(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            head = fh.read(MAX_SHEBANG)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if not words or not os.path.isabs(words[0]):
        return None
    exe = words[0]
    if os.path.basename(exe) == "env" and len(words) > 1:
        return py_index.resolve_interpreter(words[1])
    return exe if os.path.basename(exe).startswith("python") and os.access(exe, os.X_OK) else None


def plan_batch(
    root: Path,
    source: Path,
    rel: str,
    text: str,
    name: str,
    python: str | None,
    told: str | None = None,
) -> Batch | None:
    """The batch fixing `name` and the file's other undefined names; None when
    pyflakes does not see `name` as undefined (the old single-name path
    decides).  `told` is the tool's own suggestion for `name` (it wins)."""
    uses = py_undefined.undefined_names(text, rel)
    if uses is None or not any(u.name == name for u in uses):
        return None
    index = py_index.index_for(python)
    batch = Batch()
    wanted = [u for u in uses if not (u.name == name and told)]
    res = py_resolve.resolve(
        root, source, text, wanted, index, py_workspace.import_conventions(root, exclude=source)
    )
    batch.imports = res.chosen
    batch.candidates = res.candidates
    unresolved = set(res.unknown) | ({name} if told else set())
    lines = text.splitlines()
    for use in uses:
        if use.name not in unresolved:
            continue
        better = told if (use.name == name and told) else _in_scope(text, use)
        if better is None:
            batch.unknown.append(use.name)
            continue
        places = [_at(lines, line, col, use.name) for line, col in use.places]
        if any(p is None for p in places):
            batch.unknown.append(use.name)
            continue
        batch.respelt[use.name] = better
        for line, col in (p for p in places if p is not None):
            batch.edits.append(TextEdit(rel, line, col, line, col + len(use.name), better))
    if batch.imports:
        batch.edits.extend(
            py_place.import_edits(
                rel, text, batch.imports, lambda m: py_resolve.group_of(index, root, m)
            )
        )
    return batch


def _at(lines: list[str], line: int, col: int, name: str) -> tuple[int, int] | None:
    """(0-based line, code-point column) of `name` at ast's 1-based line and
    UTF-8 byte column; None when the text there is not `name`."""
    if not 0 < line <= len(lines):
        return None
    raw = lines[line - 1].encode("utf-8")
    try:
        start = len(raw[:col].decode("utf-8"))
    except UnicodeDecodeError:
        return None
    if lines[line - 1][start : start + len(name)] != name:
        return None
    return line - 1, start


def _in_scope(text: str, use: py_undefined.Undefined) -> str | None:
    scope = py_names.scope_at(text, use.line)
    if scope is None:
        return None
    scope.discard(use.name)
    return nearest(use.name, scope)


def title(batch: Batch, name: str) -> str:
    if not batch.imports and len(batch.respelt) == 1:
        return f"Change '{name}' to '{batch.respelt[name]}'"
    if len(batch.imports) == 1 and not batch.respelt:
        (c,) = batch.imports
        if c.imported is None and c.group == "stdlib":
            return f"Import {c.name} from the standard library"
        if c.origin == "a sibling module":
            return f"Import {c.name} ({c.statement})"
        return f"Import {c.name} from {c.module}"
    modules = {c.module for c in batch.imports if c.imported is not None}
    if len(modules) == 1 and len(batch.imports) == len(batch.imports) and not batch.respelt:
        names = ", ".join(sorted((c.name for c in batch.imports), key=py_place.name_key))
        if all(c.imported is not None for c in batch.imports):
            return f"Import {names} from {modules.pop()}"
    parts = [c.name for c in batch.imports] + [f"{a}->{b}" for a, b in batch.respelt.items()]
    return f"Fix {len(parts)} undefined names ({', '.join(parts)})"


def summary(batch: Batch) -> str:
    parts = [f"add `{c.statement}` ({c.origin})" for c in batch.imports]
    parts += [
        f"respell '{a}' as '{b}' (the nearest name in scope)" for a, b in batch.respelt.items()
    ]
    left = sorted(set(batch.unknown) | set(batch.candidates))
    if left:
        parts.append("left undefined: " + ", ".join(left))
    return "; ".join(parts)
