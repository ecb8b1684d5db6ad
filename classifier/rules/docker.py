"""Containers: hadolint, the Dockerfile linter, in its text formats (tty,
gnu); its json and checkstyle reports are structured inputs
(classifier/structured/lint_reports.py).

hadolint exits 1 when a finding is at or above `--failure-threshold`
(default: info): error, warning and info findings fail the run; `style`
ones do not, and are warning hits (docs/warnings.md). Findings of the
ShellCheck it runs on `RUN` lines (`SC2164`) count the same.
"""

from __future__ import annotations

import re

from ..taxonomy import FailureType
from .base import Hit, LineContext, hit_from_match
from .registry import rule

ECOSYSTEM = "Containers"
_RULES = "https://github.com/hadolint/hadolint#rules"
_CODE = r"(?P<code>DL\d{4}|SC\d{4})"
_LEVEL = r"(?P<level>error|warning|info|style)"


def _hadolint_hit(m: re.Match[str], ctx: LineContext) -> Hit:
    code, level = m.group("code"), m.group("level")
    wiki = (
        f"https://www.shellcheck.net/wiki/{code}"
        if code.startswith("SC")
        else f"https://github.com/hadolint/hadolint/wiki/{code}"
    )
    return hit_from_match(m, ctx, warning=level == "style", hint={"level": level, "wiki": wiki})


@rule(
    id="docker.hadolint",
    category=FailureType.COMPILE,
    tool="hadolint",
    pattern=rf"^(?:hadolint:)?(?P<file>[^\s:][^:]*):(?P<line>\d+):? {_CODE} {_LEVEL}: (?P<message>.+)$",
    triggers=(" DL1", " DL3", " DL4", " SC1", " SC2", " SC3"),
    url=_RULES,
    priority=20,
)
def hadolint_finding(m: re.Match[str], ctx: LineContext) -> Hit:
    """A hadolint finding, tty format (the default) or gnu (`-f gnu`).

    What it detects: `Dockerfile:3 DL3008 warning: message` (tty) and
    `hadolint:Dockerfile:3: DL3008 warning: message` (gnu), including the
    ShellCheck findings hadolint reports on RUN lines (`SC2164`).

    Example output (`hadolint Dockerfile`, hadolint 2.15.1):
        Dockerfile:3 DL3008 warning: Pin versions in apt get install. Instead of `apt-get install <package>` use `apt-get install <package>=<version>`
        Dockerfile:6 DL4000 error: MAINTAINER is deprecated

    Recipe: compile (edit the Dockerfile; the rule's wiki page in
    hint["wiki"]). hint: level, wiki.

    References: https://github.com/hadolint/hadolint#rules
    """
    return _hadolint_hit(m, ctx)


@rule(
    id="docker.hadolint_parse_error",
    category=FailureType.COMPILE,
    tool="hadolint",
    pattern=r"^(?P<file>[^\s:]*(?:Dockerfile|Containerfile|\.dockerfile)[^\s:]*):(?P<line>\d+):(?P<column>\d+) (?P<message>\S.*?)\s*$",
    triggers=("Dockerfile:", "Containerfile:", ".dockerfile:"),
    url=_RULES,
    priority=20,
)
def hadolint_parse_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """A Dockerfile hadolint could not parse.

    What it detects: `Dockerfile:2:4 missing whitespace` (hadolint's parser
    error: file, line, column, no rule code) — the whole output of hadolint
    on a broken Dockerfile.

    Example output (`hadolint Dockerfile`, hadolint 2.15.1, `RUNN echo hi` on line 2):
        Dockerfile:2:4 missing whitespace

    Recipe: compile (fix the instruction). hint: parse.

    References: https://github.com/hadolint/hadolint#rules
    """
    message = f"Dockerfile parse error: {m.group('message')}"
    return hit_from_match(m, ctx, message=message, code="parse-error", hint={"parse": True})
