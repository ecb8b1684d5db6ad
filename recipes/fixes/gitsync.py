"""Bringing a branch up to date with its upstream, and what git says about it.

`Git` runs git with an argv list (never a shell), hooks switched off
(`-c core.hooksPath=/dev/null`), no auto-stash, no editor and no terminal
prompt.  The read-only queries (`state`) are what the branch_divergence
planner looks at; `sync` is the recipe's one command, run by the engine as

    python -m faultlens.recipes.fixes.gitsync --remote=R --upstream=REF --branch=B \
        --state-dir=STATE --root=ROOT...

It fetches, rebases onto the upstream, and when the rebase conflicts aborts
it and merges the upstream forward instead; when that conflicts too it is
aborted as well.  Every abort is checked: HEAD must be back where it was and
the index and work tree clean, else the exit status says so.

Before anything is run the operation is journalled in the state dir, and
each step is recorded before it starts (recipes/fixes/gitjournal.py): when
the process tree is killed mid-rebase, the next start of faultlens aborts
that rebase and puts the branch back.  No journal, no sync: it refuses.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..model import Workspace
from .gitrefs import short_branch, valid_ref, valid_remote

if TYPE_CHECKING:
    from .gitjournal import GitOp

SAFE_CONFIG = (
    "core.hooksPath=/dev/null",
    "rebase.autoStash=false",
    "merge.autoStash=false",
    "rebase.autoSquash=false",
    "rebase.updateRefs=false",
    "core.editor=true",
    "advice.detachedHead=false",
)
EXIT_CONFLICT = 3  # both rebase and merge-forward conflicted (both aborted)
EXIT_REFUSED = 4  # a precondition no longer holds
EXIT_BROKEN = 5  # an abort did not restore the state (a human must look)


def git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_EDITOR": "true",
            "GIT_SEQUENCE_EDITOR": "true",
            "GIT_MERGE_AUTOEDIT": "no",
            "LC_ALL": "C",
            "LANGUAGE": "C",
        }
    )
    return env


@dataclass(slots=True)
class GitResult:
    code: int
    out: str
    err: str


class Git:
    """git in one directory, argv only."""

    def __init__(self, cwd: Path, timeout: float = 120.0) -> None:
        self.cwd = cwd
        self.timeout = timeout

    def argv(self, *args: str) -> list[str]:
        out = ["git"]
        for c in SAFE_CONFIG:
            out += ["-c", c]
        return [*out, *args]

    def run(self, *args: str, timeout: float | None = None) -> GitResult:
        try:
            proc = subprocess.run(
                self.argv(*args),
                cwd=self.cwd,
                env=git_env(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=timeout or self.timeout,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return GitResult(127, "", str(exc))
        return GitResult(
            proc.returncode,
            proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"),
        )

    def out(self, *args: str) -> str | None:
        res = self.run(*args)
        return res.out.strip() if res.code == 0 else None


@dataclass(slots=True)
class RepoState:
    """What the planner needs to know before touching a repository."""

    toplevel: Path | None = None
    branch: str | None = None  # None: detached HEAD
    head: str | None = None
    operation: str | None = None  # rebase | merge | cherry-pick | revert | am
    dirty: list[str] = field(default_factory=list)  # tracked changes (porcelain lines)
    remote: str | None = None
    upstream_ref: str | None = None  # refs/remotes/origin/main (or refs/heads/x for ".")
    upstream: str | None = None  # origin/main
    bad_config: str | None = None  # an upstream setting that failed validation
    ahead: int | None = None
    behind: int | None = None


def operation_in_progress(git: Git) -> str | None:
    """The multi-step operation git is in the middle of, if any."""
    checks = (
        ("rebase-merge", "rebase"),
        ("rebase-apply", "rebase"),
        ("MERGE_HEAD", "merge"),
        ("CHERRY_PICK_HEAD", "cherry-pick"),
        ("REVERT_HEAD", "revert"),
    )
    for name, op in checks:
        path = git.out("rev-parse", "--git-path", name)
        if path is None:
            continue
        full = Path(path) if Path(path).is_absolute() else git.cwd / path
        if full.exists():
            if name == "rebase-apply" and (full / "applying").exists():
                return "am"
            return op
    return None


def dirty_paths(git: Git) -> list[str]:
    """Tracked files with staged or unstaged changes (untracked files are left
    alone: git itself refuses to overwrite them)."""
    res = git.run("status", "--porcelain=v1", "--untracked-files=no", "--ignore-submodules=none")
    if res.code != 0:
        return [f"(git status failed: {res.err.strip()})"]
    return [ln for ln in res.out.splitlines() if ln.strip()]


def ahead_behind(git: Git) -> tuple[int, int] | None:
    """(ahead, behind) of HEAD against its upstream, from `git status --porcelain=v2 --branch`."""
    res = git.run("status", "--porcelain=v2", "--branch", "--untracked-files=no")
    if res.code != 0:
        return None
    for ln in res.out.splitlines():
        if ln.startswith("# branch.ab "):
            parts = ln.split()
            try:
                return int(parts[2].lstrip("+")), int(parts[3].lstrip("-"))
            except (IndexError, ValueError):
                return None
    return None


def state(cwd: Path) -> RepoState:
    """The repository around `cwd` (read-only queries)."""
    git = Git(cwd)
    st = RepoState()
    top = git.out("rev-parse", "--show-toplevel")
    if not top:
        return st
    st.toplevel = Path(top)
    st.head = git.out("rev-parse", "--verify", "-q", "HEAD")
    st.branch = git.out("symbolic-ref", "-q", "--short", "HEAD")
    st.operation = operation_in_progress(git)
    st.dirty = dirty_paths(git)
    if st.branch is None:
        return st
    if not valid_ref(st.branch):
        st.bad_config = f"current branch name {st.branch!r}"
        return st
    remote = git.out("config", "--get", f"branch.{st.branch}.remote")
    merge = git.out("config", "--get", f"branch.{st.branch}.merge")
    if remote is None or merge is None:
        return st
    if not valid_remote(remote):
        st.bad_config = f"branch.{st.branch}.remote = {remote!r}"
        return st
    if not valid_ref(merge):
        st.bad_config = f"branch.{st.branch}.merge = {merge!r}"
        return st
    full = git.out("rev-parse", "--symbolic-full-name", "@{upstream}")
    if not full or not valid_ref(full):
        if full:
            st.bad_config = f"upstream {full!r}"
        return st
    st.remote = remote
    st.upstream_ref = full
    if full.startswith("refs/remotes/"):
        st.upstream = full[len("refs/remotes/") :]
    else:
        st.upstream = short_branch(full)
    ab = ahead_behind(git)
    if ab is not None:
        st.ahead, st.behind = ab
    return st


# -- the sync command -------------------------------------------------------------
def display_ref(ref: str) -> str:
    """`refs/remotes/origin/main` → `origin/main`, `refs/heads/x` → `x`."""
    return ref[len("refs/remotes/") :] if ref.startswith("refs/remotes/") else short_branch(ref)


def _say(text: str) -> None:
    print(f"faultlens-gitsync: {text}", flush=True)


def _tail(res: GitResult) -> str:
    lines = [ln for ln in (res.err + res.out).splitlines() if ln.strip()]
    return " / ".join(lines[-3:])


def _conflicted(git: Git) -> list[str]:
    out = git.out("diff", "--name-only", "--diff-filter=U")
    return [x for x in (out or "").splitlines() if x]


def not_restored(git: Git, head: str) -> str | None:
    """None when HEAD is `head` and index and work tree are clean, else what is wrong."""
    now = git.out("rev-parse", "--verify", "-q", "HEAD")
    if now != head:
        return f"HEAD is {now}, was {head}"
    op = operation_in_progress(git)
    if op:
        return f"a {op} is still in progress"
    dirty = dirty_paths(git)
    if dirty:
        return "the work tree is not clean: " + ", ".join(dirty[:5])
    return None


def sync(
    cwd: Path,
    remote: str,
    upstream_ref: str,
    branch: str,
    timeout: float = 300.0,
    ws: Workspace | None = None,
) -> int:
    """fetch + rebase, or merge-forward when the rebase conflicts; 0 on success.
    With `ws`, the operation is journalled in its state dir (refused when it
    cannot be)."""
    if not (valid_remote(remote) and valid_ref(upstream_ref) and valid_ref(branch)):
        _say("refusing: a branch or remote name failed validation")
        return EXIT_REFUSED
    git = Git(cwd, timeout=timeout)
    current = git.out("symbolic-ref", "-q", "--short", "HEAD")
    if current != branch:
        _say(f"refusing: the checkout is on {current or 'a detached HEAD'}, not {branch}")
        return EXIT_REFUSED
    in_progress = operation_in_progress(git)
    if in_progress:
        _say(f"refusing: a {in_progress} is already in progress")
        return EXIT_REFUSED
    dirty = dirty_paths(git)
    if dirty:
        _say("refusing: uncommitted changes in " + ", ".join(d[3:] for d in dirty[:10]))
        return EXIT_REFUSED
    head = git.out("rev-parse", "--verify", "-q", "HEAD")
    if head is None:
        _say("refusing: the branch has no commit yet")
        return EXIT_REFUSED
    if ws is None:
        return _sync(git, remote, upstream_ref, branch, head, None)
    from .gitjournal import CannotJournal, GitOp

    try:
        op = GitOp.begin(ws, git.cwd.resolve(), branch, head, upstream_ref)
    except CannotJournal as exc:
        _say(f"refusing: the operation cannot be journalled ({exc})")
        return EXIT_REFUSED
    try:
        return _sync(git, remote, upstream_ref, branch, head, op)
    except CannotJournal as exc:
        _say(f"stopping: the next step cannot be journalled ({exc})")
        return EXIT_REFUSED
    finally:
        op.end()


def _sync(
    git: Git, remote: str, upstream_ref: str, branch: str, head: str, op: GitOp | None
) -> int:
    def step(name: str, **data: str) -> None:
        if op is not None:
            op.phase(name, **data)

    if remote != ".":
        step("fetch")
        _say(f"git fetch {remote}")
        res = git.run("fetch", "--no-recurse-submodules", "--no-write-fetch-head", remote)
        if res.code != 0:
            _say(f"fetch failed: {_tail(res)}")
            return 1
    onto = git.out("rev-parse", "--verify", "-q", upstream_ref) or ""
    step("rebase", onto=onto)
    _say(f"git rebase {upstream_ref}")
    res = git.run("rebase", "--no-autostash", "--no-verify", upstream_ref)
    if res.code == 0:
        _say(f"rebased {branch} onto {upstream_ref}")
        return 0
    files = _conflicted(git)
    _say(f"rebase stopped ({', '.join(files) or _tail(res)}); git rebase --abort")
    step("rebase-abort")
    git.run("rebase", "--abort")
    broken = not_restored(git, head)
    if broken:
        _say(f"the aborted rebase did not restore the branch: {broken}")
        return EXIT_BROKEN
    step("merge", onto=onto)
    _say(f"git merge --no-edit {upstream_ref} (merge-forward)")
    res = git.run(
        "merge",
        "--no-edit",
        "--no-verify",
        "-m",
        f"Merge {display_ref(upstream_ref)} into {branch} (faultlens merge-forward)",
        upstream_ref,
    )
    if res.code == 0:
        _say(f"merged {upstream_ref} into {branch}")
        return 0
    merge_files = _conflicted(git)
    step("merge-abort")
    git.run("merge", "--abort")
    broken = not_restored(git, head)
    if broken:
        _say(f"the aborted merge did not restore the branch: {broken}")
        return EXIT_BROKEN
    both = sorted(set(files) | set(merge_files))
    _say(
        "rebase and merge-forward both conflict"
        + (f" in {', '.join(both)}" if both else "")
        + f"; both aborted, {branch} is exactly as it was"
    )
    return EXIT_CONFLICT


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="faultlens-gitsync")
    p.add_argument("--remote", required=True)
    p.add_argument("--upstream", required=True)
    p.add_argument("--branch", required=True)
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--state-dir", help="the workspace's state dir (the operation's journal)")
    p.add_argument("--root", action="append", default=[], help="a workspace root (repeatable)")
    a = p.parse_args(argv)
    ws = None
    if a.state_dir:
        roots = [Path(r) for r in a.root] or [Path.cwd()]
        ws = Workspace(roots=roots, state_dir=Path(a.state_dir))
    return sync(Path.cwd(), a.remote, a.upstream, a.branch, a.timeout, ws)


if __name__ == "__main__":
    sys.exit(main())
