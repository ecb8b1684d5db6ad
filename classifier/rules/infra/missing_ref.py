"""A git ref (branch, tag, commit) that the job asked for and that does not exist."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint


@rule(
    id="infra.missing_ref",
    category=FailureType.INFRA,
    tool="git",
    pattern=r"(?P<msg>fatal: couldn't find remote ref (?P<ref>\S+)"
    r"|A branch or tag with the name '(?P<name>[^']+)' could not be found"
    r"|fatal: remote error: upload-pack: not our ref (?P<sha>[0-9a-f]+)"
    r"|The ref '(?P<moved>[^']+)' does not point to the expected commit '[^']*'.*)",
    triggers=(
        "couldn't find remote ref",
        "A branch or tag with the name",
        "upload-pack: not our ref",
        "does not point to the expected commit",
    ),
    url="https://github.com/actions/checkout#usage",
    priority=PRIORITY + 5,
)
def missing_ref(m: re.Match[str], ctx: LineContext) -> Hit:
    """A branch, tag or commit that the job fetches and the remote lacks.

    What it detects: git's `fatal: couldn't find remote ref X` and
    `fatal: remote error: upload-pack: not our ref SHA`, actions/checkout's
    `A branch or tag with the name 'X' could not be found` and `The ref 'X'
    does not point to the expected commit 'SHA'` (src/ref-helper.ts,
    src/git-source-provider.ts), each printed as `##[error]...` in a job log.

    Example output (git fetch origin no-such-branch):
        fatal: couldn't find remote ref no-such-branch

    Recipe: infra, permanent (not retried): the ref was deleted, renamed
    or never pushed, or a tag moved; fix the workflow's `ref:` or push the
    branch (hint `ref`).

    References: https://github.com/actions/checkout#usage
    """
    ref = m.group("ref") or m.group("name") or m.group("sha") or m.group("moved")
    hint = infra_hint("missing-ref", ref=ref)
    hint["transient"] = False
    return Hit(
        signal=ctx.line.strip(), message=m.group("msg").strip(), code="missing-ref", hint=hint
    )
