"""Infrastructure failures: transient or permanent, and what a human needs.

`is_transient` decides from the record (the classifier's hint["transient"]
first, then the kind, the exception and the signal).  `human_needs` gathers
the facts a person fixing a permanent failure wants: which variable (and
whether it is set now), which path (does it exist, its mode, is it
writable), the free space on its file system, which host.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from faultlens.classifier.lazyre import lazy_compile

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

TRANSIENT_KINDS = frozenset(
    {"refused", "reset", "dns", "timeout", "http-5xx", "rate-limit", "network", "unreachable"}
)
TRANSIENT_EXCEPTIONS = frozenset(
    {
        "ConnectionRefusedError",
        "ConnectionResetError",
        "ConnectionAbortedError",
        "TimeoutError",
        "socket.timeout",
        "socket.gaierror",
        "gaierror",
        "BrokenPipeError",
    }
)
_TRANSIENT_TEXT = lazy_compile(
    r"connection (?:refused|reset)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|"
    r"temporary failure in name resolution|could not resolve host|timed? ?out|"
    r"\b(?:502|503|504)\b|bad gateway|service unavailable|gateway timeout",
    re.IGNORECASE,
)
_VARIABLE = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}", re.ASCII)


def is_transient(record: FailureRecord) -> bool:
    hint = record.hint
    flag = hint.get("transient")
    if isinstance(flag, bool):
        return flag
    if str(hint.get("kind") or "") in TRANSIENT_KINDS:
        return True
    exc = str(hint.get("exception") or record.code or "")
    if exc in TRANSIENT_EXCEPTIONS or exc.rsplit(".", 1)[-1] in TRANSIENT_EXCEPTIONS:
        return True
    return bool(_TRANSIENT_TEXT.search(record.signal or ""))


def _human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


def _existing(path: Path) -> Path | None:
    for cand in (path, *path.parents):
        if cand.exists():
            return cand
    return None


def path_facts(raw: str, base: Path) -> list[str]:
    """Exists / mode / writable / free space of a path named by the failure."""
    path = Path(raw)
    full = path if path.is_absolute() else base / path
    out = [f"Path: {raw}"]
    try:
        if full.exists():
            st = full.stat()
            kind = "folder" if full.is_dir() else "file"
            out.append(
                f"It exists ({kind}, mode {stat.filemode(st.st_mode)}, owner uid {st.st_uid}); "
                f"readable: {os.access(full, os.R_OK)}, writable: {os.access(full, os.W_OK)}, "
                f"executable: {os.access(full, os.X_OK)}"
            )
        else:
            out.append("It does not exist")
        near = _existing(full)
        if near is not None:
            du = shutil.disk_usage(near)
            out.append(
                f"Free space on its file system ({near}): {_human_size(du.free)} of "
                f"{_human_size(du.total)} ({du.free * 100 // max(du.total, 1)}% free)"
            )
    except OSError as exc:
        out.append(f"Could not inspect it: {exc.strerror or exc}")
    return out


def human_needs(record: FailureRecord, base: Path, env: dict[str, str]) -> list[str]:
    """What a human needs to fix a permanent infra failure."""
    hint = record.hint
    out: list[str] = []
    kind = hint.get("kind")
    if kind:
        out.append(f"Kind: {kind}")
    var = hint.get("variable")
    if isinstance(var, str) and _VARIABLE.fullmatch(var):
        now = "set (non-empty)" if env.get(var) else "not set or empty"
        out.append(f"Variable: {var} ({now} in faultlens's environment); set it, then retry")
    path = hint.get("path")
    if isinstance(path, str) and path and "\x00" not in path:
        out.extend(path_facts(path, base))
    elif kind == "disk-full":
        out.extend(path_facts(str(base), base))
    for key in ("host", "url", "index"):
        value = hint.get(key)
        if isinstance(value, str) and value:
            out.append(f"{key.capitalize()}: {value}")
    for key in ("status", "exit_code", "curl_exit"):
        value = hint.get(key)
        if value is not None:
            out.append(f"{key.replace('_', ' ').capitalize()}: {value}")
    for key in ("service", "deployment", "pod", "resource", "step", "probe", "step_command"):
        value = hint.get(key)
        if isinstance(value, str) and value:
            out.append(f"{key.replace('_', ' ').capitalize()}: {value}")
    return out
