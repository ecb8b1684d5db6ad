"""The names a Python interpreter provides: its standard library's modules
and their public names, and the top-level modules of the distributions
installed for it with the names their `__init__` defines.

Asked of the interpreter itself (py_probe_script.py, run isolated in an
empty folder: `python -I -c ...`), once per interpreter, and kept in the
cache folder until the interpreter or its site folders change.  An
interpreter that cannot be run gives an empty index.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from . import cache, probe

PREFIX = "pynames"
TIMEOUT = 30.0
_SCRIPT = Path(__file__).with_name("py_probe_script.py")
_MEMO: dict[str, PyIndex] = {}


@dataclass(frozen=True, slots=True)
class Provider:
    """Where a name can be imported from: `import module` (name is None) or
    `from module import name`."""

    module: str
    name: str | None
    stdlib: bool

    def statement(self) -> str:
        return (
            f"import {self.module}"
            if self.name is None
            else f"from {self.module} import {self.name}"
        )


@dataclass(frozen=True)
class PyIndex:
    version: str = ""
    stdlib: frozenset[str] = frozenset()
    exports: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    attrs: Mapping[str, frozenset[str]] = field(default_factory=dict)
    aliases: frozenset[str] = frozenset()
    installed: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @cached_property
    def _by_name(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for module, names in self.exports.items():
            if any(part.startswith("_") for part in module.split(".")):
                continue
            for n, identity in names.items():
                out.setdefault(n, []).append((module, identity))
        return out

    def is_stdlib(self, module: str) -> bool:
        return module.split(".")[0] in self.stdlib

    def module_attrs(self, module: str) -> frozenset[str]:
        return self.attrs.get(module, frozenset())

    def providers(self, name: str) -> list[Provider]:
        """Every import that binds `name`: the module of that name, and the
        modules exporting it (one per object: a name re-exported by several
        modules is offered from its public alias, else where it is defined,
        else the shortest module path)."""
        out: list[Provider] = []
        if name in self.stdlib:
            out.append(Provider(name, None, True))
        elif name in self.installed:
            out.append(Provider(name, None, False))
        groups: dict[str, list[str]] = {}
        for module, identity in self._by_name.get(name, []):
            groups.setdefault(identity or f"{module}.{name}", []).append(module)
        for identity, modules in sorted(groups.items()):
            out.append(Provider(self._canonical(identity, modules), name, True))
        for module, names in sorted(self.installed.items()):
            if name in names:
                out.append(Provider(module, name, False))
        return out

    def _canonical(self, identity: str, modules: list[str]) -> str:
        alias = sorted(m for m in modules if m in self.aliases)
        if alias:
            return alias[0]
        origin = identity.rsplit(".", 1)[0]
        for m in modules:
            if m == origin or identity.startswith(m + "."):
                return m
        return min(modules, key=lambda m: (m.count("."), len(m), m))


def _from_json(data: Mapping[str, Any]) -> PyIndex:
    def names(v: Any) -> frozenset[str]:
        return frozenset(x for x in v if isinstance(x, str)) if isinstance(v, list) else frozenset()

    exports = data.get("exports") or {}
    attrs = data.get("attrs") or {}
    installed = data.get("installed") or {}
    return PyIndex(
        version=str(data.get("version", "")),
        stdlib=names(data.get("stdlib")),
        exports={
            str(m): {str(k): str(v) for k, v in e.items()}
            for m, e in exports.items()
            if isinstance(e, dict)
        },
        attrs={str(m): names(a) for m, a in attrs.items()},
        aliases=names(data.get("aliases")),
        installed={str(m): names(a) for m, a in installed.items()},
    )


def resolve_interpreter(candidate: str, path_env: str | None = None) -> str | None:
    """The absolute path of an interpreter named by the failing command (a
    path, or a name looked up on PATH), or None."""
    if os.sep in candidate:
        full = os.path.abspath(candidate)
        return full if os.access(full, os.X_OK) else None
    return shutil.which(candidate, path=path_env)


def index_for(interpreter: str | None) -> PyIndex:
    """The index of `interpreter` (an absolute path; None: this process's
    own Python), from memory, the cache folder, or the interpreter itself."""
    exe = interpreter or sys.executable
    identity = cache.file_identity(exe)
    if not identity:
        return PyIndex()
    name = cache.key(PREFIX, os.path.abspath(exe), identity)
    found = _MEMO.get(name)
    if found is not None:
        return found
    data = cache.load(name)
    if data is None:
        data = _probe(exe)
        if data is None:
            return PyIndex()
        sites = [s for s in data.get("sites") or [] if isinstance(s, str)]
        cache.store(name, PREFIX, data, sites)
    index = _from_json(data)
    _MEMO[name] = index
    return index


def _probe(exe: str) -> dict[str, Any] | None:
    import json

    try:
        script = _SCRIPT.read_text("utf-8")
    except OSError:
        return None
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "HOME", "TMPDIR")}
    out = probe.run([exe, "-I", "-c", script], TIMEOUT, env)
    if out is None:
        return None
    try:
        data = json.loads(out)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
