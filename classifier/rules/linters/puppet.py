"""puppet-lint's findings in its default format."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule


@rule(
    id="linters.puppet_lint",
    category=FailureType.COMPILE,
    tool="puppet-lint",
    pattern=(
        r"^(?:(?P<file>\S+\.pp) - )?(?P<level>ERROR|WARNING): (?P<message>.+?) on line (?P<line>\d+)"
        r"(?::\d+)? \(check: (?P<check>\w+)\)\s*$"
    ),
    triggers=("(check: ",),
    url="https://github.com/puppetlabs/puppet-lint#usage",
    priority=20,
)
def puppet_lint(m: re.Match[str], ctx: LineContext) -> Hit:
    """A puppet-lint problem.

    What it detects: `ERROR: trailing whitespace found on line 11 (check:
    trailing_whitespace)`, and with `--with-filename` (or several files)
    `modules/web/manifests/server.pp - WARNING: ... on line 9 (check:
    file_mode)`.  A WARNING does not fail the run by default (a warning
    hit); an ERROR does.  Without a file name the finding has no file.

    Example output (`puppet-lint --with-filename modules`, puppet-lint 3.0.1):
        modules/web/manifests/server.pp - ERROR: trailing whitespace found on line 11 (check: trailing_whitespace)

    Recipe: compile (`puppet-lint --fix` corrects the whitespace, quoting
    and arrow checks). hint: check.

    References: https://github.com/puppetlabs/puppet-lint, https://puppet.com/docs/puppet/latest/style_guide.html
    """
    check = m.group("check")
    return Hit(
        signal=ctx.line.strip(),
        message=f"{m.group('message')} ({check})",
        file=m.group("file"),
        line=int(m.group("line")),
        code=check,
        hint={"check": check},
        warning=m.group("level") == "WARNING",
    )
