"""An index kept in the user's cache folder (classifier/cachefile.py) as JSON,
named by a digest of what it was built from (the toolchain's path and its
file's identity), and checked, once read, against the folders it was read
from (their modification times: installing a package changes them)."""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from faultlens.classifier import cachefile

FORMAT = 1


def key(prefix: str, *parts: str) -> str:
    digest = hashlib.sha256("\0".join((str(FORMAT), *parts)).encode()).hexdigest()[:24]
    return f"{prefix}-{digest}"


def file_identity(path: str) -> str:
    """A file's real path, size and modification time ('' when it is missing)."""
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError:
        return ""
    return f"{real}:{st.st_size}:{st.st_mtime_ns}"


def folder_stamps(folders: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for folder in folders:
        try:
            out[folder] = os.stat(folder).st_mtime_ns
        except OSError:
            out[folder] = -1
    return out


def load(name: str) -> dict[str, Any] | None:
    """The cached index `name`, when it is still what its folders hold."""
    blob = cachefile.read(name)
    if blob is None:
        return None
    try:
        data = json.loads(blob)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("stamps"), dict):
        return None
    stamps = data["stamps"]
    if folder_stamps(list(stamps)) != stamps:
        return None
    return data


def store(name: str, prefix: str, data: dict[str, Any], folders: list[str]) -> None:
    data = {**data, "stamps": folder_stamps(folders)}
    if cachefile.write(name, json.dumps(data, separators=(",", ":")).encode()):
        cachefile.prune(prefix, name, 8)
