"""A misspelt pytest hook (pluggy's "unknown hook ... in plugin"): the one known
hook close to it, when its arguments fit.

The known hooks come from the project's own pytest (`known_hooks`: its Python
runs a fixed script that lists `_pytest.hookspec`); the choice and the edit
are pure (`close_hook`, `rename_edit`).
"""

from __future__ import annotations

import ast
import difflib
import json
import re
import subprocess

from faultlens.classifier.lazyre import lazy_compile

from ..model import TextEdit

_SCRIPT = (
    "import inspect, json, _pytest.hookspec as h\n"
    "print(json.dumps({n: list(inspect.signature(getattr(h, n)).parameters)"
    " for n in dir(h) if n.startswith('pytest_')}))\n"
)
_HOOK = lazy_compile(r"pytest_[A-Za-z0-9_]{1,100}", re.ASCII)
CUTOFF = 0.8


def known_hooks(python: str, timeout: float = 60.0) -> dict[str, list[str]]:
    """Hook name → argument names, from the project's pytest ({} when unavailable)."""
    try:
        res = subprocess.run(
            [python, "-c", _SCRIPT], capture_output=True, timeout=timeout, check=False
        )
        data = json.loads(res.stdout.decode("utf-8", "replace") or "{}")
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        str(k): [str(a) for a in v]
        for k, v in data.items()
        if isinstance(v, list) and _HOOK.fullmatch(str(k))
    }


def defined_args(source: str, name: str) -> list[str] | None:
    """The argument names of the module-level function `name`, or None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return [a.arg for a in node.args.args + node.args.kwonlyargs]
    return None


def close_hook(
    name: str, hooks: dict[str, list[str]], args: list[str]
) -> tuple[str | None, list[str]]:
    """(the one close hook whose arguments the function's fit, the close candidates)."""
    close = difflib.get_close_matches(name, list(hooks), n=3, cutoff=CUTOFF)
    fitting = [h for h in close if set(args) <= set(hooks[h])]
    return (fitting[0] if len(close) == 1 and len(fitting) == 1 else None), close


def rename_edit(rel: str, text: str, line: int | None, old: str, new: str) -> TextEdit | None:
    """Rename `def old(` to `def new(` on its line (1-based `line`, else the only one)."""
    lines = text.splitlines()
    pattern = re.compile(rf"^(\s*(?:async\s+)?def\s+){re.escape(old)}\s*\(")
    rows = [i for i, ln in enumerate(lines) if pattern.match(ln)]
    if line is not None and line - 1 in rows:
        rows = [line - 1]
    if len(rows) != 1:
        return None
    m = pattern.match(lines[rows[0]])
    assert m is not None
    col = len(m.group(1))
    return TextEdit(rel, rows[0], col, rows[0], col + len(old), new)
