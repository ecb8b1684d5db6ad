"""Files under the state dir (`.faultlens/`), read and written as untrusted.

A checkout can bring anything into `.faultlens/`: a symlink to `~/.bashrc`
named `events.jsonl`, a FIFO named `recipes/compile.md`, a `logs` folder that
is a link to `/etc`, a file of several gigabytes.  Everything here therefore

* walks from the (vetted) state dir one component at a time with
  `O_NOFOLLOW`, so no symlink under the state dir is ever followed;
* opens with `O_NONBLOCK`, so a FIFO never blocks an open, and accepts only
  regular files (`fstat` after the open, never a check before it);
* reads at most a given number of bytes.

It also carries the one-line reporting of state problems: `report` hands a
message to whoever started faultlens (the CLI prints it on stderr, the server
shows it), each distinct message once per process.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import secrets
import stat
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import BinaryIO

log = logging.getLogger(__name__)

OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
APPEND_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
TMP_MARK = ".faultlens-tmp-"


class UnsafeStateFile(OSError):
    """A state file that is not a regular file, is too large, or is reached
    through a symlink.  An OSError, so callers that already survive a missing
    or unreadable file survive this too."""


# -- reporting ------------------------------------------------------------------
_reporter: Callable[[str], None] | None = None
_said: set[str] = set()
_said_lock = threading.Lock()


def set_reporter(fn: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """Where `report` sends its messages (the CLI: stderr; the server: the
    client).  Returns the previous reporter."""
    global _reporter
    old, _reporter = _reporter, fn
    return old


def report(message: str, *, once: str | None = None) -> None:
    """Tell the user about workspace state: `message` is one line.  With
    `once`, only the first message with that key is said in this process."""
    if once is not None:
        with _said_lock:
            if once in _said:
                return
            _said.add(once)
    fn = _reporter
    if fn is None:
        log.warning("%s", message)
        return
    log.info("%s", message)  # the reporter is the user's channel: not twice on stderr
    with contextlib.suppress(Exception):
        fn(message)


def forget_reports() -> None:
    """Say every `once` message again (tests; a server whose workspace changed)."""
    with _said_lock:
        _said.clear()


def probe_writable(folder: Path) -> str | None:
    """None when a file can be made in `folder`, else why not (`Read-only
    file system`, `No space left on device`)."""
    name = folder / tmp_name("probe")
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        return describe(exc)
    try:
        os.write(fd, b"\n" * 4096)
    except OSError as exc:
        return describe(exc)
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(name)
    return None


def describe(exc: BaseException) -> str:
    """An OSError as a short phrase (`Read-only file system`), else its text."""
    if isinstance(exc, UnsafeStateFile) and exc.filename:
        return f"{exc.filename} is {exc.strerror}"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


# -- paths under the state dir -------------------------------------------------------
def parts_of(rel: str | PurePosixPath) -> list[str]:
    """The components of a state-relative path; ValueError for `..`, `/x`, ``."""
    p = PurePosixPath(rel)
    parts = list(p.parts)
    if p.is_absolute() or not parts or any(x in ("..", ".", "") for x in parts):
        raise ValueError(f"not a state-relative path: {rel!s}")
    return parts


def _open_dir_at(fd: int, name: str, create: bool) -> int:
    if create:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o755, dir_fd=fd)
    try:
        return os.open(name, OPEN_DIR, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise UnsafeStateFile(exc.errno, "a symlink or not a folder", name) from None
        raise


@contextlib.contextmanager
def dir_fd(base: Path, dirs: Sequence[str] = (), *, create: bool = False) -> Iterator[int]:
    """A descriptor of `base/dirs...`, reached without following a symlink
    below `base` (`base` itself was vetted by the Workspace).  With `create`,
    missing folders are made."""
    if create:
        base.mkdir(parents=True, exist_ok=True)
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for name in dirs:
            nfd = _open_dir_at(fd, name, create)
            os.close(fd)
            fd = nfd
        yield fd
    finally:
        os.close(fd)


def _check_regular(fd: int, name: str, limit: int | None) -> os.stat_result:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeStateFile(errno.EINVAL, "not a regular file", name)
    if limit is not None and st.st_size > limit:
        raise UnsafeStateFile(errno.EFBIG, f"larger than {limit} bytes", name)
    return st


def _open_leaf(fd: int, name: str, flags: int, mode: int = 0o644) -> int:
    try:
        return os.open(name, flags, mode, dir_fd=fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeStateFile(exc.errno, "a symlink", name) from None
        if exc.errno == errno.ENXIO:  # a FIFO without a reader (O_NONBLOCK)
            raise UnsafeStateFile(exc.errno, "not a regular file", name) from None
        raise


def _read_fd(fd: int, name: str, limit: int) -> bytes:
    _check_regular(fd, name, limit)
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, min(1 << 20, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:  # it grew while we read
            raise UnsafeStateFile(errno.EFBIG, f"larger than {limit} bytes", name)
    return b"".join(chunks)


def read_state(state: Path, rel: str, limit: int) -> bytes:
    """A file under the state dir (no symlink anywhere below `state`)."""
    *dirs, leaf = parts_of(rel)
    with dir_fd(state, dirs) as dfd:
        fd = _open_leaf(dfd, leaf, READ_FLAGS)
        try:
            return _read_fd(fd, rel, limit)
        finally:
            os.close(fd)


def list_state(state: Path, rel: str) -> list[str]:
    """The names in a folder under the state dir ([] when it is missing)."""
    try:
        with dir_fd(state, parts_of(rel)) as dfd:
            return sorted(os.listdir(dfd))
    except FileNotFoundError:
        return []


def _append_at(dfd: int, leaf: str, rel: str, data: bytes) -> None:
    fd = _open_leaf(dfd, leaf, APPEND_FLAGS)
    try:
        _check_regular(fd, rel, None)
        fcntl.flock(fd, fcntl.LOCK_EX)
        st = os.fstat(fd)
        if st.st_size and os.pread(fd, 1, st.st_size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    finally:
        os.close(fd)


def append_state(state: Path, rel: str, data: bytes) -> None:
    """Append `data` to a file under the state dir with one write on an
    O_APPEND descriptor (several processes may append at once).

    A line is never merged with a torn one: when the file does not end with a
    newline (an earlier write was cut short by a full disk or a kill), a
    newline goes first, so the torn line stays a line of its own that readers
    skip.  The look at the last byte and the write happen under an advisory
    lock, so a writer never mistakes another's write in progress for a torn
    line."""
    append_many(state, {rel: data})


def append_many(state: Path, writes: Mapping[str, bytes]) -> None:
    """`append_state` for several files, walking each folder once."""
    with dir_fd(state, create=True) as base:
        opened: dict[tuple[str, ...], int] = {}
        try:
            for rel, data in writes.items():
                *dirs, leaf = parts_of(rel)
                key = tuple(dirs)
                dfd = opened.get(key)
                if dfd is None:
                    dfd = base
                    for i, name in enumerate(dirs):
                        sub = opened.get(key[: i + 1])
                        if sub is None:
                            sub = opened[key[: i + 1]] = _open_dir_at(dfd, name, True)
                        dfd = sub
                _append_at(dfd, leaf, rel, data)
        finally:
            for fd in opened.values():
                os.close(fd)


def tmp_name(name: str) -> str:
    """A temporary name beside `name`, marked with our pid (see `is_tmp_of`)."""
    return f".{name}{TMP_MARK}{os.getpid()}-{secrets.token_hex(4)}"


def tmp_pid(name: str) -> int | None:
    """The pid in a temporary name made by `tmp_name`, else None."""
    if TMP_MARK not in name or not name.startswith("."):
        return None
    tail = name.rsplit(TMP_MARK, 1)[1]
    pid, _, rand = tail.partition("-")
    if not pid.isdigit() or len(rand) != 8 or not all(c in "0123456789abcdef" for c in rand):
        return None
    return int(pid)


def write_state(
    state: Path, rel: str, data: bytes, mode: int = 0o644, *, durable: bool = True
) -> None:
    """Replace a file under the state dir atomically (a temporary file, fsync,
    rename).  The rename replaces a symlink itself, never its target.
    `durable=False` skips the fsyncs (a copy that can be made again, such as
    a run log: whole or absent after a crash, maybe not on disk yet)."""
    *dirs, leaf = parts_of(rel)
    with dir_fd(state, dirs, create=True) as dfd:
        tmp = tmp_name(leaf)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode, dir_fd=dfd)
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            if durable:
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dfd)
            raise
        os.close(fd)
        try:
            os.replace(tmp, leaf, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dfd)
            raise
        if durable:
            with contextlib.suppress(OSError):
                os.fsync(dfd)


def open_for_write(path: Path) -> BinaryIO:
    """`path` opened for writing from the start (truncated), refusing a final
    symlink and anything but a regular file; its folder must have been made
    with `ensure_dirs` (which refuses symlinks on the way)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):
            raise UnsafeStateFile(exc.errno, "a symlink or not a regular file", str(path)) from None
        raise
    try:
        _check_regular(fd, str(path), None)
        os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "wb")


def remove_state(state: Path, rel: str) -> bool:
    """Remove a file (or a symlink: never its target) under the state dir;
    whether it was there."""
    *dirs, leaf = parts_of(rel)
    try:
        with dir_fd(state, dirs) as dfd:
            os.unlink(leaf, dir_fd=dfd)
    except FileNotFoundError:
        return False
    return True


def rename_state(state: Path, rel: str, new_leaf: str) -> None:
    """Rename a file under the state dir within its folder."""
    *dirs, leaf = parts_of(rel)
    parts_of(new_leaf)
    with dir_fd(state, dirs) as dfd:
        os.replace(leaf, new_leaf, src_dir_fd=dfd, dst_dir_fd=dfd)


def regular_or_absent(path: Path) -> str | None:
    """None when `path` is missing or a regular file (not a symlink), else
    what it is ("a symlink", "a folder", ...)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISLNK(st.st_mode):
        return "a symlink"
    if stat.S_ISDIR(st.st_mode):
        return "a folder"
    return "not a regular file"


def ensure_dirs(state: Path, rel: str) -> Path:
    """Make `state/rel` (folders), refusing a symlink on the way; its path."""
    with dir_fd(state, parts_of(rel), create=True):
        pass
    return state.joinpath(*parts_of(rel))
