"""C/C++: the system header that defines a macro the compiler cannot find,
from the installed toolchain, not a hand-kept list.

gcc names a header for the functions it knows as builtins (`note: 'printf'
is defined in header '<stdio.h>'`), not for a macro: `'DBL_EPSILON'
undeclared` names none.  The index is what the compiler's own `#include <...>`
search folders hold (asked of it: `cc -xc -E -v /dev/null`): each top-level
header's `#define NAME`s, read as text (bounded) by a probe in its own empty
folder.  A name that exactly one
top-level header defines is that header's; several: no header (SEEK_SET is
in stdio.h, unistd.h and fcntl.h).  Kept in the cache folder per compiler
binary, checked against the folders' times."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys

from . import cache, probe

PREFIX = "cstd"
TIMEOUT = 20.0
MAX_HEADERS = 2000
MAX_HEADER_BYTES = 512 * 1024
_COMPILER = re.compile(r"^(?:[\w.+-]*-)?(?:gcc|cc|clang|g\+\+|c\+\+|clang\+\+)(?:-[\d.]+)?$")
_MEMO: dict[str, dict[str, list[str]]] = {}


def compiler_of(command: list[str] | tuple[str, ...] | None) -> str | None:
    """The C compiler the failing command runs (`gcc ...`), else the system's `cc`."""
    if command and _COMPILER.match(os.path.basename(command[0])):
        found = shutil.which(command[0])
        if found:
            return found
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def search_folders(cc: str) -> list[str]:
    """The compiler's `#include <...>` folders, in its search order."""
    out = probe.run([cc, "-xc", "-E", "-v", os.devnull], TIMEOUT, merge_stderr=True)
    if out is None:
        return []
    folders: list[str] = []
    inside = False
    for line in out.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            break
        elif inside and line.startswith(" "):
            folder = line.strip().removesuffix(" (framework directory)")
            if os.path.isdir(folder):
                folders.append(os.path.realpath(folder))
    return folders


# Run as `python -I -c` in the probe's empty folder (as every index probe: no system
# file is opened by faultlens itself while it plans): {macro: [headers]} as JSON.  A
# header of one name in two folders (gcc's limits.h and the C library's) is one header.
_SCRIPT = r"""
import json, os, re, sys
define = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
out, count = {}, 0
max_headers, max_bytes = int(sys.argv[1]), int(sys.argv[2])
for folder in sys.argv[3:]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        continue
    for name in names:
        path = os.path.join(folder, name)
        if not name.endswith(".h") or not os.path.isfile(path):
            continue
        count += 1
        if count > max_headers or os.path.getsize(path) > max_bytes:
            continue
        try:
            with open(path, "rb") as fh:
                body = fh.read()
        except OSError:
            continue
        for m in define.finditer(body):
            macro = m.group(1).decode("ascii")
            if not macro.startswith("_"):
                out.setdefault(macro, set()).add(name)
json.dump({k: sorted(v) for k, v in out.items()}, sys.stdout)
"""


def _build(folders: list[str]) -> dict[str, list[str]]:
    """{macro: [headers defining it]}, asked of a probe reading the folders."""
    if not folders:
        return {}
    out = probe.run(
        [sys.executable, "-I", "-c", _SCRIPT, str(MAX_HEADERS), str(MAX_HEADER_BYTES), *folders],
        TIMEOUT,
    )
    try:
        found = json.loads(out) if out else {}
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(k): [str(h) for h in v] for k, v in found.items() if isinstance(v, list)}


def index(cc: str) -> dict[str, list[str]]:
    """The macro index of compiler `cc` (cached per binary and folders)."""
    name = cache.key(PREFIX, cache.file_identity(cc))
    found = _MEMO.get(name)
    if found is None:
        data = cache.load(name)
        if data is not None and isinstance(data.get("defines"), dict):
            found = data["defines"]
        else:
            folders = search_folders(cc)
            found = _build(folders)
            cache.store(name, PREFIX, {"defines": found}, folders)
        _MEMO[name] = found
    return found


def providers(cc: str, macro: str) -> list[str]:
    """The top-level system headers that `#define` `macro`."""
    found = index(cc).get(macro)
    return [str(h) for h in found] if isinstance(found, list) else []


def header_for(cc: str | None, names: list[str], text: str) -> tuple[str | None, list[str]]:
    """(`<header>` of the one system header defining one of `names`, not yet
    included by `text`; notes on a name several headers define)."""
    notes: list[str] = []
    if cc is None:
        return None, notes
    for name in names:
        found = providers(cc, name)
        if len(found) > 1:
            notes.append(f"'{name}' is defined by several system headers: {', '.join(found[:5])}")
            continue
        if len(found) == 1:
            header = found[0]
            if re.search(rf"#\s*include\s*<{re.escape(header)}>", text):
                continue
            return f"<{header}>", notes
    return None, notes
