"""The files faultlens keeps only to start faster, and how they are kept.

The prefilter's compiled database (classifier/prefilter.py) and the rule
patterns' compiled programs (classifier/recache.py) are derived from the
installed rules alone, so they live in the user's cache folder
($XDG_CACHE_HOME/faultlens, else ~/.cache/faultlens), never in a workspace:
nothing a repository holds is ever loaded as one.

Each file is written whole (a temporary file in the same folder, renamed over
the old one) and starts with a SHA-256 of what follows.  It is read back only
when it is a regular file (not a link, not a FIFO that would block the read)
of at most MAX_BYTES, and a file whose sum does not hold (a torn write, an
edit, another program's file of the same name) is a miss.  Failing to read
or write one changes nothing but speed, so every error here is a miss or a
skipped write, never an exception.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import string
import tempfile
from pathlib import Path

HEADER = b"faultlens-cache 1 sha256:"
MAX_BYTES = 64 << 20  # a larger file is not one of ours (the largest is ~0.5 MB)
_SUM = 64  # hex digits
# A cache file's name: a letter or digit, then at most 127 of these or `._-`
# (no regex: this module is imported before the regex store it holds).
_ALNUM = frozenset(string.ascii_letters + string.digits)
_NAME_CHARS = _ALNUM | frozenset("._-")


def cache_dir() -> Path | None:
    """$XDG_CACHE_HOME/faultlens, or ~/.cache/faultlens; None when neither is
    an absolute path (a relative XDG_CACHE_HOME is ignored, as the XDG spec
    says, and a home that cannot be found must not become a folder named `~`
    in the working directory: the workspace)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    return Path(base) / "faultlens"


def _path(name: str) -> Path | None:
    if not (0 < len(name) <= 128 and name[0] in _ALNUM and _NAME_CHARS.issuperset(name)):
        raise ValueError(f"bad cache file name {name!r}")
    folder = cache_dir()
    return None if folder is None else folder / name


def read(name: str) -> bytes | None:
    """What `write(name, ...)` stored, or None (absent, unreadable, damaged)."""
    path = _path(name)
    if path is None:
        return None
    blob = _read_regular(path)
    if blob is None:
        return None
    head = len(HEADER) + _SUM + 1
    if not blob.startswith(HEADER) or len(blob) < head or blob[head - 1 : head] != b"\n":
        return None
    payload = blob[head:]
    if hashlib.sha256(payload).hexdigest().encode() != blob[len(HEADER) : head - 1]:
        return None
    return payload


def _read_regular(path: Path) -> bytes | None:
    """The bytes of `path` when it is a regular file (not a link, a FIFO that
    would block, a device) of at most MAX_BYTES; else None."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
                return None
            # its size, not the bound: read(n) allocates n bytes up front (a
            # file that grew since is cut short, and its checksum then fails)
            blob = fh.read(st.st_size)
        except OSError:
            return None
    return blob


def write(name: str, payload: bytes) -> bool:
    """Store `payload` as the cache file `name` (readable by its owner only);
    whether it was stored."""
    path = _path(name)
    if path is None:
        return False
    digest = hashlib.sha256(payload).hexdigest().encode()
    tmp: str | None = None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.")
        with os.fdopen(fd, "wb") as fh:
            fh.write(HEADER + digest + b"\n" + payload)
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def prune(prefix: str, keep: str, most: int) -> None:
    """Remove the cache files named `prefix*` but the `most - 1` newest and
    `keep` (one per trigger set, say: an upgrade leaves the old ones)."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(prefix)]
        entries.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    others = [e for e in entries if e.name != keep]
    for entry in others[max(most - 1, 0) :]:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
