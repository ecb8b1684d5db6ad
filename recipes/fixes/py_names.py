"""The name a Python NameError most likely meant, when Python did not say.

Python 3.12 and later print `Did you mean: 'skip_chars'?` under a NameError
in every traceback; 3.10 and 3.11 print it only for an uncaught exception at
the top level, so a test runner's report (unittest, pytest) of the same
error carries none.  This gives the compile recipe the suggestion Python
would have made: the nearest name in scope at the failing line — the
enclosing functions' parameters and assignments, the module's top-level
definitions and imports, the builtins — by Python's own measure (an edit
distance where a change of case costs 1 and any other edit 2, accepted up
to (len(wrong) + len(candidate) + 3) // 3).  A tie is no suggestion.
Pure: reads only the text it is given.
"""

from __future__ import annotations

import ast
import builtins

MAX_TEXT = 2 * 1024 * 1024  # larger sources are not parsed
MAX_CANDIDATES = 4000
_CASE_COST = 1
_EDIT_COST = 2


def _distance(a: str, b: str, limit: int) -> int:
    """The case-aware edit distance of `a` and `b`, or limit + 1 once it is
    sure to exceed `limit`."""
    if abs(len(a) - len(b)) * _EDIT_COST > limit:
        return limit + 1
    row = [i * _EDIT_COST for i in range(len(b) + 1)]
    for i, ca in enumerate(a, start=1):
        prev, row[0] = row[0], i * _EDIT_COST
        best = row[0]
        for j, cb in enumerate(b, start=1):
            if ca == cb:
                sub = 0
            elif ca.lower() == cb.lower():
                sub = _CASE_COST
            else:
                sub = _EDIT_COST
            prev, row[j] = row[j], min(prev + sub, row[j] + _EDIT_COST, row[j - 1] + _EDIT_COST)
            best = min(best, row[j])
        if best > limit:
            return limit + 1
    return row[-1]


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


def near_miss(text: str, line: int | None, wrong: str) -> str | None:
    """The one name in scope at `line` (1-based) nearest to `wrong`, or None."""
    if not wrong.isidentifier() or len(text) > MAX_TEXT:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    scope = _top_level(tree) | set(dir(builtins))
    if line:
        scope |= _enclosing(tree, line)
    scope.discard(wrong)
    best: list[str] = []
    best_distance = -1
    for name in sorted(scope)[:MAX_CANDIDATES]:
        limit = (len(wrong) + len(name) + 3) * _EDIT_COST // 6
        if best_distance >= 0:
            limit = min(limit, best_distance)
        d = _distance(wrong, name, limit)
        if d > limit:
            continue
        if d == best_distance:
            best.append(name)
        else:
            best, best_distance = [name], d
    return best[0] if len(best) == 1 else None
