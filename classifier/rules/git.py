"""git: merge, pull, rebase and cherry-pick conflicts, diverged and stale
branches, refused fast-forwards and rejected pushes (branch_divergence).

A push that fails on authentication ("Permission denied (publickey)") or on
the network is not a divergence and is left to the infra rules; see
docs/precedence.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..taxonomy import FailureType
from .base import Hit, LineContext, match_above
from .registry import rule

_BD = FailureType.BRANCH_DIVERGENCE
_DOCS_MERGE = "https://git-scm.com/docs/git-merge#_how_conflicts_are_presented"
_DOCS_STATUS = "https://git-scm.com/docs/git-status"
_DOCS_PUSH = "https://git-scm.com/docs/git-push#_note_about_fast_forwards"
_DOCS_PULL = "https://git-scm.com/docs/git-pull"

_ON_BRANCH = re.compile(r"^On branch (?P<branch>\S+)")
_FETCH_HEAD = re.compile(r"^\s*\* branch\s+(?P<branch>\S+)\s+-> FETCH_HEAD")
_FROM = re.compile(r"^From (?P<remote>\S+)")
_TO = re.compile(r"^To (?P<remote>\S+)")
_CONFLICT = re.compile(r"^CONFLICT \((?P<kind>[^)]+)\): (?P<rest>.+)$")
_MERGE_CONFLICT_IN = re.compile(r"Merge conflict in (?P<file>.+?)\s*$")
_RENAMED_TO = re.compile(r"renamed to (?P<file>\S+?)(?: in |,|$)")
_DELETED_IN = re.compile(r"^(?P<file>\S+) deleted in ")
_COULD_NOT_APPLY = re.compile(
    r"^(?:error: c|C)ould not apply (?P<commit>[0-9a-f]{4,40})\.\.\. ?(?P<subject>.*)$"
)


def _branch_before(ctx: LineContext, n: int = 8) -> str | None:
    m = match_above(ctx, _ON_BRANCH, n)
    return m.group("branch") if m else None


def _fetched(ctx: LineContext, n: int = 8) -> dict[str, str]:
    """The remote and branch of a `git pull` (its "From ..." and "* branch" lines)."""
    out: dict[str, str] = {}
    for line in ctx.before(n):
        if m := _FROM.match(line):
            out["remote"] = m.group("remote")
        elif m := _FETCH_HEAD.match(line):
            out["upstream_branch"] = m.group("branch")
            out["upstream"] = m.group("branch")
    return out


def _conflict_file(kind: str, rest: str) -> str | None:
    for pattern in (_MERGE_CONFLICT_IN, _RENAMED_TO, _DELETED_IN):
        if m := pattern.search(rest):
            return m.group("file").rstrip(".")
    return None


@dataclass
class _ConflictBlock:
    """The CONFLICT lines of one merge/rebase/cherry-pick step and what follows
    them (Auto-merging, "error: could not apply", hint: lines), which tell the
    operation; one hit per conflicted file."""

    operation: str
    context: dict[str, str]
    max_lines: int = 500
    conflicts: list[tuple[str, str, str, int]] = field(default_factory=list)
    commit: str | None = None
    subject: str | None = None

    def add(self, line: str, line_no: int) -> bool:
        m = _CONFLICT.match(line)
        if m is None:
            return False
        self.conflicts.append((m.group("kind"), m.group("rest"), line.strip(), line_no))
        return True

    def feed(self, line: str, line_no: int) -> bool:
        if self.add(line, line_no) or line.startswith("Auto-merging "):
            return True
        if m := _COULD_NOT_APPLY.match(line):
            self.commit = self.commit or m.group("commit")
            self.subject = self.subject or m.group("subject")
            if self.operation == "merge":
                self.operation = "rebase" if line.startswith("Could") else "apply"
            return True
        if line.startswith("hint:"):
            for op in ("cherry-pick", "rebase", "revert", "am"):
                if f"git {op} --continue" in line:
                    self.operation = op
            return True
        return line.startswith(("Automatic merge failed", "Recorded preimage"))

    def finish(self) -> Iterable[Hit]:
        if self.operation == "apply":
            self.operation = "cherry-pick"
        for kind, rest, signal, line_no in self.conflicts:
            file = _conflict_file(kind, rest)
            hint: dict[str, object] = {
                "operation": self.operation,
                "conflict": kind,
                "files": [file] if file else [],
                **self.context,
            }
            if self.commit:
                hint["commit"] = self.commit
                hint["commit_subject"] = self.subject or ""
            yield Hit(
                signal=signal,
                message=f"{self.operation} conflict ({kind}): {rest}",
                file=file,
                code=f"conflict:{kind}",
                log_line=line_no,
                hint=hint,
                key=("conflict", file or rest),
            )


@rule(
    id="git.conflict",
    category=_BD,
    tool="git",
    pattern=_CONFLICT.pattern,
    triggers=("CONFLICT (",),
    url=_DOCS_MERGE,
    priority=40,
)
def git_conflict(m: re.Match[str], ctx: LineContext) -> _ConflictBlock:
    """Conflicts left by git merge, pull, rebase, cherry-pick or revert.

    What it detects: `CONFLICT (content): Merge conflict in FILE` (and the
    add/add, modify/delete, rename/* kinds), one record per conflicted file.
    The lines that follow (`error: could not apply <sha>...`, `hint: ...
    git rebase --continue`, `Automatic merge failed`) tell the operation; a
    `From ...` / `* branch ... -> FETCH_HEAD` pair before it marks a pull.
    When the file is readable under the working directory the record is
    placed on its first `<<<<<<<` marker line and the hunks go into the hint
    (classifier/conflicts.py).

    Example output (`git merge feature`, git 2.39.5):
        Auto-merging src/app.py
        CONFLICT (content): Merge conflict in src/app.py
        Automatic merge failed; fix conflicts and then commit the result.

    Recipe: branch_divergence. hint: operation (merge, pull, rebase,
    cherry-pick, revert), conflict kind, files, commit, remote and
    upstream_branch for a pull, hunks (start/separator/end lines and labels).

    References: https://git-scm.com/docs/git-merge#_how_conflicts_are_presented
    """
    before = ctx.before(8)
    context = _fetched(ctx)
    if "upstream_branch" in context:
        operation = "pull"
    elif any(line.startswith("Rebasing (") for line in before):
        operation = "rebase"
    else:
        operation = "merge"
    branch = _branch_before(ctx)
    if branch:
        context["branch"] = branch
    block = _ConflictBlock(operation=operation, context=context)
    block.add(ctx.line, ctx.line_no)
    return block


_UNMERGED_STATES = (
    "both modified",
    "both added",
    "both deleted",
    "added by us",
    "added by them",
    "deleted by us",
    "deleted by them",
)


@rule(
    id="git.unmerged_path",
    category=_BD,
    tool="git",
    pattern=r"^\s+(?P<state>" + "|".join(_UNMERGED_STATES) + r"):\s+(?P<file>\S.*?)\s*$",
    triggers=tuple(f"{s}:" for s in _UNMERGED_STATES),
    url=_DOCS_STATUS,
)
def git_unmerged_path(m: re.Match[str], ctx: LineContext) -> Hit:
    """`git status` listing a path still unmerged after a conflict.

    What it detects: the entries under "Unmerged paths:" (`both modified:`,
    `both added:`, `deleted by us:`, ...). A file already reported by a
    CONFLICT line in the same output is the same failure (one record).

    Example output (`git status` during a merge, git 2.39.5):
        Unmerged paths:
          (use "git add <file>..." to mark resolution)
                both modified:   src/app.py

    Recipe: branch_divergence, with the file's conflict hunks in the hint.

    References: https://git-scm.com/docs/git-status#_short_format
    """
    file = m.group("file")
    state = m.group("state")
    hint: dict[str, object] = {"operation": "merge", "state": state, "files": [file]}
    branch = _branch_before(ctx, 16)
    if branch:
        hint["branch"] = branch
    return Hit(
        signal=ctx.line.strip(),
        message=f"unmerged path ({state}): {file}",
        file=file,
        code=f"unmerged:{state.replace(' ', '-')}",
        hint=hint,
        key=("conflict", file),
    )


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
    category=_BD,
    tool="git",
    pattern=r"^Your branch and '(?P<upstream>[^']+)' have diverged",
    triggers=("have diverged",),
    url=_DOCS_STATUS,
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
    branch = _branch_before(ctx)
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
    category=_BD,
    tool="git",
    pattern=r"^Your branch is behind '(?P<upstream>[^']+)' by (?P<count>\d+) commits?",
    triggers=("Your branch is behind '",),
    url=_DOCS_STATUS,
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
    branch = _branch_before(ctx)
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
    category=_BD,
    tool="git",
    pattern=r"^fatal: (?P<message>Not possible to fast-forward, aborting\.|Need to specify how to reconcile divergent branches\.)"
    r"|^(?:fatal|error): (?P<message2>[Cc]annot fast-forward.*)$",
    triggers=(
        "Not possible to fast-forward",
        "reconcile divergent branches",
        "annot fast-forward",
    ),
    url=_DOCS_PULL,
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
    hint: dict[str, object] = dict(_fetched(ctx, 24))
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        code="cannot-fast-forward",
        hint=hint,
    )


_PUSH_REASONS = {"non-fast-forward", "fetch first", "stale info"}


@rule(
    id="git.push_rejected",
    category=_BD,
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


_REMOTE_SAYS = re.compile(r"^remote: (?:error: )?(?P<text>\S.*?)\s*$")


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


@dataclass
class _FileListBlock:
    """Collects the tab-indented file list that follows a git error line."""

    hit: Hit
    max_lines: int = 1000
    files: list[str] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith("\t") and line.strip():
            self.files.append(line.strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        self.hit.hint["files"] = self.files
        if self.files:
            self.hit.file = self.files[0]
        yield self.hit


@rule(
    id="git.local_changes_overwritten",
    category=_BD,
    tool="git",
    pattern=r"^error: (?:(?:Your local changes to the following files|The following untracked working tree files) would be (?:overwritten|removed) by (?P<op>merge|checkout|switch)"
    r"|cannot (?P<op2>pull with rebase|rebase|rebase --autosquash): (?:You have unstaged changes|Your index contains uncommitted changes))",
    triggers=(
        "would be overwritten by",
        "would be removed by",
        "You have unstaged changes",
        "Your index contains uncommitted changes",
    ),
    url=_DOCS_PULL,
)
def git_local_changes_overwritten(m: re.Match[str], ctx: LineContext) -> _FileListBlock:
    """A pull, merge or checkout refused because the working tree is dirty.

    What it detects: `error: Your local changes to the following files would
    be overwritten by merge:` (or checkout) and the untracked-files variant,
    with the tab-indented file list that follows, and `error: cannot pull
    with rebase: You have unstaged changes.` (no file list). The branch
    cannot be updated until the changes are committed or stashed.

    Example output (`git pull --no-rebase origin main`, git 2.39.5):
        error: Your local changes to the following files would be overwritten by merge:
                src/app.py
        Please commit your changes or stash them before you merge.

    Recipe: branch_divergence; the recipe refuses to rebase or merge with a
    dirty tree, so this one is escalated with the files listed. hint:
    operation, files, dirty_tree.

    References: https://git-scm.com/docs/git-pull
    """
    hit = Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip().removeprefix("error: ").rstrip(":"),
        code="dirty-tree",
        hint={
            "operation": m.group("op") or ("pull" if "pull" in m.group("op2") else "rebase"),
            "dirty_tree": True,
            **_fetched(ctx, 8),
        },
    )
    return _FileListBlock(hit)


@rule(
    id="git.needs_rebase",
    category=_BD,
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
    category=_BD,
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


_SHORT_UNMERGED = ("UU", "AA", "DD", "AU", "UA", "DU", "UD")


@rule(
    id="git.status_short_unmerged",
    category=_BD,
    tool="git",
    pattern=r"^(?P<xy>UU|AA|DD|AU|UA|DU|UD) (?P<file>\"[^\"]+\"|\S+)$",
    triggers=tuple(f"{xy} " for xy in _SHORT_UNMERGED),
    url="https://git-scm.com/docs/git-status#_short_format",
)
def git_status_short_unmerged(m: re.Match[str], ctx: LineContext) -> Hit:
    """An unmerged path in `git status --short` / `--porcelain` output.

    What it detects: the two-letter unmerged states at the start of a line
    (`UU` both modified, `AA` both added, `DD` both deleted, `AU`/`UA`/`DU`/
    `UD` added or deleted by one side) followed by the path; the same
    failure as a CONFLICT line or a long-format "both modified:" entry for
    that file (one record).

    Example output (`git status --short --branch`, git 2.39.5):
        ## main...origin/main [ahead 1, behind 1]
        UU src/app.py

    Recipe: branch_divergence, with the file's conflict hunks in the hint.

    References: https://git-scm.com/docs/git-status#_short_format
    """
    file = m.group("file").strip('"')
    xy = m.group("xy")
    return Hit(
        signal=ctx.line.strip(),
        message=f"unmerged path ({xy}): {file}",
        file=file,
        code=f"unmerged:{xy}",
        hint={"operation": "merge", "state": xy, "files": [file]},
        key=("conflict", file),
    )
