"""Which import brings back each of a file's undefined Python names.

For one name, in order, the first that gives an answer: how the rest of the
workspace imports that name (one way only, and never from the file itself:
the tests' `from toolz._signatures import builtins` is no import for
toolz/_signatures.py; of several ways, the one not from the package that
holds the file); the workspace module that
defines it (one only); the interpreter's index (py_index.py: the standard
library, then the installed distributions), its providers narrowed by how
the file uses the name (`datetime.now()` cannot be the module `datetime`,
whose attributes hold no `now`; `datetime.date.today()` is the module).
Exactly one provider is an import; more are candidates for a human."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..fixes import py_imports
from .py_index import Provider, PyIndex
from .py_undefined import Undefined

_STATEMENT = re.compile(
    r"(?:import (?P<m1>[\w.]+)(?: as (?P<a1>\w+))?|from (?P<m2>\.*[\w.]*) import (?P<n>\w+)(?: as (?P<a2>\w+))?)"
)


@dataclass(frozen=True, slots=True)
class Chosen:
    """An import of one name: the statement, its module, the imported name
    (None for `import m`), the import group it belongs to."""

    name: str
    statement: str
    module: str
    imported: str | None
    group: str  # "stdlib", "thirdparty", "firstparty"
    origin: str  # what said so, for the plan's summary


@dataclass(slots=True)
class Resolution:
    chosen: list[Chosen] = field(default_factory=list)
    candidates: dict[str, list[str]] = field(default_factory=dict)  # name -> statements
    unknown: list[str] = field(default_factory=list)


def _parse(statement: str) -> tuple[str, str | None] | None:
    m = _STATEMENT.fullmatch(statement)
    if m is None:
        return None
    if m.group("m1"):
        return m.group("m1"), None
    return m.group("m2"), m.group("n")


def _workspace_top(root: Path, top: str) -> bool:
    return any(
        (base / top).is_dir() or (base / f"{top}.py").is_file() for base in (root, root / "src")
    )


def group_of(index: PyIndex, root: Path, module: str) -> str:
    if module.startswith("."):
        return "firstparty"
    top = module.split(".")[0]
    if index.is_stdlib(top):
        return "stdlib"
    if _workspace_top(root, top):
        return "firstparty"
    return "thirdparty"


def _fits(index: PyIndex, p: Provider, use: Undefined) -> bool:
    """Whether the file's uses of the name fit provider `p`: a module is
    only used by its attributes (known ones, for the standard library)."""
    if p.name is not None:
        return True
    if None in use.attrs:
        return False
    if not p.stdlib:
        return True
    attrs = index.module_attrs(p.module)
    return bool(attrs) and all(a in attrs for a in use.attrs if a is not None)


def _from_index(index: PyIndex, use: Undefined) -> list[Provider]:
    providers = [p for p in index.providers(use.name) if _fits(index, p, use)]
    modules = [p for p in providers if p.name is None]
    if modules and all(a is not None for a in use.attrs):
        return modules  # used only by attributes the module has: the module
    stdlib = [p for p in providers if p.stdlib]
    return stdlib or providers


def resolve(
    root: Path,
    source: Path,
    text: str,
    uses: list[Undefined],
    index: PyIndex,
    conventions: dict[str, set[str]],
) -> Resolution:
    out = Resolution()
    own = py_imports.module_name(source, root)[0]
    for use in uses:
        name = use.name
        ways = sorted(conventions.get(name, set()))
        # a test's `from pkg.mod import builtins` takes it from this very file: no way for it
        usable = [
            w
            for w in ways
            if (parsed := _parse(w)) and parsed[0] != own and _importable(index, root, parsed[0])
        ]
        if len(usable) > 1:  # toolz/recipes.py: `from toolz.itertoolz`, not `from toolz`
            usable = _not_from_own_package(usable, own) or usable
        if len(usable) == 1:
            module, imported = _parse(usable[0]) or ("", None)
            out.chosen.append(
                Chosen(
                    name,
                    usable[0],
                    module,
                    imported,
                    group_of(index, root, module),
                    "as the workspace imports it",
                )
            )
            continue
        if len(usable) > 1:
            out.candidates[name] = usable
            continue
        defs = py_imports.find_definitions(root, name, exclude=source)
        if len(defs) == 1:
            line = py_imports.import_line_for(source, defs[0], root, name, text)
            module = line.split()[1]
            out.chosen.append(
                Chosen(name, line, module, name, "firstparty", f"defined in {defs[0].name}")
            )
            continue
        if len(defs) > 1:
            out.candidates[name] = [
                py_imports.import_line_for(source, d, root, name, text) for d in defs[:5]
            ]
            continue
        sibling = py_imports.sibling_module(source, name)
        if sibling is not None and use.attrs and None not in use.attrs:
            package, _ = py_imports.module_name(sibling.parent / "__init__.py", root)
            relative = py_imports.uses_relative_imports(text) or not package
            module = "." if relative else package
            out.chosen.append(
                Chosen(
                    name,
                    f"from {module} import {name}",
                    module,
                    name,
                    "firstparty",
                    "a sibling module",
                )
            )
            continue
        providers = _from_index(index, use)
        if len(providers) == 1:
            p = providers[0]
            where = "the standard library" if p.stdlib else "an installed distribution"
            out.chosen.append(
                Chosen(
                    name,
                    p.statement(),
                    p.module,
                    p.name,
                    group_of(index, root, p.module),
                    f"from {where}",
                )
            )
        elif providers:
            out.candidates[name] = [p.statement() for p in providers[:8]]
        else:
            out.unknown.append(name)
    return out


def _not_from_own_package(ways: list[str], own: str) -> list[str]:
    """The ways not importing from a package that holds module `own` (its
    `__init__` imports the module, most likely: a circular import)."""
    parts = own.split(".")
    packages = {".".join(parts[:i]) for i in range(1, len(parts))}
    return [w for w in ways if (_parse(w) or ("", None))[0] not in packages]


def _importable(index: PyIndex, root: Path, module: str) -> bool:
    top = module.split(".")[0]
    return index.is_stdlib(top) or top in index.installed or _workspace_top(root, top)
