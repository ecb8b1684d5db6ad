"""Java: the JDK's classes by simple name, asked of the installed JDK (`jimage
list` of its `lib/modules`), not a hand-kept list; kept in the cache folder
per JDK.

A class is a top-level class (no `$`) of a Java SE module (`java.*`: java.base,
java.sql, java.xml's org.w3c.dom ...), its implementation packages (sun.*,
jdk.*, com.sun.*) left out.  `providers(List)` ranks by module: the classes of java.base,
the module every module reads, come before those of the others
(java.util.List before java.desktop's java.awt.List, as javac resolves
nothing for either and an IDE offers java.util first); among the others, a
name in several packages is several candidates.  java.lang needs no import
and is left out; a class javap does not show public is no candidate."""

from __future__ import annotations

import os
import re
import shutil

from . import cache, probe

PREFIX = "javaclasses"
TIMEOUT = 30.0
_CLASS = re.compile(r"^\s+([a-z][\w/]*)/([A-Z]\w*)\.class$")
_IMPLEMENTATION = ("sun.", "jdk.", "com.sun.")
_MEMO: dict[str, dict[str, dict[str, list[str]]]] = {}
_PUBLIC: dict[str, bool] = {}
_FORMAT = "3"  # what an entry holds: SE modules' packages


def jdk_home(command: list[str] | tuple[str, ...] | None, env_home: str | None) -> str | None:
    """The JDK the failing command compiles with: its `javac`/`java`, else
    $JAVA_HOME, else the `javac` on PATH."""
    tool = None
    if command and os.path.basename(command[0]) in ("javac", "java"):
        tool = shutil.which(command[0])
    if tool is None and env_home and os.path.isfile(os.path.join(env_home, "bin", "javac")):
        tool = os.path.join(env_home, "bin", "javac")
    tool = tool or shutil.which("javac")
    if tool is None:
        return None
    home = os.path.dirname(os.path.dirname(os.path.realpath(tool)))
    return home if os.path.isfile(os.path.join(home, "lib", "modules")) else None


def _build(home: str) -> dict[str, dict[str, list[str]]]:
    """{"lang": ..., "base": ..., "other": {name: [packages]}}: java.lang's
    classes (no import; a name of theirs is never imported), java.base's, the rest."""
    jimage = os.path.join(home, "bin", "jimage")
    out = probe.run([jimage, "list", os.path.join(home, "lib", "modules")], TIMEOUT)
    tiers: dict[str, dict[str, set[str]]] = {"lang": {}, "base": {}, "other": {}}
    module = ""
    for line in (out or "").splitlines():
        if line.startswith("Module: "):
            module = line[len("Module: ") :].strip()
            continue
        m = _CLASS.match(line) if module.startswith("java.") else None
        if m is None:
            continue
        package = m.group(1).replace("/", ".")
        if package.startswith(_IMPLEMENTATION):
            continue
        tier = tiers[
            "lang" if package == "java.lang" else "base" if module == "java.base" else "other"
        ]
        tier.setdefault(m.group(2), set()).add(package)
    return {t: {n: sorted(p) for n, p in names.items()} for t, names in tiers.items()}


def index(home: str) -> dict[str, dict[str, list[str]]]:
    name = cache.key(PREFIX, _FORMAT, cache.file_identity(os.path.join(home, "lib", "modules")))
    found = _MEMO.get(name)
    if found is None:
        data = cache.load(name)
        if data is not None and isinstance(data.get("tiers"), dict):
            found = data["tiers"]
        else:
            found = _build(home)
            if found["base"]:
                cache.store(name, PREFIX, {"tiers": found}, [])
        _MEMO[name] = found
    return found


def public_classes(home: str, classes: list[str]) -> set[str]:
    """Which of `classes` are public (javap's header of each: `public ... class X`);
    jimage does not say, and java.util.stream.Node is package-private."""
    todo = [c for c in classes if c not in _PUBLIC]
    if todo:
        out = probe.run([os.path.join(home, "bin", "javap"), "-public", *todo], TIMEOUT) or ""
        for c in todo:
            _PUBLIC[c] = re.search(rf"^public .*\b{re.escape(c)}\b", out, re.MULTILINE) is not None
    return {c for c in classes if _PUBLIC.get(c)}


def providers(home: str, name: str) -> list[str]:
    """The public classes `name` may mean, java.base's first: one entry is
    one class to import; several, candidates; none for a java.lang name."""
    tiers = index(home)
    if name in tiers.get("lang", {}):
        return []
    for tier in ("base", "other"):
        packages = tiers.get(tier, {}).get(name)
        if packages:
            found = public_classes(home, [f"{p}.{name}" for p in packages])
            if found:
                return sorted(found)
    return []
