"""The script the failing command's Python runs to say what it provides
(recipes/names/py_index.py runs it as `python -I -c <this file's text>` in an
empty folder: no workspace file is on its path).

It imports the standard library's public modules (and their public
submodules one level down) — the interpreter's own code, never the
workspace's — and reads, without importing them, the top-level modules of
the installed distributions (their `__init__.py` parsed with `ast`).  It
prints one JSON object: the version, the standard library's module names,
each module's exported names, and the site folders read.  Kept to the
syntax of Python 3.8.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import os
import pkgutil
import sys
import sysconfig
import types

# Imported for nothing but a side effect, or only usable on another platform.
SKIP = {
    "antigravity",
    "this",
    "idlelib",
    "tkinter",
    "turtle",
    "turtledemo",
    "lib2to3",
    "pydoc_data",
    "ensurepip",
    "venv",
    "msilib",
    "winreg",
    "winsound",
    "test",
    "tests",
    "idle_test",
}
MAX_SOURCE = 512 * 1024
MAX_NAMES = 2000


def _stdlib_names() -> list[str]:
    names = getattr(sys, "stdlib_module_names", None)
    if names is None:  # before 3.10: the standard library's folder and the built-ins
        folder = sysconfig.get_paths()["stdlib"]
        names = {m.name for m in pkgutil.iter_modules([folder])} | set(sys.builtin_module_names)
    return sorted(n for n in names if not n.startswith("_") and n not in SKIP)


def _quiet_import(name: str) -> types.ModuleType | None:
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            return importlib.import_module(name)
    except BaseException:
        return None


def _own(module: types.ModuleType, value: object) -> bool:
    """Whether `value` belongs to `module` (not a name it imported from
    another public module)."""
    if isinstance(value, types.ModuleType):
        return False
    origin = getattr(value, "__module__", None)
    if not isinstance(origin, str) or origin == module.__name__:
        return True
    if origin.startswith(module.__name__ + ".") or origin == "builtins":
        return True
    return origin.split(".")[-1].startswith("_")


def _exports(module: types.ModuleType) -> list[str]:
    declared = getattr(module, "__all__", None)
    if isinstance(declared, (list, tuple)):
        names = [n for n in declared if isinstance(n, str) and n.isidentifier()]
    else:
        names = [n for n, v in vars(module).items() if not n.startswith("_") and _own(module, v)]
    return sorted(set(names))[:MAX_NAMES]


def _attrs(module: types.ModuleType) -> list[str]:
    return sorted(n for n in vars(module) if not n.startswith("_"))[:MAX_NAMES]


def _identity(value: object) -> str:
    """What makes two exported names one object: where it was defined."""
    if isinstance(value, (int, float, str, bytes, bool)) or value is None:
        return ""
    origin = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if isinstance(origin, str) and isinstance(qualname, str):
        return origin + "." + qualname
    return "id:" + str(id(value))


def _stdlib() -> tuple[dict[str, dict[str, str]], dict[str, list[str]], list[str]]:
    exports: dict[str, dict[str, str]] = {}
    attrs: dict[str, list[str]] = {}
    modules: list[tuple[str, types.ModuleType]] = []
    for name in _stdlib_names():
        module = _quiet_import(name)
        if module is None:
            continue
        modules.append((name, module))
        for info in pkgutil.iter_modules(getattr(module, "__path__", None) or []):
            if info.name.startswith("_") or info.name in SKIP:
                continue
            sub = _quiet_import(name + "." + info.name)
            if sub is not None:
                modules.append((name + "." + info.name, sub))
        for attr, value in list(vars(module).items()):  # os.path: posixpath by another name
            alias = name + "." + attr
            module_alias = isinstance(value, types.ModuleType) and sys.modules.get(alias) is value
            if module_alias and value.__name__ != alias:
                modules.append((alias, value))
    aliased = {m.__name__ for n, m in modules if n != m.__name__}
    for name, module in modules:
        if name == module.__name__ and name in aliased:
            continue  # known by its public alias (os.path, not posixpath)
        exports[name] = {n: _identity(getattr(module, n, None)) for n in _exports(module)}
        attrs[name] = _attrs(module)
    return exports, attrs, sorted(n for n, m in modules if n != m.__name__)


def _names_in(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == "__all__":
                    value = node.value
                    if isinstance(value, (ast.List, ast.Tuple)):
                        return [
                            e.value
                            for e in value.elts
                            if isinstance(e, ast.Constant) and isinstance(e.value, str)
                        ]
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.extend(a.asname or a.name for a in node.names if a.name != "*")
    return [n for n in names if not n.startswith("_")]


def _installed(stdlib: set[str]) -> tuple[dict[str, list[str]], list[str]]:
    paths = sysconfig.get_paths()
    std = {os.path.realpath(paths["stdlib"]), os.path.realpath(paths["platstdlib"])}
    sites = []
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        fresh = real and os.path.isdir(real) and real not in std and real not in sites
        if fresh and (
            not real.startswith(tuple(s + os.sep for s in std)) or "site-packages" in real
        ):
            sites.append(real)
    out: dict[str, list[str]] = {}
    for info in pkgutil.iter_modules(sites):
        name = info.name
        if name.startswith("_") or name in stdlib or name in out or not name.isidentifier():
            continue
        folder = getattr(info.module_finder, "path", "")
        source = os.path.join(folder, name, "__init__.py") if info.ispkg else ""
        if not info.ispkg:
            source = os.path.join(folder, name + ".py")
        names: list[str] = []
        try:
            if os.path.getsize(source) <= MAX_SOURCE:
                with open(source, encoding="utf-8") as fh:
                    names = _names_in(ast.parse(fh.read()))
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
            pass
        out[name] = sorted(set(names))[:MAX_NAMES]
    return out, sites


def main() -> None:
    exports, attrs, aliases = _stdlib()
    top = sorted({n.split(".")[0] for n in exports})
    installed, sites = _installed(set(top))
    json.dump(
        {
            "version": sys.version,
            "stdlib": top,
            "exports": exports,
            "attrs": attrs,
            "aliases": aliases,
            "installed": installed,
            "sites": sites,
        },
        sys.stdout,
        separators=(",", ":"),
    )


if __name__ == "__main__":
    main()
