"""git refusing to work in a repository another user owns."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule

# ctx.state key: the repository git refused in this output, if any.
REFUSED = "git.dubious_ownership"


@rule(
    id="git.dubious_ownership",
    category=FailureType.INFRA,
    tool="git",
    pattern=r"^fatal: (?:detected dubious ownership|unsafe repository) (?:in repository at )?'(?P<path>[^']+)'",
    triggers=("fatal: detected dubious ownership", "fatal: unsafe repository"),
    url="https://git-scm.com/docs/git-config#Documentation/git-config.txt-safedirectory",
    priority=30,
)
def dubious_ownership(m: re.Match[str], ctx: LineContext) -> Hit:
    """git refusing a repository owned by another user (safe.directory).

    What it detects: `fatal: detected dubious ownership in repository at
    'PATH'` (git 2.35.2 and later; `fatal: unsafe repository ('PATH' is
    owned by someone else)` in 2.35.2's first wording), what git prints when
    a container running as root works in the runner's checkout, or a
    cached workspace changed owners. Every git command of the step fails,
    and what the step does next with git's empty answer (no files to test:
    pytest's "no tests ran", a version read from git tags) is its
    consequence: a pytest "no tests ran" after it in the same output is
    folded into this record (hint `consequence`), not a test failure of its
    own. hint `path`, and `advice` with git's own command.

    Example output (`bash ci-test-changed.sh`, git 2.39.5; the script runs
    `git ls-files` in a checkout owned by nobody, then pytest on what it
    listed):
        fatal: detected dubious ownership in repository at '/tmp/tmp.J1HpN9JIv3/repo'
        To add an exception for this directory, call:

                git config --global --add safe.directory /tmp/tmp.J1HpN9JIv3/repo

        no tests ran in 1.81s

    Recipe: infra, permanent: escalated (a human marks the directory safe
    or fixes the workspace's owner); nothing to retry.

    References: https://git-scm.com/docs/git-config#Documentation/git-config.txt-safedirectory
    """
    path = m.group("path")
    ctx.state[REFUSED] = path  # what a later "no tests ran" is a consequence of
    return Hit(
        signal=ctx.line.strip(),
        message=f"git refused the repository at {path}: owned by another user",
        code="dubious-ownership",
        hint={
            "kind": "repo_ownership",
            "transient": False,
            "path": path,
            "advice": [f"git config --global --add safe.directory {path}"],
        },
        key=("repo_ownership", path),
    )
