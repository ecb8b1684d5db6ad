"""The branch_divergence recipe's planner (see recipes/branch_divergence.md).

A branch behind or diverged from its upstream (git status, a refused pull or
push): one command that fetches and rebases onto the upstream, or merges the
upstream forward when the rebase conflicts (recipes/fixes/gitsync.py), both
aborted on conflict so nothing is left half-done.  Verified by `git status`:
the branch is no longer behind.

Conflict hunks already in files are not chosen automatically: each is
offered as accept current / incoming / both (`hunk_choices`); once the
markers are gone, the plan verifies by re-reading the files.

Refused (escalated with the reason): a dirty tree (the dirty paths listed), a
detached HEAD, a rebase or merge already in progress, no upstream, a branch
or remote name that fails validation.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..conflicts import Choice, conflict_hunks, resolve_hunk
from ..context import PlanContext
from ..fixes import gitcore
from ..fixes.gitrefs import valid_ref
from ..model import CommandStep, Plan, Refusal, ResolvableHunk, TextEdit, UnsafeEdit, VerifyResult
from ..safety import inside_workspace, to_workspace_relative

CHOICES: tuple[Choice, ...] = ("current", "incoming", "both")
# Records about a branch that is behind or diverged (what the sync fixes).
SYNC_CODES = ("diverged", "behind", "cannot-fast-forward", "push-rejected:fetch-first")
SYNC_PREFIXES = ("push-rejected:non-fast-forward", "push-rejected:stale-info")


@dataclass(slots=True)
class HunkChoice:
    """One conflict hunk and the edit for each of accept current / incoming / both."""

    hunk: ResolvableHunk
    edits: dict[str, TextEdit]

    @property
    def label(self) -> str:
        return f"{self.hunk.path}:{self.hunk.start_line + 1}-{self.hunk.end_line + 1}"


def hunk_choices(rel: str, text: str) -> list[HunkChoice]:
    """The accept current / incoming / both edits of every hunk in a file."""
    return [
        HunkChoice(h, {c: resolve_hunk(h, c) for c in CHOICES}) for h in conflict_hunks(rel, text)
    ]


def _is_conflict(code: str) -> bool:
    return code.startswith(("conflict:", "unmerged:")) or code == "conflict-markers"


def _conflict_files(ctx: PlanContext) -> list[str]:
    rec = ctx.record
    names: list[str] = []
    files = rec.hint.get("files")
    if isinstance(files, list):
        names.extend(str(f) for f in files if isinstance(f, str))
    if rec.source_file and rec.source_file not in names:
        names.append(rec.source_file)
    out: list[str] = []
    for name in names:
        rel = ctx.rel(name)
        if rel is not None and rel not in out:
            out.append(rel)
    return out


def _markers_check(ctx: PlanContext, files: list[str]) -> VerifyResult:
    left = []
    for rel in files:
        text = ctx.read(rel)
        if text is not None and conflict_hunks(rel, text):
            left.append(rel)
    if left:
        return VerifyResult(False, f"conflict markers still in {', '.join(left)}")
    return VerifyResult(True, f"no conflict markers left in {', '.join(files)}")


def _plan_conflict(ctx: PlanContext, operation: str | None) -> Plan | Refusal:
    files = _conflict_files(ctx)
    if not files:
        return Refusal("the conflict names no file inside the workspace")
    details: list[str] = []
    total = 0
    for rel in files:
        text = ctx.read(rel)
        if text is None:
            continue
        for n, choice in enumerate(hunk_choices(rel, text), start=1):
            total += 1
            h = choice.hunk
            details.append(
                f"Hunk {n} at {choice.label}: accept current ({h.ours.count(chr(10))} line(s))"
                f" / incoming ({h.theirs.count(chr(10))} line(s)) / both"
            )
    cont = f"then `git add {' '.join(files)}` and `git {operation} --continue`" if operation else ""
    if total:
        return Refusal(
            f"{total} conflict hunk(s) in {', '.join(files)} need a choice: "
            "accept current / incoming / both",
            suggestions=[
                "choose per hunk: accept current / accept incoming / accept both "
                "(code action, or edit the file)",
                *([cont.removeprefix("then ")] if cont else []),
                *([f"or abort: git {operation} --abort"] if operation else []),
            ],
            details=details,
        )

    def check() -> VerifyResult:
        return _markers_check(ctx, files)

    return Plan(
        failure_id=ctx.record.id,
        failure_type="branch_divergence",
        title=f"Check {', '.join(files)} for conflict markers",
        summary="the conflict hunks were resolved; re-read the files for markers",
        verify_by="check",
        check=check,
        success_note="conflict resolved" + (f"; {cont}" if cont else ""),
        details=[f"Next: {cont.removeprefix('then ')}"] if cont else [],
    )


def _refuse_names(ctx: PlanContext) -> Refusal | None:
    """Branch and remote names the output gave must pass validation."""
    for key in ("branch", "upstream", "upstream_branch", "remote_ref"):
        value = ctx.record.hint.get(key)
        if value is not None and not valid_ref(value):
            return Refusal(f"refusing {key} name from the output: {value!r}")
    return None


def _status_check(ctx: PlanContext, top_rel: str, upstream: str) -> VerifyResult:
    cwd = inside_workspace(ctx.ws, top_rel) if top_rel != "." else ctx.root
    git = gitcore.Git(cwd)
    op = gitcore.operation_in_progress(git)
    if op:
        return VerifyResult(False, f"a {op} is in progress")
    ab = gitcore.ahead_behind(git)
    if ab is None:
        return VerifyResult(False, "`git status` shows no upstream for the branch")
    ahead, behind = ab
    if behind:
        return VerifyResult(False, f"`git status`: still {behind} commit(s) behind {upstream}")
    return VerifyResult(
        True, f"`git status`: up to date with {upstream}" + (f", {ahead} ahead" if ahead else "")
    )


def plan(ctx: PlanContext) -> Plan | Refusal:
    rec = ctx.record
    code = rec.code or ""
    st = gitcore.state(ctx.cwd_path)
    if st.toplevel is None:
        return Refusal("not inside a git work tree")
    try:
        top_rel = to_workspace_relative(ctx.ws, st.toplevel)
    except UnsafeEdit:
        return Refusal(f"the repository {st.toplevel} is outside the workspace")
    if _is_conflict(code):
        return _plan_conflict(ctx, st.operation)
    if code == "dirty-tree":
        files = rec.hint.get("files")
        listed = [str(f) for f in files] if isinstance(files, list) else []
        return Refusal(
            "git refused because local changes would be overwritten",
            suggestions=["commit or stash them yourself, then retry"],
            details=[f"Dirty: {f}" for f in listed[:20]],
        )
    if not (code in SYNC_CODES or code.startswith(SYNC_PREFIXES)):
        return Refusal(f"no automatic recipe for this git failure ({code or rec.rule})")
    bad = _refuse_names(ctx)
    if bad is not None:
        return bad
    if st.operation:
        return Refusal(
            f"a {st.operation} is already in progress: finish it or abort it first",
            suggestions=[f"git {st.operation} --continue", f"git {st.operation} --abort"],
        )
    if st.branch is None:
        return Refusal(
            "HEAD is detached: there is no branch to bring up to date",
            suggestions=["git switch <branch>"],
        )
    if st.dirty:
        paths = [d[3:] for d in st.dirty]
        return Refusal(
            f"the work tree has uncommitted changes: {', '.join(paths[:10])}",
            suggestions=["commit or stash them, then retry"],
            details=[f"Dirty: {d}" for d in st.dirty[:20]],
        )
    if st.bad_config:
        return Refusal(f"refusing the repository's upstream setting: {st.bad_config}")
    if st.remote is None or st.upstream_ref is None or st.upstream is None:
        return Refusal(
            f"branch {st.branch} has no upstream",
            suggestions=[f"git branch --set-upstream-to=origin/{st.branch}"],
        )
    hinted = rec.hint.get("branch")
    if isinstance(hinted, str) and hinted != st.branch:
        return Refusal(f"the output is about branch {hinted}, but the checkout is on {st.branch}")
    timeout = float(ctx.setting("verify.timeout", 300))
    step = CommandStep(
        argv=[
            sys.executable,
            "-m",
            "faultlens.recipes.fixes.gitsync",
            f"--remote={st.remote}",
            f"--upstream={st.upstream_ref}",
            f"--branch={st.branch}",
            f"--timeout={timeout:g}",
            # Where the sync journals itself, so a kill mid-rebase is undone at
            # the next start (recipes/fixes/gitjournal.py).
            f"--state-dir={ctx.ws.state_dir}",
            *(f"--root={r}" for r in ctx.ws.roots),
        ],
        cwd=top_rel,
        env=dict(ctx.env),
        timeout=timeout * 3,
    )
    upstream = st.upstream

    def check() -> VerifyResult:
        return _status_check(ctx, top_rel, upstream)

    fetch = f"git fetch {st.remote}, " if st.remote != "." else ""
    return Plan(
        failure_id=rec.id,
        failure_type="branch_divergence",
        title=f"Rebase {st.branch} onto {upstream} (merge-forward if it conflicts)",
        summary=f"{fetch}git rebase {upstream}; on conflict abort and merge {upstream} forward",
        commands=[step],
        verify_by="check",
        check=check,
        success_note=f"{st.branch} is up to date with {upstream}",
        details=[
            f"Branch: {st.branch} (upstream {upstream}, remote {st.remote})",
            *(
                [f"Before: {st.ahead} ahead, {st.behind} behind"]
                if st.ahead is not None and st.behind is not None
                else []
            ),
            f"If both conflict, by hand: `git merge {upstream}` (or `git rebase {upstream}`),"
            " then accept current / incoming / both per hunk and commit",
        ],
    )
