"""The rule patterns' compiled regex programs, kept between runs.

`re.compile` parses a pattern and generates its program in Python, and the
built-in rules hold ~950 patterns: on a long output, where nearly every rule
meets a line it may match, compiling them costs ~0.18 s of a ~2.5 s run, the
same every run.  `compile_pattern` keeps each program it generates in the cache
folder (classifier/cachefile.py) and, for a pattern it has seen before,
hands the stored program straight to the regex engine (`_sre.compile`, the
last step of `re.compile`), which checks every program it is given before
it runs one: a stored program that is wrong for this interpreter raises,
and the pattern is then compiled the usual way.

Only CPython 3.11 and later (their `re._parser` and `re._compiler`) use the
stored programs, keyed by the interpreter's exact version and the regex
engine's own version number; anywhere else, or when anything about them is
not as expected, `compile_pattern` is `re.compile`.  The file is written once, at
exit, by a process that compiled a pattern the file did not hold, and holds
at most MAX_ENTRIES programs: patterns made at run time (a project rule's)
can never grow it without bound, and a process that finds it full keeps
only the programs it used and compiled (older ones were another version's).
"""

from __future__ import annotations

import atexit
import importlib
import json
import re
import sys
import threading
from typing import Any

from . import cachefile

MAX_ENTRIES = 4000

_lock = threading.Lock()
# The file's programs by key, each JSON text (decoded when its pattern is
# compiled), and the ones compiled since it was read.
_stored: dict[str, str] | None = None
_new: dict[str, str] = {}
_used: set[str] = set()  # the stored programs this process built a pattern from


def _key(pattern: str | bytes, flags: int) -> str:
    if isinstance(pattern, bytes):
        return f"b{flags}:{pattern.decode('latin-1')}"
    if not flags & re.ASCII:  # a str pattern is Unicode unless ASCII: one program, one key
        flags |= re.UNICODE
    return f"s{flags}:{pattern}"


def _private(name: str) -> Any:
    """One of the regex machinery's private modules (None when absent)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


# re.compile's steps: parse (re._parser), generate (re._compiler), build (_sre)
_sre: Any
_parser: Any
_compiler: Any
_sre, _parser, _compiler = (
    (_private("_sre"), _private("re._parser"), _private("re._compiler"))
    if sys.implementation.name == "cpython" and sys.version_info >= (3, 11)
    else (None, None, None)
)
USABLE = (
    hasattr(_sre, "compile")
    and hasattr(_sre, "MAGIC")
    and hasattr(_parser, "parse")
    and hasattr(_compiler, "_code")
)


def _file_name() -> str:
    v = sys.version_info
    return f"regex-cpython{v.major}{v.minor}{v.micro}{v.releaselevel[0]}{v.serial}-sre{_sre.MAGIC}.json"


def _read_file() -> dict[str, str]:
    blob = cachefile.read(_file_name())
    if blob is None:
        return {}
    try:
        data = json.loads(blob)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def _load() -> dict[str, str]:
    global _stored
    if _stored is None:
        _stored = _read_file()
    return _stored


def _program(pattern: str | bytes, flags: int) -> tuple[Any, ...]:
    """What `re._compiler.compile` hands `_sre.compile`, with plain ints."""
    parsed = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return (
        int(flags | parsed.state.flags),
        code,
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


def _build(pattern: str | bytes, program: Any) -> re.Pattern[Any]:
    final_flags, code, groups, groupindex, indexgroup = program
    compiled: re.Pattern[Any] = _sre.compile(
        pattern, final_flags, code, groups, dict(groupindex), tuple(indexgroup)
    )
    return compiled


def compile_pattern(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """`re.compile(pattern, flags)`, from the stored program when there is one."""
    flags = int(flags)
    if not USABLE or flags & re.DEBUG:
        return re.compile(pattern, flags)
    key = _key(pattern, flags)
    with _lock:
        text = _load().get(key)
    if text is not None:
        try:
            compiled = _build(pattern, json.loads(text))
        except Exception:  # a program this interpreter refuses (it checks each): compile it
            with _lock:
                _load().pop(key, None)
        else:
            _used.add(key)
            return compiled
    try:
        program = _program(pattern, flags)
        compiled = _build(pattern, program)
    except re.error:
        raise
    except Exception:  # the private steps are not what they were: the public way
        return re.compile(pattern, flags)
    with _lock:
        if len(_new) < MAX_ENTRIES:
            _new[key] = json.dumps(program, separators=(",", ":"))
    return compiled


def save() -> bool:
    """Write the programs compiled since the file was read (merged with what
    it holds now: another process may have added some); whether it wrote."""
    with _lock:
        if not _new:
            return False
        merged = {**_read_file(), **(_stored or {}), **_new}
        if len(merged) > MAX_ENTRIES:  # full: keep what this process used
            merged = {k: v for k, v in merged.items() if k in _used or k in _new}
        _new.clear()
        if len(merged) > MAX_ENTRIES:
            return False
        return cachefile.write(_file_name(), json.dumps(merged, separators=(",", ":")).encode())


atexit.register(save)
