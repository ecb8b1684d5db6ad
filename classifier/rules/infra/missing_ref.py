"""A git ref (branch, tag, commit) that the job asked for and that does not exist."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
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


_CHECKOUT_FETCH = lazy_compile(
    r"^\[command\]\S*git(?:\.exe)?\b.* fetch .*\+refs/heads/(?P<ref>[^*\s:]+)\*:refs/remotes/origin/"
)
_GIT_SAID = lazy_compile(r"^(?:fatal|error): ")


@rule(
    id="infra.checkout_missing_ref",
    category=FailureType.INFRA,
    tool="github-actions",
    pattern=r"##\[error\]The process '(?P<git>[^']*\bgit(?:\.exe)?)' failed with exit code 1\s*$",
    triggers=("' failed with exit code 1",),
    url="https://github.com/actions/checkout#usage",
    priority=PRIORITY + 5,
)
def checkout_missing_ref(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """actions/checkout fetching a branch that the remote does not have.

    What it detects: checkout fetches a branch ref with a wildcard refspec
    (`[command]/usr/bin/git … fetch … +refs/heads/NAME*:refs/remotes/origin/NAME*`,
    src/ref-helper.ts getRefSpec); when nothing matches, git exits 1 and
    prints nothing, and @actions/exec's `The process '/usr/bin/git' failed
    with exit code 1` is all the log says (`##[error]`).  A fetch that git
    explains (`fatal: …`: a network or authentication failure) is not this.

    Example output (GitHub Actions job log, the checkout step):
        [command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +refs/heads/stable-3.1*:refs/remotes/origin/stable-3.1* +refs/tags/stable-3.1*:refs/tags/stable-3.1*
        ##[error]The process '/usr/bin/git' failed with exit code 1

    Recipe: infra, permanent (not retried): the workflow's `ref:` names a
    branch the repository does not have (renamed, deleted, never pushed):
    fix the ref (hint `ref`).

    References: https://github.com/actions/checkout#usage
    """
    for prev in reversed(ctx.before(40)):
        if _GIT_SAID.match(prev):
            return None  # git said why: another failure
        fetch = _CHECKOUT_FETCH.search(prev)
        if fetch:
            ref = fetch.group("ref")
            hint = infra_hint("missing-ref", ref=ref)
            hint["transient"] = False
            msg = f"the branch '{ref}' was not found on the remote (git fetch matched no ref)"
            return Hit(signal=ctx.line.strip(), message=msg, code="missing-ref", hint=hint)
        if prev.startswith("[command]"):
            return None  # another command failed
    return None
