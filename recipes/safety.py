"""Safety checks: paths stay inside the workspace roots; values taken from tool
output match strict patterns before they go anywhere near a command line.

Everything here is pure except `inside_workspace`, which resolves symlinks.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from faultlens.classifier.lazyre import lazy_compile

from .model import UnsafeEdit, Workspace

_A = re.ASCII
PATTERNS: dict[str, re.Pattern[str]] = {
    # PEP 508 distribution name.
    "pypi": lazy_compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?", _A),
    # npm package name, optionally scoped.
    "npm": lazy_compile(r"(?:@[a-z0-9][a-z0-9._-]{0,100}/)?[a-z0-9][a-z0-9._-]{0,213}", _A),
    # crates.io name.
    "crate": lazy_compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}", _A),
    # A Python identifier (ASCII only) and a dotted module path.
    "identifier": lazy_compile(r"[A-Za-z_][A-Za-z0-9_$]{0,127}", _A),
    "py_module": lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){0,20}", _A),
    # A Go standard-library package path (`strings`, `path/filepath`).
    "go_import": lazy_compile(r"[a-z][a-z0-9_]*(?:/[a-z][a-z0-9_]*){0,5}", _A),
    # pytest node id: a relative .py path then ::-separated names (params in []).
    "pytest_id": lazy_compile(
        r"[A-Za-z0-9_][A-Za-z0-9_./-]{0,250}\.py(?:::[A-Za-z_][A-Za-z0-9_]*(?:\[[A-Za-z0-9_.,=+-]{0,100}\])?){0,4}",
        _A,
    ),
    # unittest dotted id (package.module.Class.test).
    "unittest_id": lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){1,12}", _A),
    # go test function (optionally with subtests).
    "go_test": lazy_compile(
        r"(?:Test|Example|Benchmark|Fuzz)[A-Za-z0-9_]*(?:/[A-Za-z0-9_-]+){0,4}", _A
    ),
    "go_package": lazy_compile(r"(?:\./)?[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+){0,20}|\./\.\.\.", _A),
    # cargo test filter (a path of Rust identifiers).
    "cargo_test": lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*){0,10}", _A),
    # jest/vitest test title: words, spaces and a few punctuation marks.
    "test_title": lazy_compile(r"[A-Za-z0-9_][A-Za-z0-9_ .,:'()#/>+=-]{0,250}", _A),
}


def valid(kind: str, value: str) -> bool:
    """Whether a value from tool output is safe to use as one argv element."""
    pattern = PATTERNS[kind]
    return (
        isinstance(value, str)
        and not value.startswith("-")
        and "\x00" not in value
        and pattern.fullmatch(value) is not None
    )


def require(kind: str, value: str) -> str:
    """`value` if valid, else UnsafeEdit."""
    if not valid(kind, value):
        raise UnsafeEdit(f"refusing {kind} value from tool output: {value!r}")
    return value


def relative_posix(path: str) -> PurePosixPath:
    """A workspace-relative path, or UnsafeEdit (absolute, `..`, empty, NUL)."""
    if not path or "\x00" in path or "\\" in path:
        raise UnsafeEdit(f"not a workspace-relative path: {path!r}")
    p = PurePosixPath(path)
    if p.is_absolute() or re.match(r"^[A-Za-z]:", path):
        raise UnsafeEdit(f"absolute path refused: {path!r}")
    if any(part == ".." for part in p.parts):
        raise UnsafeEdit(f"path leaves the workspace: {path!r}")
    if not p.parts or p.parts == (".",):
        raise UnsafeEdit(f"not a file path: {path!r}")
    return p


def _within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _git_part(parts: tuple[str, ...]) -> bool:
    return any(part.casefold() == ".git" for part in parts)


def inside_workspace(ws: Workspace, path: str) -> Path:
    """The absolute path of a workspace-relative `path` (relative to roots[0]),
    refusing anything that is or resolves (through symlinks) outside every
    root, into any `.git` (the repository's, a nested repository's, or one
    reached through a symlinked folder), or into faultlens' own state dir."""
    rel = relative_posix(path)
    if _git_part(rel.parts):
        raise UnsafeEdit(f"refusing to edit git internals: {path!r}")
    target = ws.root.joinpath(*rel.parts)
    real = Path(os.path.realpath(target))
    root = next((r for r in ws.roots if _within(real, r)), None)
    if root is None:
        raise UnsafeEdit(f"path resolves outside the workspace: {path!r}")
    if _git_part(real.relative_to(root).parts):
        raise UnsafeEdit(f"refusing to edit git internals: {path!r} resolves to {real}")
    state = ws.state_dir
    if state is not None and state not in ws.roots and _within(real, state):
        raise UnsafeEdit(f"refusing to edit faultlens' own state: {path!r}")
    return target


def to_workspace_relative(ws: Workspace, path: str | Path) -> str:
    """A path (absolute, or relative to roots[0]) as a workspace-relative posix
    path; UnsafeEdit when outside every root."""
    p = Path(path)
    full = p if p.is_absolute() else ws.root / p
    full = Path(os.path.normpath(full))
    for root in ws.roots:
        if _within(full, root):
            rel = full.relative_to(ws.root) if _within(full, ws.root) else None
            if rel is None:
                break
            return rel.as_posix()
    raise UnsafeEdit(f"outside the workspace: {path}")
