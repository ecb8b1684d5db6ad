"""Resolving the paths printed in output to workspace locations.

A path is reported relative to the working directory the output was produced
in when the file is inside it, absolute otherwise, and as printed when it
cannot be found at all.  CI runners print absolute paths from their own
checkout (`/home/runner/work/app/app/src/x.ts`, or on Windows
`D:\\a\\app\\app\\src\\x.ts`); when the tail of such a path names a file that exists
under the cwd, it is mapped onto it.
"""

from __future__ import annotations

import itertools
import ntpath
import os
import re
from functools import lru_cache
from pathlib import Path, PureWindowsPath

from .files import inside, text_or_none
from .lazyre import lazy_compile

_VENDORED = frozenset(
    {
        "site-packages",
        "dist-packages",
        "node_modules",
        ".venv",
        "venv",
        ".tox",
        ".cargo",
        ".rustup",
        "vendor",
        "third_party",
    }
)
_MAX_PARTS = 40
# A Windows absolute path (`D:/a/app/app/src/x.ts`, `D:\a\...`): a CI runner on
# Windows.  On POSIX it would pass for a relative path.
_WINDOWS_ABSOLUTE = lazy_compile(r"^[A-Za-z]:[\\/]")


def _in_go_module_cache(parts: tuple[str, ...]) -> bool:
    """`.../pkg/mod/...`: Go's module cache (a project's own `pkg/` is not)."""
    return any(a == "pkg" and b == "mod" for a, b in itertools.pairwise(parts))


