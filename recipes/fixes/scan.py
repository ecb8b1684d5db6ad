"""Finding things in the workspace's own sources (bounded walks, no vendored code),
and reading what a compile failure is about from its record."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faultlens.classifier.files import read_text
from faultlens.classifier.lazyre import lazy_compile

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".faultlens",
        "node_modules",
        ".venv",
        "venv",
        "env",
        ".tox",
        ".nox",
        "__pycache__",
        "site-packages",
        "dist",
        "build",
        "out",
        "target",
        "coverage",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".next",
        "vendor",
    }
)
MAX_FILES = 20000
MAX_FILE_BYTES = 2 * 1024 * 1024


def walk_sources(root: Path, exts: tuple[str, ...]) -> Iterator[Path]:
    """Source files under root with one of `exts`, skipping vendored and build
    folders and symlinked directories; at most MAX_FILES files are looked at."""
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            seen += 1
            if seen > MAX_FILES:
                return
            if name.endswith(exts):
                path = Path(dirpath) / name
                if path.is_symlink():
                    continue
                yield path


def read_small(path: Path) -> str | None:
    try:
        return read_text(path, MAX_FILE_BYTES)
    except (OSError, UnicodeDecodeError):
        return None


_NAME_PATTERNS = (
    lazy_compile(r"Cannot find name '(?P<v>[A-Za-z_$][\w$]*)'"),
    lazy_compile(r"name '(?P<v>[A-Za-z_]\w*)' is not defined"),
    lazy_compile(r"\bundefined: (?P<v>[A-Za-z_]\w*)\b"),
    lazy_compile(r"cannot find (?:value|type|function|struct|macro|trait) `(?P<v>\w+)`"),
    lazy_compile(r"use of undeclared (?:type|crate or module) `(?P<v>\w+)`"),
    lazy_compile(r"'(?P<v>[A-Za-z_]\w*)' (?:undeclared|was not declared in this scope)"),
    lazy_compile(r"implicit declaration of function '(?P<v>[A-Za-z_]\w*)'"),
    # gcc/clang: a misspelt field (gcc quotes with U+2018/U+2019 in a UTF-8 locale)
    lazy_compile(r"has no member named [\u2018'](?P<v>[A-Za-z_]\w*)[\u2019']"),
    lazy_compile(r"(?P<v>[A-Za-z_]\w*) is not defined"),
)
_SUGGESTION_PATTERNS = (
    lazy_compile(r"Did you mean(?: the instance member)?:? '(?P<v>[^']+)'\??"),
    lazy_compile(r"did you mean:? [`'\"](?P<v>[^`'\"]+)[`'\"]"),
    lazy_compile(r"help: a \w+ with a similar name exists: `(?P<v>[^`]+)`"),
)
_MODULE_PATTERNS = (
    lazy_compile(r"No module named '(?P<v>[^']+)'"),
    lazy_compile(r"Cannot find module '(?P<v>[^']+)'"),
    lazy_compile(r"Cannot find package '(?P<v>[^']+)'"),
    lazy_compile(r"Could not resolve \"(?P<v>[^\"]+)\""),
    lazy_compile(r"use of undeclared crate or module `(?P<v>\w+)`"),
    lazy_compile(r"can't find crate for `(?P<v>\w+)`"),
    lazy_compile(r"unresolved import `(?P<v>\w+)"),
)
_INCLUDE = (
    lazy_compile(r"did you forget to '#include (?P<v>[<\"][^>\"]+[>\"])'"),
    lazy_compile(r"include '(?P<v>[<\"][^>\"]+[>\"])' or provide a declaration"),
    lazy_compile(r"include the header (?P<v><[^>]+>) or explicitly provide"),
)
_IMPORT = lazy_compile(r"(?P<v>use [A-Za-z0-9_:{}, *]+;)")


def record_text(record: FailureRecord) -> str:
    parts = [record.signal, record.message]
    parts.extend(loc.message for loc in record.related if loc.message)
    return "\n".join(p for p in parts if p)


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> str | None:
    for p in patterns:
        m = p.search(text)
        if m:
            return m.group("v")
    return None


def hint_str(hint: dict[str, Any], *keys: str) -> str | None:
    for k in keys:
        v = hint.get(k)
        if isinstance(v, str) and v:
            return v
    return None


def missing_name(record: FailureRecord) -> str | None:
    return hint_str(record.hint, "name", "symbol") or _first(_NAME_PATTERNS, record_text(record))


def suggestion(record: FailureRecord) -> str | None:
    hint = record.hint
    v = hint_str(hint, "suggestion", "did_you_mean")
    if v:
        return v
    sugg = hint.get("suggestions")
    if isinstance(sugg, list):
        strs = [s for s in sugg if isinstance(s, str)]
        if len(strs) == 1:
            return strs[0]
    return _first(_SUGGESTION_PATTERNS, record_text(record))


def missing_module(record: FailureRecord) -> str | None:
    return hint_str(record.hint, "module", "crate") or _first(_MODULE_PATTERNS, record_text(record))


def include_header(record: FailureRecord) -> str | None:
    return hint_str(record.hint, "include", "header") or _first(_INCLUDE, record_text(record))


def import_statement(record: FailureRecord) -> str | None:
    v = hint_str(record.hint, "import")
    if v:
        return v
    sugg = record.hint.get("suggestions")
    if isinstance(sugg, list):
        for s in sugg:
            if not isinstance(s, dict) or "consider importing" not in str(s.get("message", "")):
                continue
            adds = [
                str(e.get("text", "")).strip()
                for e in s.get("edits", [])
                if isinstance(e, dict) and e.get("op") == "+"
            ]
            if isinstance(s.get("replacement"), str):  # rustc JSON: the whole `use` line
                adds.append(s["replacement"].strip())
            uses = [a for a in adds if a.startswith("use ")]
            if len(uses) == 1:  # one candidate; several would be a guess
                return uses[0]
    text = record_text(record)
    if "consider importing" in text:
        return _first((_IMPORT,), text)
    return None
