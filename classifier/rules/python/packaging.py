"""pip: a requirement no index has (a misspelt name, a version never
published, or none for this Python or platform)."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, lines_above
from ..registry import rule

_FROM_FILE = lazy_compile(r"\(from -r (?P<file>\S+?) \(line \d+\)\)")
_VERSIONS = lazy_compile(
    r"^ERROR: Could not find a version that satisfies the requirement \S+ \(from versions: (?P<versions>.*)\)\s*$"
)
_NAME = lazy_compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


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
    for prev in lines_above(ctx, 200):
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


# -- uv -----------------------------------------------------------------------------------
_UV_NOT_FOUND = lazy_compile(
    r"Because (?P<name>[A-Za-z0-9][\w.-]*) was not found in the package registry"
)
_UV_PROJECT_NEEDS = lazy_compile(
    r"(?:your project depends on|you require) (?P<reqs>.+?)(?:, we can conclude|$)"
)
_UV_PREFIX = lazy_compile(r"^\s*(?:cause:|╰─▶|×)?\s*")
MAX_EXPLANATION = 20


class UvResolution:
    """uv's explanation of why no resolution exists: the indented lines
    after its heading (wrapped at the terminal's width by uv 0.4, one
    sentence per line since)."""

    max_lines = 200

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.lines: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip() or not line[0].isspace():
            return False
        if len(self.lines) < MAX_EXPLANATION:
            self.lines.append(_UV_PREFIX.sub("", line).rstrip())
        return True

    def finish(self) -> list[Hit]:
        text = " ".join(x for x in self.lines if x)
        missing = _UV_NOT_FOUND.search(text)
        package: str | None = missing.group("name") if missing else None
        needs = list(_UV_PROJECT_NEEDS.finditer(text))
        reqs = needs[-1].group("reqs") if needs else None
        if package is None and reqs:  # a conflict: the last of the project's requirements named
            last = re.split(r",? and |, ", reqs)[-1]
            if name := _NAME.match(last.strip()):
                package = name.group(0)
        file = next((f for f in ("pyproject.toml", "requirements.txt") if self.ctx.exists(f)), None)
        hint: dict[str, Any] = {"ecosystem": "pypi", "explanation": self.lines}
        if package:
            hint["package"] = package
            if file:
                hint["manifest_entry"] = package
        if missing:
            why = f"{package} is not in the package registry"
        elif reqs:
            why = f"the project's requirements {reqs} cannot all be met"
        else:
            why = text[:300] or self.signal
        return [
            Hit(
                signal=self.signal,
                message=f"uv: no resolution: {why}",
                file=file,
                code="no-solution",
                log_line=self.log_line,
                hint=hint,
            )
        ]


@rule(
    id="python.uv_no_solution",
    category=FailureType.COMPILE,
    tool="uv",
    pattern=r"^(?:\s*×\s*|error: )No solution found when resolving dependencies:?\s*$",
    triggers=("No solution found when resolving dependencies",),
    url="https://docs.astral.sh/uv/concepts/resolution/",
)
def uv_no_solution(m: re.Match[str], ctx: LineContext) -> UvResolution:
    """uv finding no set of versions that satisfies the project.

    What it detects: `error: No solution found when resolving dependencies`
    (uv 0.5+; `× No solution found ...:` with a `╰─▶` explanation before)
    and the explanation under it.  A requirement that is not in the
    registry puts the record on its line in pyproject.toml (or
    requirements.txt); a version conflict on the line of the last of the
    project's own requirements the explanation names.

    Example output (`uv sync`, uv 0.13.9):
        error: No solution found when resolving dependencies
          cause: Because reqeusts-toolbelt was not found in the package registry and your project depends on reqeusts-toolbelt==1.0.0, we can conclude that your project's requirements are unsatisfiable.

    Recipe: compile (correct the name or relax the pins). hint: package,
    explanation, manifest_entry.

    References: https://docs.astral.sh/uv/concepts/resolution/
    """
    return UvResolution(ctx)
