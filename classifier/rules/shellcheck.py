"""ShellCheck, the shell script linter, in its text formats (tty, gcc).

ShellCheck exits 1 when it prints any finding at or above `--severity`
(default: style), so every finding it prints is a failure of the run,
whatever its level (error, warning, info, style): none is a warning in the
engine's sense (docs/warnings.md).  Category compile: the fix is an edit of
the script at the reported place.  Its json1 / checkstyle reports are
structured inputs (classifier/structured/lint_reports.py).
"""

from __future__ import annotations

import re

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext, hit_from_match, match_above
from .registry import rule

ECOSYSTEM = "Shell"
_WIKI = "https://www.shellcheck.net/wiki/"
_TTY_HEADER = lazy_compile(r"^In (?P<file>.+) line (?P<line>\d+):$")


def _hint(code: str, level: str) -> dict[str, object]:
    return {"level": level, "wiki": f"{_WIKI}{code}"}


@rule(
    id="shellcheck.tty",
    category=FailureType.COMPILE,
    tool="shellcheck",
    pattern=r"^(?P<indent>\s*)\^(?:-*\^|--) (?P<code>SC\d{4}) \((?P<level>error|warning|info|style)\): (?P<message>.+)$",
    triggers=("^-- SC", "^ SC"),
    url="https://github.com/koalaman/shellcheck/wiki/Checks",
    priority=20,
)
def shellcheck_tty(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A ShellCheck finding in its default (tty) format.

    What it detects: the marker line `^-- SC2086 (info): message` (or
    `^----^ SC2086 ...` spanning the flagged text) under the quoted source line, the file and line taken from the `In FILE line N:`
    header above it, the column from the position of the first `^`. Every
    level is a failure (ShellCheck exits 1 for any finding it prints).

    Example output (`shellcheck deploy.sh`, ShellCheck 0.11.0):
        In deploy.sh line 8:
        cd $target
        ^--------^ SC2164 (warning): Use 'cd ... || exit' or 'cd ... || return' in case cd fails.

    Recipe: compile (edit the script; the wiki page in hint["wiki"] gives
    the fix). hint: level, wiki.

    References: https://github.com/koalaman/shellcheck/wiki/Checks,
    https://www.shellcheck.net/wiki/SC2086
    """
    header = match_above(ctx, _TTY_HEADER, 40)
    if header is None:
        return None
    code, level = m.group("code"), m.group("level")
    return Hit(
        signal=f"{code} ({level}): {m.group('message').strip()}",
        message=m.group("message").strip(),
        file=header.group("file"),
        line=int(header.group("line")),
        column=len(m.group("indent").expandtabs()) + 1,
        code=code,
        hint=_hint(code, level),
    )


@rule(
    id="shellcheck.gcc",
    category=FailureType.COMPILE,
    tool="shellcheck",
    pattern=r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+): (?P<level>error|warning|note|style): (?P<message>.+) \[(?P<code>SC\d{4})\]$",
    triggers=(" [SC1", " [SC2", " [SC3"),
    url="https://github.com/koalaman/shellcheck/wiki/Checks",
    priority=20,
)
def shellcheck_gcc(m: re.Match[str], ctx: LineContext) -> Hit:
    """A ShellCheck finding in its gcc format (`shellcheck -f gcc`, what
    editors and CI problem matchers read).

    What it detects: `deploy.sh:8:1: warning: message [SC2164]`; ShellCheck
    prints its info level as `note:`, which here is a failure like the
    others (ShellCheck exits 1 for it).

    Example output (`shellcheck -f gcc deploy.sh`, ShellCheck 0.11.0):
        deploy.sh:8:1: warning: Use 'cd ... || exit' or 'cd ... || return' in case cd fails. [SC2164]
        deploy.sh:10:10: error: Double quote array expansions to avoid re-splitting elements. [SC2068]

    Recipe: compile. hint: level, wiki.

    References: https://github.com/koalaman/shellcheck/wiki/Checks
    """
    code = m.group("code")
    level = "info" if m.group("level") == "note" else m.group("level")
    return hit_from_match(m, ctx, hint=_hint(code, level))
