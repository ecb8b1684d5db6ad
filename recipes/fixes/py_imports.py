"""Python: import a name defined at the top level of another workspace module,
absolute (`from app.money import Money`) or relative (`from .money import Money`)
as the importing file does."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ..model import TextEdit
from .scan import read_small, walk_sources


def _def_pattern(name: str) -> re.Pattern[str]:
    n = re.escape(name)
    return re.compile(
        rf"^(?:(?:async\s+)?def\s+{n}\s*\(|class\s+{n}\b|{n}\s*(?::[^=\n]*)?=(?!=))",
        re.MULTILINE,
    )


def find_definitions(root: Path, name: str, exclude: Path | None = None) -> list[Path]:
    """Workspace modules defining `name` at their top level."""
    pattern = _def_pattern(name)
    out = []
    for path in walk_sources(root, (".py",)):
        if exclude is not None and path.resolve() == exclude.resolve():
            continue
        text = read_small(path)
        if text and name in text and pattern.search(text):
            out.append(path)
    return out


def stdlib_module(name: str) -> bool:
    """Whether `name` is a top-level module of Python's standard library."""
    import sys

    return name in sys.stdlib_module_names and not name.startswith("_")


def sibling_module(source: Path, name: str) -> Path | None:
    """A module or package `name` beside `source` in its package (`keys.py`,
    `keys/__init__.py`), the form `from . import keys` imports."""
    folder = source.parent
    if not (folder / "__init__.py").is_file():
        return None
    for cand in (folder / f"{name}.py", folder / name / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def module_name(path: Path, root: Path) -> tuple[str, Path]:
    """(dotted module name, the folder it is importable from): packages are
    climbed while `__init__.py` exists, never above the workspace root."""
    parts = [path.stem] if path.stem != "__init__" else []
    folder = path.parent
    while (folder / "__init__.py").exists() and folder != root and root in folder.parents:
        parts.insert(0, folder.name)
        folder = folder.parent
    if (folder / "__init__.py").exists() and folder == root:
        pass
    return ".".join(parts), folder


def uses_relative_imports(text: str) -> bool:
    return re.search(r"^from\s+\.", text, re.MULTILINE) is not None


def relative_module(source: Path, target: Path, root: Path) -> str | None:
    """`.money` / `..core.money` from source's package to target, when both are in
    the same top-level package; else None."""
    smod, sbase = module_name(source, root)
    tmod, tbase = module_name(target, root)
    if sbase != tbase or not smod or not tmod:
        return None
    spkg = smod.split(".")[:-1] if source.stem != "__init__" else smod.split(".")
    tparts = tmod.split(".")
    if not spkg or spkg[0] != tparts[0]:
        return None
    common = 0
    while common < len(spkg) and common < len(tparts) - 1 and spkg[common] == tparts[common]:
        common += 1
    dots = "." * (len(spkg) - common + 1)
    return dots + ".".join(tparts[common:])


def import_line_for(source: Path, target: Path, root: Path, name: str, source_text: str) -> str:
    """`from X import name` in the source file's style."""
    if uses_relative_imports(source_text):
        rel = relative_module(source, target, root)
        if rel:
            return f"from {rel} import {name}"
    mod, _ = module_name(target, root)
    return f"from {mod} import {name}"


def _insert_line(text: str) -> tuple[int, bool]:
    """(0-based line after the leading import block, whether there were imports)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = None
    if tree is not None:
        last_end = None
        after_doc = 0
        for i, node in enumerate(tree.body):
            if (
                i == 0
                and isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                after_doc = node.end_lineno or 0
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                last_end = node.end_lineno
                continue
            break
        if last_end is not None:
            return last_end, True
        return after_doc, False
    lines = text.splitlines()
    last = None
    for i, line in enumerate(lines):
        if line.startswith(("import ", "from ")):
            last = i + 1
        elif line.strip() and not line.startswith("#") and last is not None:
            break
    return (last, True) if last is not None else (0, False)


def imports_name(text: str, name: str) -> bool:
    """Whether the module already binds `name` by an import (any form, any place)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        n = re.escape(name)
        return re.search(rf"^\s*(?:from\s+\S+\s+)?import\b[^\n]*\b{n}\b", text, re.M) is not None
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if bound == name:
                    return True
    return False


def import_edit(rel_path: str, text: str, line: str) -> TextEdit | None:
    """Insert the import after the file's leading imports (merging into an existing
    one-line `from X import a` of the same module); None when the file already
    imports the name (an edit is never made twice)."""
    m0 = re.match(r"^(?:from \S+ )?import (\w+)$", line)
    if m0 and imports_name(text, m0.group(1)):
        return None
    lines = text.splitlines()
    m = re.match(r"^from (\S+) import (\w+)$", line)
    if m:
        mod, name = m.groups()
        for i, existing in enumerate(lines):
            em = re.match(rf"^from {re.escape(mod)} import ([\w, ]+?)\s*$", existing)
            if em and "(" not in existing:
                names = [x.strip() for x in em.group(1).split(",")]
                if name in names:
                    return None
                col = len(existing.rstrip())
                return TextEdit(rel_path, i, col, i, col, f", {name}")
    at, had_imports = _insert_line(text)
    new = line + "\n"
    if not had_imports:
        if at > 0:
            new = "\n" + new
        if at < len(lines) and lines[at].strip():
            new += "\n"
    return TextEdit(rel_path, at, 0, at, 0, new)
