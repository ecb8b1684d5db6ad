"""The name a Python NameError most likely meant, when Python did not say.

Python 3.12 and later print `Did you mean: 'skip_chars'?` under a NameError
in every traceback; 3.10 and 3.11 print it only for an uncaught exception at
the top level, so a test runner's report (unittest, pytest) of the same
error carries none.  This gives the compile recipe the suggestion Python
would have made: the nearest name in scope at the failing line — the
enclosing functions' parameters and assignments, the module's top-level
definitions and imports, the builtins — by Python's own measure (an edit
distance where a change of case costs 1 and any other edit 2, accepted up
to (len(wrong) + len(candidate) + 3) // 3, a transposition one edit:
recipes/names/nearest.py).  A tie is no suggestion.
Pure: reads only the text it is given.
"""

from __future__ import annotations

import ast
import builtins

from ..names.nearest import nearest

MAX_TEXT = 2 * 1024 * 1024  # larger sources are not parsed


def _bound(target: ast.expr, out: set[str]) -> None:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            out.add(node.id)


def _top_level(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                _bound(t, names)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            _bound(node.target, names)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    names.add(alias.asname or alias.name.split(".")[0])
    return names


def _enclosing(tree: ast.Module, line: int) -> set[str]:
    """Parameters and names bound in the functions around `line`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        end = getattr(node, "end_lineno", None) or node.lineno
        if not node.lineno <= line <= end:
            continue
        a = node.args
        for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
            if arg is not None:
                names.add(arg.arg)
        for inner in ast.walk(node):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                names.add(inner.id)
    return names


def scope_at(text: str, line: int | None) -> set[str] | None:
    """The names in scope at `line` (1-based), or None when the text does not parse."""
    if len(text) > MAX_TEXT:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    scope = _top_level(tree) | set(dir(builtins))
    if line:
        scope |= _enclosing(tree, line)
    return scope


def near_miss(text: str, line: int | None, wrong: str) -> str | None:
    """The one name in scope at `line` (1-based) nearest to `wrong`, or None."""
    if not wrong.isidentifier():
        return None
    scope = scope_at(text, line)
    if scope is None:
        return None
    scope.discard(wrong)
    return nearest(wrong, scope)
