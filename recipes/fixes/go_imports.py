"""Go: add a standard-library package to a file's imports (`undefined: strings`)."""

from __future__ import annotations

import re
import shutil
from functools import lru_cache

from ..model import TextEdit
from ..names import cache, probe
from ..names.go_names import code_only
from ..safety import valid

# Used when `go list std` cannot run; the common packages by their last element.
_FALLBACK = [
    "bufio",
    "bytes",
    "context",
    "encoding/json",
    "errors",
    "flag",
    "fmt",
    "io",
    "io/fs",
    "log",
    "math",
    "math/rand",
    "net",
    "net/http",
    "os",
    "os/exec",
    "path",
    "path/filepath",
    "reflect",
    "regexp",
    "sort",
    "strconv",
    "strings",
    "sync",
    "sync/atomic",
    "testing",
    "time",
    "unicode",
    "unicode/utf8",
]


@lru_cache(maxsize=1)
def std_packages() -> tuple[str, ...]:
    """The standard library's import paths (`go list std`, kept in the cache
    folder per go binary; a small list if go is missing)."""
    go = shutil.which("go")
    if go is None:
        return tuple(_FALLBACK)
    name = cache.key("gostd", cache.file_identity(go))
    stored = cache.load(name)
    if stored is not None and isinstance(stored.get("std"), list):
        return tuple(str(p) for p in stored["std"]) or tuple(_FALLBACK)
    out = probe.run([go, "list", "std"], 60.0)
    if out is None:
        return tuple(_FALLBACK)
    paths = [
        p.strip()
        for p in out.splitlines()
        if p.strip() and "internal" not in p.split("/") and not p.startswith("vendor/")
    ]
    found = tuple(p for p in paths if valid("go_import", p))
    if found:
        cache.store(name, "gostd", {"std": list(found)}, [])
    return found or tuple(_FALLBACK)


def std_path_for(name: str) -> list[str]:
    """Standard-library import paths whose package name is `name` (by last element)."""
    if not re.fullmatch(r"[a-z][a-z0-9]*", name):
        return []
    return [p for p in std_packages() if p.rsplit("/", 1)[-1] == name]


def _sorted_insert_index(existing: list[tuple[int, str]], path: str) -> int | None:
    """The line to insert before in a block's first group, keeping it sorted."""
    for line_no, p in existing:
        if p > path:
            return line_no
    return None


def import_edit(rel_path: str, text: str, path: str) -> TextEdit | None:
    """The edit adding `"path"` to the file's imports; None when already imported.
    Imports are looked for after the package clause, outside comments (a
    package's doc comment often shows an import)."""
    lines = text.splitlines()
    code = code_only(text).splitlines()
    quoted = f'"{path}"'
    block_start = None
    package_at = next((i for i, ln in enumerate(code) if re.match(r"^package\s+\w+", ln)), 0)
    for i, line in enumerate(lines):
        if i <= package_at:
            continue
        code_line = code[i].strip() if i < len(code) else ""
        s = line.strip() if code_line.startswith("import") else ""
        if re.match(r"^import\s*\($", s):
            block_start = i
            break
        m = re.match(r'^import\s+(?:[\w.]+\s+)?("[^"]+")\s*$', s)
        if m:
            if m.group(1) == quoted:
                return None
            # Single import: turn it into a sorted block.
            entries = sorted([line.strip()[len("import") :].strip(), quoted])
            block = "import (\n" + "".join(f"\t{e}\n" for e in entries) + ")"
            return TextEdit(rel_path, i, 0, i, len(line), block)
    if block_start is not None:
        existing: list[tuple[int, str]] = []
        end = None
        for j in range(block_start + 1, len(lines)):
            s = lines[j].strip()
            if s == ")":
                end = j
                break
            if not s:
                if existing:
                    break  # the first (standard-library) group ended
                continue
            m = re.match(r'^(?:[\w.]+\s+)?"([^"]+)"', s)
            if m:
                if m.group(1) == path:
                    return None
                existing.append((j, m.group(1)))
        at = _sorted_insert_index(existing, path)
        if at is None:
            at = existing[-1][0] + 1 if existing else (end if end is not None else block_start + 1)
        return TextEdit(rel_path, at, 0, at, 0, f"\t{quoted}\n")
    for i, line in enumerate(lines):
        if re.match(r"^package\s+\w+", line):
            return TextEdit(rel_path, i + 1, 0, i + 1, 0, f"\nimport {quoted}\n")
    return None
