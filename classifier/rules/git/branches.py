"""git rules for branches that parted: diverged, behind, a fast-forward that
cannot be done, a branch that needs a rebase."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..base import Hit, LineContext
from ..registry import rule
from .common import BD, DOCS_PULL, DOCS_STATUS, branch_before, fetched


@dataclass
class _DivergedBlock:
    """Reads the "and have N and M different commits each" line that follows."""

    hit: Hit
    max_lines: int = 1

    def feed(self, line: str, line_no: int) -> bool:
        m = re.match(r"^and have (\d+) and (\d+) different commits? each", line)
        if m is None:
            return False
        self.hit.hint["ahead"] = int(m.group(1))
        self.hit.hint["behind"] = int(m.group(2))
        self.hit.message += f" ({m.group(1)} local and {m.group(2)} upstream commits)"
        return True

    def finish(self) -> Iterable[Hit]:
        yield self.hit


@rule(
    id="git.diverged",
    category=BD,
    tool="git",
    pattern=r"^Your branch and '(?P<upstream>[^']+)' have diverged",
    triggers=("have diverged",),
    url=DOCS_STATUS,
)
def git_diverged(m: re.Match[str], ctx: LineContext) -> _DivergedBlock:
    """A local branch and its upstream both have commits the other lacks.

    What it detects: `git status` (and `git checkout`, `git switch`) saying
    `Your branch and 'origin/main' have diverged,` with the commit counts on
    the next line.

    Example output (`git status`, git 2.39.5):
        Your branch and 'origin/main' have diverged,
        and have 1 and 1 different commits each, respectively.

    Recipe: branch_divergence (fetch and rebase onto the upstream, or merge
    forward). hint: branch, upstream, ahead, behind.

    References: https://git-scm.com/docs/git-status
    """
    upstream = m.group("upstream")
    hint: dict[str, object] = {"upstream": upstream}
    branch = branch_before(ctx)
    if branch:
        hint["branch"] = branch
    hit = Hit(
        signal=ctx.line.strip(),
        message=f"branch has diverged from {upstream}",
        code="diverged",
        hint=hint,
        key=("diverged", upstream),
    )
    return _DivergedBlock(hit)


@rule(
    id="git.behind",
    category=BD,
    tool="git",
    pattern=r"^Your branch is behind '(?P<upstream>[^']+)' by (?P<count>\d+) commits?",
    triggers=("Your branch is behind '",),
    url=DOCS_STATUS,
)
def git_behind(m: re.Match[str], ctx: LineContext) -> Hit:
    """A local branch that is behind its upstream (a stale branch).

    What it detects: `Your branch is behind 'origin/main' by N commits, and
    can be fast-forwarded.` Being behind is only a failure when work is about
    to be pushed or merged on top of it, so the record's confidence is 0.6.

    Example output (`git status`, git 2.39.5):
        Your branch is behind 'origin/main' by 2 commits, and can be fast-forwarded.

    Recipe: branch_divergence (fast-forward or rebase onto the upstream).
    hint: branch, upstream, behind.

    References: https://git-scm.com/docs/git-status
    """
    upstream = m.group("upstream")
    count = int(m.group("count"))
    hint: dict[str, object] = {"upstream": upstream, "behind": count, "ahead": 0}
    branch = branch_before(ctx)
    if branch:
        hint["branch"] = branch
    return Hit(
        signal=ctx.line.strip(),
        message=f"branch is {count} commit{'s' if count != 1 else ''} behind {upstream}",
        code="behind",
        confidence=0.6,
        hint=hint,
        key=("behind", upstream),
    )


@rule(
    id="git.cannot_fast_forward",
    category=BD,
    tool="git",
    pattern=r"^fatal: (?P<message>Not possible to fast-forward, aborting\.|Need to specify how to reconcile divergent branches\.)"
    r"|^(?:fatal|error): (?P<message2>[Cc]annot fast-forward.*)$",
    triggers=(
        "Not possible to fast-forward",
        "reconcile divergent branches",
        "annot fast-forward",
    ),
    url=DOCS_PULL,
)
def git_cannot_fast_forward(m: re.Match[str], ctx: LineContext) -> Hit:
    """A pull or merge that refuses to reconcile diverged branches.

    What it detects: `fatal: Not possible to fast-forward, aborting.`
    (`git pull --ff-only`, `git merge --ff-only`, pull.ff=only), `fatal: Need
    to specify how to reconcile divergent branches.` (a pull with no
    pull.rebase setting on diverged branches) and "cannot fast-forward".

    Example output (`git pull --ff-only origin main`, git 2.39.5):
        fatal: Not possible to fast-forward, aborting.

    Recipe: branch_divergence (rebase onto the upstream, or merge forward).
    hint: remote and upstream_branch from the pull's "From"/"FETCH_HEAD"
    lines, branch when known.

    References: https://git-scm.com/docs/git-pull
    """
    message = (m.group("message") or m.group("message2") or "").rstrip(".")
    hint: dict[str, object] = dict(fetched(ctx, 24))
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        code="cannot-fast-forward",
        hint=hint,
    )


@rule(
    id="git.needs_rebase",
    category=BD,
    tool="gh",
    pattern=r"is not mergeable: (?P<reason>the head branch is not up to date with the base branch|the merge commit cannot be cleanly created)"
    r"|\b(?P<needs>needs[ -]rebase)\b"
    r"|(?P<outdated>[Tt]his branch is out-of-date with the base branch)",
    triggers=(
        "is not mergeable: the head branch",
        "is not mergeable: the merge commit",
        "needs rebase",
        "needs-rebase",
        "out-of-date with the base branch",
    ),
    url="https://cli.github.com/manual/gh_pr_merge",
)
def git_needs_rebase(m: re.Match[str], ctx: LineContext) -> Hit:
    """A pull request that cannot be merged until it is rebased or updated.

    What it detects: `gh pr merge` refusing with `Pull request OWNER/REPO#N
    is not mergeable: the head branch is not up to date with the base
    branch.` or `...: the merge commit cannot be cleanly created.`, GitHub's
    "This branch is out-of-date with the base branch", and review bots'
    "needs rebase" / `needs-rebase` label.

    Example output (`gh pr merge 42 --squash`, gh 2.x; documented format,
    not captured: cli/cli pkg/cmd/pr/merge/merge.go blockedReason):
        X Pull request acme/app#42 is not mergeable: the merge commit cannot be cleanly created.

    Recipe: branch_divergence (fetch the base branch, rebase or merge it in).
    hint: pr (number), repo, reason.

    References: https://cli.github.com/manual/gh_pr_merge
    """
    hint: dict[str, object] = {}
    pr = re.search(r"Pull request (?:(?P<repo>[\w.-]+/[\w.-]+))?#(?P<pr>\d+)", ctx.line)
    if pr:
        hint["pr"] = int(pr.group("pr"))
        if pr.group("repo"):
            hint["repo"] = pr.group("repo")
    reason = m.group("reason") or m.group("needs") or m.group("outdated") or ""
    hint["reason"] = reason
    return Hit(
        signal=ctx.line.strip(),
        message=reason,
        code="needs-rebase",
        confidence=0.9,
        hint=hint,
    )


@rule(
    id="git.status_short_branch",
    category=BD,
    tool="git",
    pattern=r"^## (?P<branch>[^\s.]\S*?)\.\.\.(?P<upstream>\S+) \[(?:ahead (?P<ahead>\d+), )?behind (?P<behind>\d+)\]",
    triggers=(" [behind ", ", behind "),
    url="https://git-scm.com/docs/git-status#_short_format",
)
def git_status_short_branch(m: re.Match[str], ctx: LineContext) -> Hit:
    """The branch line of `git status --short --branch` (`-sb`, porcelain v1
    with `--branch`) for a branch that is behind or has diverged.

    What it detects: `## main...origin/main [ahead 1, behind 1]` (diverged,
    the same failure as git.diverged) and `## main...origin/main [behind 2]`
    (stale, confidence 0.6 as for git.behind).

    Example output (`git status --short --branch`, git 2.39.5):
        ## main...origin/main [ahead 1, behind 1]
        UU src/app.py

    Recipe: branch_divergence. hint: branch, upstream, ahead, behind.

    References: https://git-scm.com/docs/git-status#_short_format
    """
    upstream = m.group("upstream")
    ahead = int(m.group("ahead") or 0)
    behind = int(m.group("behind"))
    hint: dict[str, object] = {
        "branch": m.group("branch"),
        "upstream": upstream,
        "ahead": ahead,
        "behind": behind,
    }
    if ahead:
        return Hit(
            signal=ctx.line.strip(),
            message=f"branch has diverged from {upstream} ({ahead} local and {behind} upstream commits)",
            code="diverged",
            hint=hint,
            key=("diverged", upstream),
        )
    return Hit(
        signal=ctx.line.strip(),
        message=f"branch is {behind} commit{'s' if behind != 1 else ''} behind {upstream}",
        code="behind",
        confidence=0.6,
        hint=hint,
        key=("behind", upstream),
    )
