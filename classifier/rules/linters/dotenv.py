"""dotenv-linter's findings (the Python linter of `.env` files)."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule


@rule(
    id="linters.dotenv_linter",
    category=FailureType.COMPILE,
    tool="dotenv-linter",
    pattern=(
        r"^(?P<file>[^\s:]+):(?P<line>\d+) (?P<code>\d{3}) "
        r"(?P<message>Found [a-zA-Z -]+?(?:: .*)?|Unable to correctly parse dotenv file)\s*$"
    ),
    triggers=(" Found ", " Unable to correctly parse dotenv file"),
    url="https://dotenv-linter.readthedocs.io/en/latest/pages/violations/",
    priority=20,
)
def dotenv_linter(m: re.Match[str], ctx: LineContext) -> Hit:
    """A dotenv-linter violation.

    What it detects: one line per violation, `FILE:LINE CODE MESSAGE`, the
    code three digits (1xx names, 2xx assignments, 3xx values, 4xx comments,
    001 a file it could not parse), every message "Found …" but the parse
    error's.  Any violation fails the run (exit 1).

    Example output (`dotenv-linter .env`, dotenv-linter 0.9.0):
        .env:2 101 Found incorrect name: foo

    Recipe: compile (the line is edited by hand: the linter fixes nothing).
    hint: code.

    References: https://github.com/wemake-services/dotenv-linter
    """
    code = m.group("code")
    return Hit(
        signal=ctx.line.strip(),
        message=f"{m.group('message')} (dotenv-linter {code})",
        file=m.group("file"),
        line=int(m.group("line")) or None,
        code=code,
        hint={"code": code},
    )
