"""Where an editor puts the imports it adds: each in its group (standard
library, third party, the project's own) after the file's imports of that
group, in isort's order (`import m` before `from m import`, modules
alphabetically, names constants first, then classes, then the rest); the
names of one module in one statement, or joined to the file's own one-line
`from m import ...` of that module.  Pure."""

from __future__ import annotations

import ast
from collections.abc import Callable

from ..fixes import py_imports
from ..model import TextEdit
from .py_resolve import Chosen

GROUPS = ("future", "stdlib", "thirdparty", "firstparty")


def name_key(name: str) -> tuple[int, str]:
    """isort's order by type: CONSTANTS, Classes, functions."""
    if name.isupper() and len(name) > 1:
        return 0, name
    if name[:1].isupper():
        return 1, name
    return 2, name


def statement_key(statement: str) -> tuple[int, str]:
    words = statement.split()
    return (0 if words[0] == "import" else 1), words[1].lower()


def _statements(chosen: list[Chosen]) -> list[tuple[str, str]]:
    """(group, statement) per module, the names of one `from` joined."""
    froms: dict[tuple[str, str], list[str]] = {}
    plain: list[tuple[str, str]] = []
    for c in chosen:
        words = c.statement.split()
        if words[0] == "from" and len(words) == 4:  # from m import n, no alias
            froms.setdefault((c.group, c.module), []).append(words[3])
        else:
            plain.append((c.group, c.statement))
    for (group, module), names in froms.items():
        joined = ", ".join(sorted(set(names), key=name_key))
        plain.append((group, f"from {module} import {joined}"))
    return sorted(set(plain), key=lambda gs: (GROUPS.index(gs[0]), statement_key(gs[1])))


def _leading_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    out: list[ast.Import | ast.ImportFrom] = []
    for i, node in enumerate(tree.body):
        if i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
            continue
        break
    return out


def _node_group(node: ast.Import | ast.ImportFrom, group_of: Callable[[str], str]) -> str:
    if isinstance(node, ast.ImportFrom):
        if node.module == "__future__":
            return "future"
        if node.level:
            return "firstparty"
        return group_of(node.module or "")
    return group_of(node.names[0].name)


def _join_existing(rel: str, text: str, statement: str) -> TextEdit | None:
    """`from m import a` joined to the file's one-line `from m import ...`."""
    words = statement.split(maxsplit=3)
    if words[0] != "from" or " as " in statement:
        return None
    module, names = words[1], [n.strip() for n in words[3].split(",")]
    for i, line in enumerate(text.splitlines()):
        if not line.startswith(f"from {module} import ") or "(" in line or "\\" in line:
            continue
        if "#" in line or ";" in line:
            continue
        have = [n.strip() for n in line.split(" import ", 1)[1].split(",")]
        new = [n for n in names if n not in have]
        if not new:
            return None
        col = len(line.rstrip())
        return TextEdit(rel, i, col, i, col, "".join(f", {n}" for n in new))
    return None


def import_edits(
    rel: str, text: str, chosen: list[Chosen], group_of: Callable[[str], str]
) -> list[TextEdit]:
    """The edits adding `chosen`'s imports to `text` (the file `rel`)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    leading = _leading_imports(tree) if tree is not None else []
    inserts: dict[int, list[str]] = {}
    edits: list[TextEdit] = []
    for group, statement in _statements(chosen):
        joined = _join_existing(rel, text, statement)
        if joined is not None:
            edits.append(joined)
            continue
        if not leading:
            plain = py_imports.import_edit(rel, text, statement)
            if plain is not None:
                edits.append(plain)
            continue
        rank = GROUPS.index(group)
        same = [n for n in leading if _node_group(n, group_of) == group]
        if same:
            at = same[-1].end_lineno or same[-1].lineno
            for n in same:
                if statement_key(ast.unparse(n)) > statement_key(statement):
                    at = n.lineno - 1
                    break
            inserts.setdefault(at, []).append(statement + "\n")
            continue
        later = [n for n in leading if GROUPS.index(_node_group(n, group_of)) > rank]
        if later:
            inserts.setdefault(later[0].lineno - 1, []).append(statement + "\n\n")
        else:
            last = leading[-1]
            inserts.setdefault(last.end_lineno or last.lineno, []).append("\n" + statement + "\n")
    for at, texts in sorted(inserts.items()):
        edits.append(TextEdit(rel, at, 0, at, 0, _merge(texts)))
    return edits


def _merge(texts: list[str]) -> str:
    """Statements inserted at one place: one blank line between groups at most."""
    body = [t.strip("\n") for t in texts]
    lead = "\n" if texts[0].startswith("\n") else ""
    tail = "\n\n" if texts[-1].endswith("\n\n") else "\n"
    return lead + "\n".join(body) + tail
