"""Infra rules for the machine a command runs on: a variable the environment
lacks, a permission denied, a full disk."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import (
    PRIORITY,
    infra_hint,
)

# -- environment, permissions, disk ------------------------------------------------

_BASH_ERRORS = (
    "command not found",
    "No such file or directory",
    "Permission denied",
    "syntax error",
    "bad substitution",
    "ambiguous redirect",
    "is a directory",
    "readonly variable",
    "integer expression expected",
)


@rule(
    id="infra.env_not_set",
    category=FailureType.INFRA,
    tool="shell",
    pattern=(
        r"^(?P<file>[^\s:][^:]*): line (?P<line>\d+): (?P<var>[A-Za-z_]\w{0,127}): (?P<message>.+)$"
        r"|(?:[Ee]nvironment variable|[Ee]nv var)s? [`'\"]?(?P<evar>[A-Z_][A-Z0-9_]{0,127})[`'\"]? (?:is )?(?:not set|missing|required|undefined|empty)"
        r"|[Mm]issing (?:required )?environment variables?:? [`'\"]?(?P<mvar>[A-Z_][A-Z0-9_]{0,127})"
        r"|(?<![\w`'\"])[`'\"]?(?P<pvar>[A-Z_][A-Z0-9_]{0,127})[`'\"]? (?:environment variable|env var) (?:is )?(?:not set|missing|required|undefined)"
    ),
    triggers=(": line ", "nvironment variable", "nv var"),
    url="https://www.gnu.org/software/bash/manual/html_node/Shell-Parameter-Expansion.html",
    priority=PRIORITY,
)
def env_not_set(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A required environment variable that is not set.

    What it detects: bash's `${VAR:?}` / `${VAR:?message}` failure
    (`deploy.sh: line 3: DEPLOY_TOKEN: parameter null or not set`, or the
    script's own message), `set -u`'s `VAR: unbound variable` for an
    upper-case name, and the common wording of programs ("environment
    variable X is not set", "Missing required environment variable: X",
    "X environment variable is required").  Other bash errors of the same
    shape (command not found, no such file) are not matched.

    Example output (`bash deploy.sh`, GNU bash 5.2):
        deploy.sh: line 3: DEPLOY_TOKEN: parameter null or not set

    Recipe: infra, permanent: escalated with hint["variable"] (and the
    script line that requires it).

    References: https://www.gnu.org/software/bash/manual/html_node/Shell-Parameter-Expansion.html
    """
    var = m.group("var")
    file = line = None
    if var:
        message = m.group("message").strip()
        if any(e in message for e in _BASH_ERRORS):
            return None
        shape = message in ("parameter null or not set", "parameter not set")
        if not shape and not (message == "unbound variable" or var.isupper()):
            return None
        file, line = m.group("file"), int(m.group("line"))
        if file.startswith(("bash", "sh", "/bin/", "/usr/bin/")) and not ctx.exists(file):
            file = line = None
    else:
        var = m.group("evar") or m.group("mvar") or m.group("pvar")
    return Hit(
        signal=ctx.line.strip(),
        message=f"environment variable {var} is not set",
        file=file,
        line=line,
        hint=infra_hint("env", variable=var),
    )


# A Python exception line: the python.traceback rule reports it (as infra
# for PermissionError / ENOSPC) at the frame that raised it, which says more
# than the path alone.
_PY_EXCEPTION = lazy_compile(r"^\s*[\w.]*(?:Error|Exception): ")


@rule(
    id="infra.permission_denied",
    category=FailureType.INFRA,
    tool="os",
    pattern=(
        r"(?:^|(?<=[\s:'\"‘’]))(?P<path>[^\s:'\"‘’]+)['\"’]?: Permission denied\s*$"
        r"|EACCES: permission denied, \w+ '(?P<epath>[^']+)'"
        r"|Permission denied \((?P<auth>publickey[^)]*)\)"
        r"|\[Errno 13\] Permission denied: '(?P<ppath>[^']+)'"
    ),
    triggers=("Permission denied", "permission denied"),
    url="https://man7.org/linux/man-pages/man3/errno.3.html",
    priority=PRIORITY,
)
def permission_denied(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """Permission denied (EACCES) on a file, a script, a socket or SSH.

    What it detects: `bash: line 1: ./deploy.sh: Permission denied`, node's
    `EACCES: permission denied, open '/var/log/app.log'`, Python's
    `[Errno 13] Permission denied: 'x'`, and `Permission denied
    (publickey)` from ssh / git over ssh (infra, not a branch problem).

    Example output (`bash -c ./deploy.sh`, a script without the x bit):
        bash: line 1: ./deploy.sh: Permission denied

    Recipe: infra, permanent: escalated with hint["path"] (or the SSH
    key problem); a script in the workspace that is not executable is
    named so the human can `chmod +x` it.

    References: https://man7.org/linux/man-pages/man3/errno.3.html
    """
    if m.group("auth"):
        return Hit(signal=ctx.line.strip(), hint=infra_hint("permission", auth=m.group("auth")))
    if m.group("ppath") and _PY_EXCEPTION.match(ctx.line):
        return None
    path = (m.group("path") or m.group("epath") or m.group("ppath") or "").strip()
    file = path if path and ctx.exists(path) else None
    return Hit(
        signal=ctx.line.strip(),
        message=f"{path}: Permission denied" if path else ctx.line.strip(),
        file=file,
        hint=infra_hint("permission", path=path or None),
    )


_WRITING = lazy_compile(
    r"(?:error writing|cannot (?:create|write|open)(?: to)?|write) ['\"‘]?(?P<path>/[^'\"’:]+)"
)


@rule(
    id="infra.disk_full",
    category=FailureType.INFRA,
    tool="os",
    pattern=r"No space left on device|\bENOSPC\b",
    triggers=("No space left on device", "ENOSPC"),
    url="https://man7.org/linux/man-pages/man3/errno.3.html",
    priority=PRIORITY,
)
def disk_full(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """The disk (or a tmpfs, or a quota) is full.

    What it detects: `No space left on device` (ENOSPC) from any tool:
    coreutils, compilers, docker, pip, npm (`ENOSPC: no space left on
    device, write`).

    Example output (`dd ... of=/tmp/fl-tiny/artifact.tar` on a 64k tmpfs):
        dd: error writing '/tmp/fl-tiny/artifact.tar': No space left on device

    Recipe: infra, permanent: escalated with the path being written
    (hint["path"]) so a human can free space there (`df -h` on it).

    References: https://man7.org/linux/man-pages/man3/errno.3.html
    """
    if _PY_EXCEPTION.match(ctx.line) and "[Errno 28]" in ctx.line:
        return None
    path = _WRITING.search(ctx.line)
    return Hit(
        signal=ctx.line.strip(),
        message="No space left on device",
        hint=infra_hint("disk-full", path=path.group("path") if path else None),
        key=("disk-full", path.group("path") if path else ""),
    )
