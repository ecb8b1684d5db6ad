"""pip: a requirement no index has (a misspelt name, a version never
published, or none for this Python or platform)."""

from __future__ import annotations

import re
from typing import Any

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule

_FROM_FILE = re.compile(r"\(from -r (?P<file>\S+?) \(line \d+\)\)")
_VERSIONS = re.compile(
    r"^ERROR: Could not find a version that satisfies the requirement \S+ \(from versions: (?P<versions>.*)\)\s*$"
)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


@rule(
    id="python.pip_no_distribution",
    category=FailureType.COMPILE,
    tool="pip",
    pattern=r"^ERROR: No matching distribution found for (?P<req>\S+)\s*$",
    triggers=("ERROR: No matching distribution found for ",),
    url="https://pip.pypa.io/en/stable/user_guide/#requirements-files",
)
def pip_no_distribution(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A requirement pip found no distribution for, with the index reachable.

    What it detects: `ERROR: No matching distribution found for REQ`, with
    the versions the index has from the `Could not find a version that
    satisfies the requirement` line above it (`none`: no such project).
    When pip could not reach its index the same lines follow its retry
    warnings, and infra.pip_network (which runs first) reads them.  The
    record is on the requirement's line in the requirements file pip was
    reading (`(from -r FILE (line N))`), else in requirements.txt when
    the working directory has one (classifier/manifests.py).

    Example output (`pip install -r requirements.txt`, pip 23.2.1):
        ERROR: Could not find a version that satisfies the requirement reqeusts-toolbelt==1.0.0 (from versions: none)
        ERROR: No matching distribution found for reqeusts-toolbelt==1.0.0

    Recipe: compile (correct the name or the pinned version). hint:
    package, requirement, versions, manifest_entry.

    References: https://pip.pypa.io/en/stable/user_guide/#requirements-files
    """
    req = m.group("req")
    name = _NAME.match(req)
    if name is None:
        return None
    package = name.group(0)
    hint: dict[str, Any] = {"package": package, "requirement": req, "ecosystem": "pypi"}
    manifest: str | None = None
    for prev in reversed(ctx.before(200)):
        if manifest is None and (f := _FROM_FILE.search(prev)):
            manifest = f.group("file")
        if "versions" not in hint and (v := _VERSIONS.match(prev)):
            versions = v.group("versions").strip()
            hint["versions"] = [] if versions == "none" else versions.split(", ")[-10:]
    if manifest is None and ctx.exists("requirements.txt"):
        manifest = "requirements.txt"
    if manifest is not None:
        hint["manifest_entry"] = package
    known = hint.get("versions")
    why = "no such project on the index" if known == [] else "no release matches"
    return Hit(
        signal=ctx.line.strip(),
        message=f"pip: {req}: {why}",
        file=manifest,
        code="no-matching-distribution",
        hint=hint,
    )
