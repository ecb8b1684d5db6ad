"""The per-machine key that signs what faultlens leaves in the state dir.

A journal in `.faultlens/journal/` makes the next start write and delete
files; a ledger row names a command to re-run.  Both can arrive with a
checkout, so faultlens acts on them only when they carry an HMAC made with
this key, which never lives in a workspace:

    $XDG_STATE_HOME/faultlens/machine.key   (default ~/.local/state/faultlens)

32 random bytes, created on first use with mode 0600 in a folder of mode
0700.  It is used only when it is a regular file owned by the current user,
readable by nobody else, in a folder nobody else can write; anything else is
refused (MachineKeyError), never repaired.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import os
import secrets
import stat
import threading
from pathlib import Path

from .model import StateUnavailable

KEY_FILE = "machine.key"
KEY_BYTES = 32

_lock = threading.Lock()
_cache: dict[str, bytes] = {}


class MachineKeyError(StateUnavailable):
    """The machine key cannot be made or is not safe to use (one line)."""


def key_dir() -> Path:
    """Where the key lives: $XDG_STATE_HOME/faultlens, else ~/.local/state/faultlens
    (a relative XDG_STATE_HOME is ignored, as the XDG spec says)."""
    xdg = os.environ.get("XDG_STATE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "faultlens"
    try:
        home = Path.home()
    except (RuntimeError, KeyError) as exc:  # no HOME and no password entry
        raise MachineKeyError(
            f"no home folder for the machine key ({exc}): set XDG_STATE_HOME"
        ) from None
    if not home.is_absolute():  # HOME=relative: a folder of the working directory
        raise MachineKeyError(
            f"the home folder {str(home)!r} is not an absolute path: set XDG_STATE_HOME"
        )
    return home / ".local" / "state" / "faultlens"


def _check_dir(folder: Path) -> None:
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode):
        raise MachineKeyError(f"{folder} is not a folder: the machine key cannot be kept there")
    if st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise MachineKeyError(f"{folder} is writable by another user: the machine key is not used")


def _read(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size != KEY_BYTES:
            raise MachineKeyError(f"{path} is not a faultlens machine key")
        if st.st_uid != os.geteuid() or st.st_mode & 0o077:
            raise MachineKeyError(
                f"{path} is readable by others or not yours: the machine key is not used"
            )
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise MachineKeyError(f"{path} is not a faultlens machine key")
    return data


def _create(folder: Path, path: Path) -> None:
    """Write a new key next to `path` and link it into place (a concurrent
    creator's key wins; it is then read back)."""
    tmp = folder / f".{KEY_FILE}.{os.getpid()}-{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, secrets.token_bytes(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    with contextlib.suppress(OSError):
        dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def machine_key() -> bytes:
    """This machine's key, made on first use; MachineKeyError when it cannot
    be made or is not safe to use."""
    folder = key_dir()
    path = folder / KEY_FILE
    with _lock:
        cached = _cache.get(str(path))
        if cached is not None:
            return cached
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            _check_dir(folder)
            try:
                key = _read(path)
            except FileNotFoundError:
                _create(folder, path)
                key = _read(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise MachineKeyError(f"{path} is a symlink: the machine key is not used") from None
            why = exc.strerror or str(exc)
            raise MachineKeyError(f"cannot keep the machine key in {folder}: {why}") from None
        _cache[str(path)] = key
        return key


def sign(purpose: str, payload: bytes) -> str:
    """The HMAC-SHA256 of `payload` for `purpose` (a journal, a ledger), hex."""
    msg = purpose.encode("ascii") + b"\0" + payload
    return hmac.new(machine_key(), msg, hashlib.sha256).hexdigest()


def verify(purpose: str, payload: bytes, mac: object) -> bool:
    """Whether `mac` is this machine's signature of `payload` for `purpose`."""
    if not isinstance(mac, str) or len(mac) != 64:
        return False
    return hmac.compare_digest(sign(purpose, payload), mac)
