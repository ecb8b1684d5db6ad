"""A Python file's undefined names, found the way a linter finds them
(pyflakes: scopes, definitions after use, comprehensions, class bodies,
`global`, `del`), and how each one is used (`datetime.now()` is a name used
by attribute; `Decimal("1")` a bare name).  Pure: reads only the text."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from pyflakes import checker, messages  # type: ignore[import-untyped]

MAX_TEXT = 2 * 1024 * 1024


@dataclass(slots=True)
class Undefined:
    """One undefined name: where it is first used (1-based line, 0-based
    column) and the attributes read off it wherever it is used (None in
    `attrs` stands for a use that is not an attribute access)."""

    name: str
    line: int
    col: int
    attrs: set[str | None] = field(default_factory=set)
    places: list[tuple[int, int]] = field(default_factory=list)  # every use


def undefined_names(text: str, filename: str = "<file>") -> list[Undefined] | None:
    """The file's undefined names in the order first used; None when it does
    not parse (or is too large to)."""
    if len(text) > MAX_TEXT:
        return None
    try:
        tree = ast.parse(text, filename=filename)
        found = checker.Checker(tree, filename=filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out: dict[str, Undefined] = {}
    for msg in sorted(found.messages, key=lambda m: (m.lineno, m.col)):
        if type(msg) is not messages.UndefinedName:
            continue
        name = str(msg.message_args[0])
        if name not in out:
            out[name] = Undefined(name, msg.lineno, msg.col)
        out[name].places.append((msg.lineno, msg.col))
    if out:
        _uses(tree, out)
    return list(out.values())


def _uses(tree: ast.AST, names: dict[str, Undefined]) -> None:
    attribute_of: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            u = names.get(node.value.id)
            if u is not None:
                u.attrs.add(node.attr)
                attribute_of.add(id(node.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in attribute_of:
            u = names.get(node.id)
            if u is not None and isinstance(node.ctx, ast.Load):
                u.attrs.add(None)