class Locator:
    """Resolves printed paths against one working directory."""

    def __init__(self, cwd: str | os.PathLike[str] = ".") -> None:
        self.cwd = Path(os.path.abspath(cwd))
        self._cwd_real = Path(os.path.realpath(self.cwd))
        # (base, base + "/") for the cwd and its real path: the string form
        # of `Path.relative_to` for normalised absolute paths
        self._bases = [(str(b), str(b).rstrip("/") + "/") for b in (self.cwd, self._cwd_real)]
        self._cwd_str = str(self.cwd)
        self.resolve = lru_cache(maxsize=4096)(self._resolve)
        # What the file system said, once per classification (as `resolve`)
        self._files: dict[str, bool] = {}
        # asked of every candidate line's path by the rules: once per path
        self.in_project = lru_cache(maxsize=4096)(self._in_project)

    @staticmethod
    def _clean(printed: str) -> str:
        p = printed.strip().strip("'\"`")
        if p.startswith("file://"):
            p = p[len("file://") :]
        return p

    def _resolve(self, printed: str) -> str:
        """The path to report for a printed path; an installed copy of one of
        the project's own files is its source (`_installed_source`)."""
        found = self._resolve_printed(printed)
        if "-packages/" in found:
            return self._installed_source(found) or found
        return found

    def _installed_source(self, found: str) -> str | None:
        """The project's source file that `found`, a file in a site-packages
        or dist-packages folder, is an installed copy of (tox, nox and a
        non-editable `pip install .` run the tests against the copy): the
        path after that folder names a file of the same size under the cwd,
        directly or under `src/`, `lib/` or `python/` (any such file when
        the copy is gone: a log read after its environment was removed)."""
        tail = re.split(r"/(?:site|dist)-packages/", found, maxsplit=1)[-1]
        if tail == found or tail.startswith(("/", "..")) or "/../" in tail:
            return None
        printed = Path(found) if found.startswith("/") else self.cwd / found
        try:
            size = printed.stat().st_size if printed.is_file() else None
            for base in ("src/", "", "lib/", "python/"):
                mine = self.cwd / f"{base}{tail}"
                same = mine != printed and mine.is_file()
                if same and (size is None or mine.stat().st_size == size):
                    return f"{base}{tail}"
        except (OSError, ValueError):
            return None
        return None

    def _resolve_printed(self, printed: str) -> str:
        plain = _plain_relative(printed) if len(printed) <= _CACHED_CHARS else None
        if plain is not None:
            return plain
        p = self._clean(printed)
        if not p:
            return printed
        if _WINDOWS_ABSOLUTE.match(p):
            windows = PureWindowsPath(ntpath.normpath(p))
            return self._map_suffix(windows.parts[1:]) or windows.as_posix()
        if "\\" in p and not os.path.isabs(p):
            p = PureWindowsPath(p).as_posix()
        if not p.startswith("/"):  # Path(p).is_absolute(), on POSIX
            norm = os.path.normpath(p)
            if norm.startswith(".."):
                full = os.path.normpath(self.cwd / norm)
                return self._relative_or_absolute(full)
            # normpath left no empty, "." or trailing part: Path would print
            # it the same (PurePosixPath(Path(norm).as_posix()).as_posix())
            return norm
        return self._relative_or_absolute(os.path.normpath(p))

    def _relative_or_absolute(self, full: str) -> str:
        if full.startswith("//"):  # Path keeps a leading "//" as its root
            for base in (self.cwd, self._cwd_real):
                try:
                    rel = Path(full).relative_to(base)
                except ValueError:
                    continue
                return rel.as_posix()
        else:
            for base_str, prefix in self._bases:
                if full == base_str:
                    return "."
                if full.startswith(prefix):
                    return full[len(prefix) :]
        if not os.path.exists(full):
            mapped = self._map_suffix(Path(full).parts[1:])
        else:
            mapped = self._map_same_checkout(Path(full))
        if mapped is not None:
            return mapped
        return Path(full).as_posix()

    def _map_same_checkout(self, full: Path) -> str | None:
        """An existing file in another copy of this tree (the same checkout
        cloned elsewhere, as CI does): the printed path runs through a folder
        named like the cwd, and the rest of it names a file of the same size
        under the cwd."""
        parts = full.parts
        for i in range(len(parts) - 2, 0, -1):
            if parts[i] == self.cwd.name:
                rest = Path(*parts[i + 1 :])
                mine = self.cwd / rest
                try:
                    if mine.is_file() and mine.stat().st_size == full.stat().st_size:
                        return rest.as_posix()
                except OSError:
                    return None
        return None

    def _map_suffix(self, parts: tuple[str, ...]) -> str | None:
        parts = parts[-_MAX_PARTS:]
        if ".." in parts:  # normalised paths have none; a tail must not climb out
            return None
        for i in range(len(parts)):
            tail = Path(*parts[i:])
            if _is_file(self.cwd / tail):
                return tail.as_posix()
        return None

    def exists(self, printed: str) -> bool:
        """Whether the printed path names an existing file."""
        resolved = self.resolve(printed)
        return self._is_file(resolved)

    def _in_project(self, printed: str) -> bool:
        """Inside the working tree and not in an installed or vendored folder
        (`in_project`, cached)."""
        resolved = self.resolve(printed)
        if resolved.startswith("/") or resolved.startswith(".."):
            return False
        parts = tuple(x for x in resolved.split("/") if x and x != ".")  # Path(resolved).parts
        if any(part in _VENDORED for part in parts) or _in_go_module_cache(parts):
            return False
        return self._is_file(resolved)

    def _is_file(self, resolved: str) -> bool:
        """`_is_file(cwd / resolved)`, asked once per path."""
        found = self._files.get(resolved)
        if found is None:
            if resolved.endswith("/"):  # Path drops a trailing "/"; stat would not
                path = Path(resolved)
                found = _is_file(path if path.is_absolute() else self.cwd / path)
            else:
                found = os.path.isfile(os.path.join(self._cwd_str, resolved))
            self._files[resolved] = found
        return found


_CACHED_CHARS = 1024  # a longer printed path is resolved every time (bounds the cache)


@lru_cache(maxsize=8192)
def _plain_relative(printed: str) -> str | None:
    """What `Locator._resolve` makes of a printed relative path that does not
    climb out with `..`: the normalised path, the same under any cwd (so
    cached across classifications); None for any other path."""
    p = Locator._clean(printed)
    if not p or _WINDOWS_ABSOLUTE.match(p):
        return None
    if "\\" in p and not os.path.isabs(p):
        p = PureWindowsPath(p).as_posix()
    if p.startswith("/"):
        return None
    norm = os.path.normpath(p)
    return None if norm.startswith("..") else norm


def _is_file(path: Path) -> bool:
    """Path.is_file, but False for any OS error (a printed name too long for
    the file system, a NUL): output never makes a rule fail."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def read_in_tree(cwd: Path, name: str, limit: int) -> str | None:
    """The text of the file a record names, when it is a regular file inside
    the working tree `cwd` (no `..`, no symlink out) of at most `limit` bytes."""
    path = Path(name) if os.path.isabs(name) else cwd / name
    real = inside(path, [cwd])
    return None if real is None else text_or_none(real, limit)
