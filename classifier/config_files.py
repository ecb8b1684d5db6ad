"""Finding and reading a project's configuration file: the nearest
.faultlens.toml or pyproject.toml with a [tool.faultlens] table, walking up
to the repository's root; regular files only, size-capped."""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from pathlib import Path

CONFIG_FILES = (".faultlens.toml", "pyproject.toml")
MAX_CONFIG_BYTES = 1024 * 1024


def find_config(start: str | os.PathLike[str]) -> Path | None:
    """The config file that applies to `start`: nearest folder upward."""
    # (strings and os.stat: this walk runs for every classification; the
    # same answers as Path.is_file / Path.exists over Path.parents)
    folder = os.path.abspath(start)
    while True:
        for name in CONFIG_FILES:
            candidate = os.path.join(folder, name)
            mode = _mode(candidate)
            if (
                mode is not None
                and stat.S_ISREG(mode)
                and (name != "pyproject.toml" or _has_table(Path(candidate)))
            ):
                return Path(candidate)
        if _mode(os.path.join(folder, ".git")) is not None:
            return None
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _mode(path: str) -> int | None:
    """The file's st_mode, None where Path.is_file/exists would say False
    (other errors are raised, as pathlib does)."""
    try:
        return os.stat(path).st_mode
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return None
        raise
    except ValueError:
        return None


def file_stamp(path: Path) -> tuple[int, int]:
    """What tells a changed file: its modification time (ns) and size."""
    st = path.stat()
    return st.st_mtime_ns, st.st_size


# pyproject.toml (path, stamp) -> whether faultlens reads it: a project's
# pyproject.toml is parsed once per change, not once per classification.
_tables: dict[tuple[Path, tuple[int, int]], bool] = {}


def _has_table(pyproject: Path) -> bool:
    """Whether a pyproject.toml has a [tool.faultlens] table, or a `tool`
    of a shape that makes one unreadable (then its error is reported)."""
    try:
        key = (pyproject, file_stamp(pyproject))
    except OSError:
        return False
    found = _tables.get(key)
    if found is None:
        try:
            data = tomllib.loads(read_config_bytes(pyproject).decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return False
        tool = data.get("tool")
        found = tool is not None and (not isinstance(tool, dict) or "faultlens" in tool)
        if len(_tables) >= 256:
            _tables.clear()
        _tables[key] = found
    return found


def read_config_bytes(path: Path, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """A config file's bytes: a regular file (never a FIFO or a device),
    at most `limit` bytes, opened without blocking (classifier/files.py)."""
    from .files import read_bytes

    return read_bytes(path, limit)


def read_tasks_json(folder: Path) -> bytes | None:
    path = folder / ".vscode" / "tasks.json"
    try:
        return read_config_bytes(path)
    except FileNotFoundError:
        return None
