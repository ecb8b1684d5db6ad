"""Reading the files that output and workspace state name.

A path printed by a build, a test or a hostile dependency can name anything:
a FIFO (`open` blocks until someone writes to it), a character device or a
symlink to one (`/dev/zero` never ends), a file of gigabytes.  Every read of a
file named that way goes through this module, which

* reads regular files only (`stat` before opening, so a device is never even
  opened, and `fstat` after, so a file swapped meanwhile is caught too);
* opens with `O_NONBLOCK` (a FIFO put there between the two checks cannot
  block the open) and `O_NOCTTY`;
* reads at most `limit` bytes, and refuses a file that is larger.

Whether the path lies inside the workspace is the caller's question: `inside`
answers it (and gives the resolved path to read).  Standard library only.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

MAX_TEXT = 16 * 1024 * 1024  # a source, config or manifest file larger than this is not read
_CHUNK = 1 << 20
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)

StrPath = str | os.PathLike[str]


class UnreadableFile(OSError):
    """A file faultlens will not read: not a regular file, or too large."""


def _check(st: os.stat_result, path: StrPath, limit: int | None) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableFile(errno.EINVAL, "not a regular file", os.fspath(path))
    if limit is not None and st.st_size > limit:
        raise UnreadableFile(errno.EFBIG, f"larger than {limit} bytes", os.fspath(path))


def _open(path: StrPath, limit: int | None) -> int:
    _check(os.stat(path), path, limit)
    fd = os.open(path, _FLAGS)
    try:
        _check(os.fstat(fd), path, limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: StrPath, limit: int = MAX_TEXT) -> bytes:
    """The bytes of a regular file of at most `limit` bytes.  Raises OSError
    (UnreadableFile for a special file or a file over the limit)."""
    fd = _open(path, limit)
    try:
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, min(_CHUNK, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew since fstat
                raise UnreadableFile(errno.EFBIG, f"larger than {limit} bytes", os.fspath(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(
    path: StrPath, limit: int = MAX_TEXT, *, encoding: str = "utf-8", errors: str = "strict"
) -> str:
    """The text of a regular file of at most `limit` bytes, as Path.read_text
    gives it (universal newlines: CRLF and CR read as LF).  Raises OSError, and
    UnicodeDecodeError with errors="strict"."""
    text = read_bytes(path, limit).decode(encoding, errors)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def text_or_none(path: StrPath, limit: int = MAX_TEXT) -> str | None:
    """The file's UTF-8 text (undecodable bytes replaced), or None when it
    cannot or must not be read."""
    try:
        return read_text(path, limit, errors="replace")
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return None


def open_stream(path: StrPath) -> BinaryIO:
    """A regular file opened for reading as a stream (a watched log: any size,
    read in pieces).  Raises OSError (UnreadableFile for a special file)."""
    fd = _open(path, None)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def inside(path: StrPath, roots: Iterable[StrPath]) -> Path | None:
    """`path` with every symlink resolved, when it lies inside one of `roots`
    (also resolved); None otherwise.  Read the path it returns, not the one
    given, so that the file read is the file checked."""
    try:
        real = Path(os.path.realpath(path))
        if any(real.is_relative_to(os.path.realpath(r)) for r in roots):
            return real
    except (OSError, ValueError):
        pass
    return None
