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
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..model import Workspace
from .gitcore import (
    Git,
    GitResult,
    dirty_paths,
    display_ref,
    not_restored,
    operation_in_progress,
)
from .gitrefs import valid_ref, valid_remote

if TYPE_CHECKING:
    from .gitjournal import GitOp

EXIT_CONFLICT = 3  # both rebase and merge-forward conflicted (both aborted)
EXIT_REFUSED = 4  # a precondition no longer holds
EXIT_BROKEN = 5  # an abort did not restore the state (a human must look)


# -- the sync command -------------------------------------------------------------
def _say(text: str) -> None:
    print(f"faultlens-gitsync: {text}", flush=True)


def _tail(res: GitResult) -> str:
    lines = [ln for ln in (res.err + res.out).splitlines() if ln.strip()]
    return " / ".join(lines[-3:])


def _conflicted(git: Git) -> list[str]:
    out = git.out("diff", "--name-only", "--diff-filter=U")
    return [x for x in (out or "").splitlines() if x]


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
