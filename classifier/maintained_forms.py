"""The maintained detector set, read as data: detect-secrets' plugin patterns.

Each ``denylist = [re.compile(r"...", flags)]`` of a ``RegexBasedDetector``
subclass whose pattern is a literal is parsed out of the installed
package's plugin files (Yelp's `detect-secrets`, or a fork installing the
same `detect_secrets` package); nothing of that package is imported or run
(importing it costs a third of a second and pulls in `requests`).  Entries
built by code (f-strings, helper calls) are skipped, and so is every
detector without a literal of at least MIN_LITERAL characters to prefilter
on and the kinds that are not secrets (public IP addresses).

Reading the set (parsing the plugin files, finding each pattern's literals)
costs ~40 ms, so what was read is kept in the cache folder
(classifier/cachefile.py), keyed by the plugin files' names, sizes and
modification times: an upgrade of the package reads it again.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import cachefile
from .recache import compile_pattern
from .secret_form import Detector, required_literals

MAX_PLUGIN_FILE = 256 * 1024
CACHE_PREFIX = "detectors-"
CACHE_FORMAT = 1  # what a cached set holds (a change of it reads the set again)
# Cached sets kept: one per installed detect-secrets, and each virtualenv has
# its own (with 2, a third project's runs evicted another's, and every run
# parsed the plugins again: ~20 ms).  A set is ~3 KB.
CACHE_FILES = 8
NOT_SECRETS = frozenset({"Public IP (ipv4)"})  # detect-secrets kinds that are not credentials
_FLAGS = {
    name: getattr(re, name)
    for name in ("I", "IGNORECASE", "X", "VERBOSE", "M", "MULTILINE", "S", "DOTALL", "A", "ASCII")
}


def _flags(node: ast.expr | None) -> int | None:
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "re" and node.attr in _FLAGS:
            return int(_FLAGS[node.attr])
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        a, b = _flags(node.left), _flags(node.right)
        return None if a is None or b is None else a | b
    return None


def _compiled(node: ast.expr) -> tuple[str, int] | None:
    """`re.compile(r"literal"[, flags])` as (pattern, flags), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    f = node.func
    if not (isinstance(f.value, ast.Name) and f.value.id == "re" and f.attr == "compile"):
        return None
    if not node.args or not isinstance(node.args[0], ast.Constant):
        return None
    pattern = node.args[0].value
    if not isinstance(pattern, str):
        return None
    flag_node = node.args[1] if len(node.args) > 1 else None
    for kw in node.keywords:
        if kw.arg == "flags":
            flag_node = kw.value
    flags = _flags(flag_node)
    return None if flags is None else (pattern, flags)


def plugin_patterns(source: str) -> list[tuple[str, str, int]]:
    """(secret type, pattern, flags) of every literal pattern in the
    denylists of a plugin module's RegexBasedDetector classes."""
    out: list[tuple[str, str, int]] = []
    for cls in ast.parse(source).body:
        if not isinstance(cls, ast.ClassDef):
            continue
        if not any(
            (isinstance(b, ast.Name) and b.id == "RegexBasedDetector")
            or (isinstance(b, ast.Attribute) and b.attr == "RegexBasedDetector")
            for b in cls.bases
        ):
            continue
        kind = cls.name
        patterns: list[tuple[str, int]] = []
        for stmt in cls.body:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target = stmt.targets[0]
            if not isinstance(target, ast.Name):
                continue
            if target.id == "secret_type" and isinstance(stmt.value, ast.Constant):
                kind = str(stmt.value.value)
            elif target.id == "denylist" and isinstance(stmt.value, ast.List | ast.Tuple):
                patterns += [c for c in map(_compiled, stmt.value.elts) if c is not None]
        out += [(kind, pat, flags) for pat, flags in patterns]
    return out


@dataclass(frozen=True, slots=True)
class Maintained:
    """What was read from the installed detector set."""

    source: str  # "detect-secrets 1.5.0", or "" when none is installed
    detectors: tuple[Detector, ...]
    skipped: tuple[str, ...]  # "kind: why"


def _version(folder: Path) -> str:
    try:
        tree = ast.parse((folder / "__version__.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return "?"
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            return str(stmt.value.value)
    return "?"


def _plugin_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.glob("*.py") if p.is_file() and not p.is_symlink())
    except OSError:
        return []


@lru_cache(maxsize=1)
def maintained() -> Maintained:
    """The detect-secrets plugins' literal patterns (found without importing
    the package: `find_spec` of a top-level package only locates it), from
    the cache folder when they were read before."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("detect_secrets")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return Maintained("", (), ())
    folder = Path(next(iter(spec.submodule_search_locations)))
    files = _plugin_files(folder / "plugins")
    name = _cache_name(folder, files)
    if name is not None and (found := _from_cache(cachefile.read(name))) is not None:
        return found
    found = _read(folder, files)
    if name is not None and cachefile.write(name, _to_cache(found)):
        cachefile.prune(CACHE_PREFIX, name, CACHE_FILES)
    return found


def _read(folder: Path, files: list[Path]) -> Maintained:
    source = f"detect-secrets {_version(folder)}"
    found: list[Detector] = []
    skipped: list[str] = []
    for path in files:
        try:
            if path.stat().st_size > MAX_PLUGIN_FILE:
                continue
            entries = plugin_patterns(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            continue
        for kind, pattern, flags in entries:
            if kind in NOT_SECRETS:
                skipped.append(f"{kind}: not a credential")
                continue
            try:
                regex = compile_pattern(pattern, flags)
            except re.error:
                skipped.append(f"{kind}: pattern does not compile")
                continue
            literals = required_literals(regex)
            if not literals:
                skipped.append(f"{kind}: no literal to prefilter on")
                continue
            found.append(
                Detector(kind, regex, literals, source, folded=bool(flags & re.IGNORECASE))
            )
    return Maintained(source, tuple(found), tuple(skipped))


def _cache_name(folder: Path, files: list[Path]) -> str | None:
    """The cache file of this installed set: its folder, and each plugin
    file's (and the version file's) name, size and modification time."""
    h = hashlib.sha256(f"{CACHE_FORMAT}\0{folder}\0".encode())
    try:
        for path in (folder / "__version__.py", *files):
            st = path.stat()
            h.update(f"{path.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    except OSError:
        return None
    return f"{CACHE_PREFIX}{h.hexdigest()[:24]}.json"


def _to_cache(found: Maintained) -> bytes:
    detectors = [
        [d.name, d.regex.pattern, d.regex.flags, list(d.literals), d.folded]
        for d in found.detectors
    ]
    data = {"source": found.source, "detectors": detectors, "skipped": list(found.skipped)}
    return json.dumps(data, separators=(",", ":")).encode()


def _from_cache(blob: bytes | None) -> Maintained | None:
    """The set a cache file holds; None when it holds anything else."""
    if blob is None:
        return None
    try:
        data: Any = json.loads(blob)
        source = str(data["source"])
        found = tuple(
            Detector(
                str(kind),
                compile_pattern(str(pattern), int(flags)),
                tuple(str(x) for x in literals),
                source,
                folded=bool(folded),
            )
            for kind, pattern, flags, literals, folded in data["detectors"]
        )
        return Maintained(source, found, tuple(str(x) for x in data["skipped"]))
    except (ValueError, KeyError, TypeError, re.error):
        return None
