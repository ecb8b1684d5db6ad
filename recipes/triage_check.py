"""Where triage's checks run: the repository and its upstream, and a
temporary git worktree made ready to run the project's own command in
(recipes/triage_run.py runs it there).

    locate()          the repository, its branch and upstream (read-only
                      queries; nothing here writes the index: GIT_OPTIONAL_LOCKS=0)
    fetch()           `git fetch <remote>` (bounded), so "behind" is today's answer
    position()        ahead / behind / local changes
    local_changes()   the uncommitted changes (a binary diff) and untracked files
    prepared_tree()   a worktree of the upstream, or of HEAD with the upstream
                      merged in and the local changes applied, its tool folders
                      linked in
    map_command(), check_env()   the failed command as it runs there

Safety.  The user's work tree, index, stash and branches are never touched:
the checks run in a detached worktree under `<state>/tmp/` (recipes/scratch.py:
journalled, removed on success, failure, Ctrl-C and, at the next start, after
a kill -9).  A merge made for the check lives on the worktree's detached HEAD
only (no ref is moved).  Every process a check starts carries a token in its
environment; a start after a kill stops whatever still runs with it
(triage_run.recover_processes).  Only the command that failed is run, as argv (no
shell): its program and paths are mapped into the worktree, the project's
untracked tool folders (`node_modules`, a virtualenv) are linked in so
nothing is installed, and `PYTHONPATH` names the worktree's code first so an
editable install cannot test the user's tree instead.  Every run is bounded
(`[triage] timeout` in recipes/test.md, at most MAX_TIMEOUT_S).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .triage import Upstream

if TYPE_CHECKING:
    from .fixes.gitcore import Git
    from .model import Workspace

MAX_TIMEOUT_S = 3600.0
# Every process of a check carries `TOKEN_VAR=<its random token>` (recipes/triage_run.py).
TOKEN_VAR = "FAULTLENS_TRIAGE_TOKEN"  # noqa: S105 - the variable's name, no secret
MAX_ENTRIES = 2000  # entries of a folder looked at for tool folders to link
MAX_UNTRACKED_FILES = 200
MAX_UNTRACKED_BYTES = 16 << 20
MAX_DIFF_BYTES = 32 << 20
IDENTITY = ("-c", "user.name=faultlens", "-c", "user.email=faultlens@localhost")


# -- the repository -----------------------------------------------------------------------
@dataclass(slots=True)
class Checkout:
    """The repository a run happened in and its upstream (validated names)."""

    top: Path  # the work tree's top level
    cwd: str  # the run's cwd relative to `top` ("." at the top)
    head: str
    branch: str
    remote: str
    upstream_ref: str  # refs/remotes/origin/main
    upstream: str  # origin/main


def locate(run_cwd: Path) -> Checkout | str:
    """The checkout around `run_cwd`, or why it cannot be triaged (one line)."""
    from .fixes import gitcore

    st = gitcore.state(run_cwd)
    if st.toplevel is None or st.head is None:
        return "not in a git repository with a commit"
    if st.operation:
        return f"a {st.operation} is in progress"
    if st.branch is None:
        return "HEAD is detached: no branch, no upstream"
    if st.bad_config:
        return f"refusing the repository's upstream setting: {st.bad_config}"
    if st.remote is None or st.upstream_ref is None or st.upstream is None:
        return f"branch {st.branch} has no upstream"
    rel = os.path.relpath(os.path.realpath(run_cwd), os.path.realpath(st.toplevel))
    if rel.startswith(".."):
        return "the run's folder is outside the repository"
    return Checkout(
        top=Path(os.path.realpath(st.toplevel)),
        cwd=rel.replace(os.sep, "/"),
        head=st.head,
        branch=st.branch,
        remote=st.remote,
        upstream_ref=st.upstream_ref,
        upstream=st.upstream,
    )


def _git(co: Checkout, timeout: float = 60.0) -> Git:
    from .fixes.gitcore import Git

    return Git(co.top, timeout=timeout)


def fetch(co: Checkout, timeout: float) -> str:
    """Fetch the upstream's remote: "" when done, else why not (the check then
    uses the remote-tracking branch as it is)."""
    if co.remote == ".":
        return ""
    res = _git(co, timeout).run(
        "fetch", "--no-recurse-submodules", "--no-write-fetch-head", "--quiet", co.remote
    )
    if res.code == 0:
        return ""
    tail = [ln for ln in (res.err + res.out).splitlines() if ln.strip()]
    return f"not fetched ({tail[-1][:160] if tail else f'exit {res.code}'})"


def _untracked(co: Checkout, ws: Workspace, listing: str, sep: str) -> list[str]:
    """The untracked files of a `git ls-files --others` listing that are the
    project's: not in faultlens' state dir, not in a tool folder (a virtualenv,
    `node_modules`: linked into a worktree, never copied)."""
    from .treestate import tool_path

    state_rel = _state_rel(co, ws)
    seen: dict[str, bool] = {}
    out = []
    for rel in listing.split(sep):
        if not rel or (state_rel is not None and (rel + "/").startswith(state_rel + "/")):
            continue
        if not tool_path(co.top, rel, seen):
            out.append(rel)
    return out


def _state_rel(co: Checkout, ws: Workspace) -> str | None:
    if ws.state_dir is None:
        return None
    try:
        return Path(os.path.realpath(ws.state_dir)).relative_to(co.top).as_posix()
    except ValueError:
        return None


@dataclass(slots=True)
class LocalChanges:
    """What the work tree holds beside HEAD: the tracked changes as a binary
    diff, and the untracked (not ignored) files."""

    diff: bytes = b""
    untracked: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.diff.strip()) or bool(self.untracked)


def local_changes(co: Checkout, ws: Workspace) -> LocalChanges | str:
    """The local changes (read-only), or why they cannot be carried over."""
    res = _git(co).run("ls-files", "--others", "--exclude-standard", "-z")
    if res.code != 0:
        return "git ls-files failed"
    untracked = _untracked(co, ws, res.out, "\0")
    if len(untracked) > MAX_UNTRACKED_FILES:
        return f"more than {MAX_UNTRACKED_FILES} untracked files"
    size = 0
    for rel in untracked:
        with contextlib.suppress(OSError):
            size += os.lstat(co.top / rel).st_size
    if size > MAX_UNTRACKED_BYTES:
        return f"untracked files larger than {MAX_UNTRACKED_BYTES >> 20} MiB"
    done = _git_bytes(
        co.top, ["diff", "HEAD", "--binary", "--no-color", "--no-ext-diff", "--no-textconv"]
    )
    if isinstance(done, str) or done[0] != 0:
        return f"git diff failed{f': {done}' if isinstance(done, str) else ''}"
    diff = done[1]
    if len(diff) > MAX_DIFF_BYTES:
        return f"local changes larger than {MAX_DIFF_BYTES >> 20} MiB"
    return LocalChanges(diff, untracked)


def _git_bytes(
    cwd: Path, args: Sequence[str], stdin: bytes | None = None, timeout: float = 120.0
) -> tuple[int, bytes] | str:
    """git with bytes in and out (a binary diff is not text): (exit status,
    stdout), or why it could not run."""
    import subprocess

    from .fixes.gitcore import Git, git_env
    from .proctree import run_group

    try:
        proc = run_group(
            Git(cwd).argv(*args), cwd=cwd, env=git_env(), timeout=timeout, stdin=stdin or b""
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    return proc.returncode, proc.stdout


def position(co: Checkout, ws: Workspace, fetched: str) -> tuple[Upstream, str] | str:
    """(where the branch stands against its upstream, the upstream's commit),
    or why it cannot be told."""
    git = _git(co)
    sha = git.out("rev-parse", "--verify", "-q", co.upstream_ref + "^{commit}")
    if not sha:
        return f"{co.upstream} does not resolve to a commit"
    counts = (git.out("rev-list", "--left-right", "--count", f"HEAD...{sha}") or "").split()
    if len(counts) != 2 or not all(c.isdigit() for c in counts):
        return f"cannot count the commits between HEAD and {co.upstream}"
    tracked = git.out("status", "--porcelain=v1", "--untracked-files=no")
    others = git.run("ls-files", "--others", "--exclude-standard", "-z")
    untracked = _untracked(co, ws, others.out, "\0") if others.code == 0 else []
    dirty = bool((tracked or "").strip()) or bool(untracked)
    return Upstream(co.upstream, int(counts[0]), int(counts[1]), dirty, fetched), sha


# -- a worktree ready to run in --------------------------------------------------------------
@contextlib.contextmanager
def prepared_tree(
    ws: Workspace, co: Checkout, *, commit: str, merge: str | None, changes: LocalChanges | None
) -> Iterator[tuple[Path, str]]:
    """A temporary worktree of `commit`, with `merge` merged in and `changes`
    applied when given; yields (its path, "" or why it could not be made so).
    Removed however the block ends (and at the next start after a kill)."""
    from .scratch import temporary_worktree

    with temporary_worktree(ws, co.top, commit, "triage") as tree:
        problem = _merge_in(co, tree, merge) if merge else ""
        if not problem and changes is not None and changes.any:
            problem = _carry_over(co, tree, changes)
        if not problem:
            _link_tools(co, tree)
        yield tree, problem


def _tree_git(tree: Path, timeout: float = 120.0) -> Git:
    from .fixes.gitcore import Git

    return Git(tree, timeout=timeout)


def _merge_in(co: Checkout, tree: Path, commit: str) -> str:
    git = _tree_git(tree)
    res = git.run(
        *IDENTITY,
        "-c",
        "commit.gpgsign=false",
        "merge",
        "--no-edit",
        "--no-verify",
        "--no-ff",
        "-m",
        f"faultlens triage: {co.upstream} merged in",
        commit,
    )
    if res.code == 0:
        return ""
    conflicted = (git.out("diff", "--name-only", "--diff-filter=U") or "").split()
    if conflicted:
        return f"merging {co.upstream} conflicts in {', '.join(conflicted[:5])}"
    tail = [ln for ln in (res.err + res.out).splitlines() if ln.strip()]
    return f"merging {co.upstream} failed ({tail[-1][:160] if tail else f'exit {res.code}'})"


def _carry_over(co: Checkout, tree: Path, changes: LocalChanges) -> str:
    """The user's uncommitted changes, reproduced in the worktree."""
    if changes.diff.strip():
        done = _git_bytes(tree, ["apply", "--binary", "--whitespace=nowarn", "-"], changes.diff)
        if isinstance(done, str):
            return f"your local changes could not be applied there ({done})"
        if done[0] != 0:
            return f"your local changes do not apply on top of {co.upstream}"
    for rel in changes.untracked:
        src, dst = co.top / rel, tree / rel
        try:
            st = os.lstat(src)
            if not stat.S_ISREG(st.st_mode) or os.path.lexists(dst):
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            with open(src, "rb") as fin, open(dst, "xb") as fout:
                while chunk := fin.read(1 << 20):
                    fout.write(chunk)
            os.chmod(dst, st.st_mode & 0o777)
        except OSError as exc:
            return f"could not copy the untracked {rel} ({exc.strerror or exc})"
    return ""


def _link_tools(co: Checkout, tree: Path) -> None:
    """Link the project's untracked tool folders (`node_modules`, a virtualenv:
    any folder holding `pyvenv.cfg`) into the worktree, at the top and in the
    run's folder, so the command finds what it found (nothing is installed)."""
    for folder in dict.fromkeys((".", co.cwd)):
        try:
            entries = list(os.scandir(co.top / folder))
        except OSError:
            continue
        for entry in entries[:MAX_ENTRIES]:
            if not entry.is_dir(follow_symlinks=False):
                continue
            src = Path(entry.path)
            if entry.name != "node_modules" and not (src / "pyvenv.cfg").is_file():
                continue
            dst = tree / folder / entry.name
            if os.path.lexists(dst):
                continue  # tracked there (or made by the checkout): leave it
            with contextlib.suppress(OSError):
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(src, dst, target_is_directory=True)


def map_command(argv: Sequence[str], co: Checkout, tree: Path) -> list[str]:
    """The failed command as it runs in the worktree: absolute paths into the
    repository point into the worktree when the file is there (else at the
    user's copy: an untracked tool), and a relative program path that is not
    in the worktree runs the user's copy."""
    user_cwd = co.top / co.cwd
    tree_cwd = tree / co.cwd
    out: list[str] = []
    for i, arg in enumerate(argv):
        if os.path.isabs(arg):
            try:
                rel = Path(os.path.normpath(arg)).relative_to(co.top)
            except ValueError:
                out.append(arg)
                continue
            mapped = tree / rel
            out.append(str(mapped) if os.path.lexists(mapped) else arg)
        elif i == 0 and "/" in arg and not os.path.lexists(tree_cwd / arg):
            out.append(str(user_cwd / arg))
        else:
            out.append(arg)
    return out


def check_env(co: Checkout, tree: Path, token: str) -> dict[str, str]:
    """The environment a check runs with, over the user's: the process token,
    and PYTHONPATH with the worktree's code first."""
    env = {TOKEN_VAR: token}
    front = [str(tree / co.cwd)]
    if (tree / "src").is_dir():
        front.insert(0, str(tree / "src"))
    rest = []
    for part in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if not part:
            continue
        try:
            rel = Path(os.path.normpath(part)).relative_to(co.top)
            rest.append(str(tree / rel))
        except ValueError:
            rest.append(part)
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([*front, *rest]))
    return env
