"""git rules for a push the remote refused: rejected (not a fast-forward)
or declined by a hook."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, match_above
from ..registry import rule
from .common import BD

_DOCS_PUSH = "https://git-scm.com/docs/git-push#_note_about_fast_forwards"
_TO = lazy_compile(r"^To (?P<remote>\S+)")

_PUSH_REASONS = {"non-fast-forward", "fetch first", "stale info"}


@rule(
    id="git.push_rejected",
    category=BD,
    tool="git",
    pattern=r"^\s*! \[rejected\]\s+(?P<src>\S+) -> (?P<dst>\S+) \((?P<reason>[^)]*)\)\s*$",
    triggers=("! [rejected]",),
    url=_DOCS_PUSH,
)
def git_push_rejected(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A push rejected because the remote branch has moved on.

    What it detects: `! [rejected] main -> main (non-fast-forward)` (the
    remote has commits the local branch lacks, already fetched), `(fetch
    first)` (not fetched yet) and `(stale info)` (--force-with-lease). Other
    rejections (`[remote rejected] ... (pre-receive hook declined)`, a tag
    that `already exists`) are not divergence and are not matched; an
    authentication failure ("Permission denied (publickey)") is infra.

    Example output (`git push origin main`, git 2.39.5):
        To /tmp/x/origin.git
         ! [rejected]        main -> main (non-fast-forward)
        error: failed to push some refs to '/tmp/x/origin.git'

    Recipe: branch_divergence (fetch, rebase onto the remote branch, push
    again). hint: branch, remote_ref, reason, remote.

    References: https://git-scm.com/docs/git-push#_note_about_fast_forwards
    """
    reason = m.group("reason")
    if reason not in _PUSH_REASONS:
        return None
    hint: dict[str, object] = {
        "branch": m.group("src"),
        "remote_ref": m.group("dst"),
        "reason": reason,
    }
    if t := match_above(ctx, _TO, 8):
        hint["remote"] = t.group("remote")
    return Hit(
        signal=ctx.line.strip(),
        message=f"push of {m.group('src')} to {m.group('dst')} rejected ({reason})",
        code=f"push-rejected:{reason.replace(' ', '-')}",
        hint=hint,
    )


_REMOTE_SAYS = lazy_compile(r"^remote: (?:error: )?(?P<text>\S.*?)\s*$")


@rule(
    id="git.push_declined",
    category=FailureType.TRUST_GATE,
    tool="git",
    pattern=r"^\s*! \[remote rejected\]\s+(?P<src>\S+) -> (?P<dst>\S+) \((?P<reason>[^)]*)\)\s*$",
    triggers=("! [remote rejected]",),
    url=_DOCS_PUSH,
)
def git_push_declined(m: re.Match[str], ctx: LineContext) -> Hit:
    """A push the remote refused by policy: a protected branch, a server-side hook.

    What it detects: `! [remote rejected] main -> main (pre-receive hook
    declined)` and the other `[remote rejected]` reasons (`protected branch
    hook declined`, `shallow update not allowed`, ...).  The branch is not
    behind anything, so rebasing cannot help: the remote wants a human (a
    pull request, a review, an exception).  The hook's own words (`remote:`
    lines just above, e.g. GitHub's `GH006: Protected branch update failed`)
    become the message.

    Example output (`git push origin main` to a remote whose pre-receive hook
    protects main, git 2.39.5):
        remote: error: GH006: Protected branch update failed for refs/heads/main.
        remote: error: Changes must be made through a pull request.
         ! [remote rejected] main -> main (pre-receive hook declined)

    Recipe: trust_gate (never automatic: escalated for a human decision).

    References: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/about-protected-branches
    """
    said = [r.group("text") for line in ctx.before(8) if (r := _REMOTE_SAYS.match(line))]
    reason = m.group("reason")
    hint: dict[str, object] = {
        "branch": m.group("src"),
        "remote_ref": m.group("dst"),
        "reason": reason,
    }
    if t := match_above(ctx, _TO, 8):
        hint["remote"] = t.group("remote")
    if said:
        hint["remote_says"] = said
    message = (
        said[0] if said else f"push of {m.group('src')} to {m.group('dst')} declined ({reason})"
    )
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        code="push-declined",
        hint=hint,
    )
