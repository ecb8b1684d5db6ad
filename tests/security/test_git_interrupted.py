"""kill -9 during the branch recipe's rebase (issue 19, item 7).

The whole process tree (`faultlens run --recover`, the gitsync child, git)
is killed while git is in the middle of rebasing a few hundred commits: a
rebase in progress, HEAD detached, most of the branch's files missing from
the work tree.  The next start of faultlens recognises its own interrupted
operation from the git journal, aborts it, and HEAD, the branch, the index,
the work tree and the stash are byte for byte what they were; the pending
attempt is closed in the ledger (escalated, saying it was interrupted), and
the user is told what was rolled back.

A rebase faultlens did not start is never aborted, and a journal naming a
repository outside the workspace is ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .gitrepo import ENV, commit, diverged, git, out, snapshot
from .hostile import journal_by_a_dead_process

pytestmark = pytest.mark.real_tool

ROOT = Path(__file__).resolve().parents[2]
OURS = 400  # commits on our side: the rebase takes a few seconds


def _fast_import(repo: Path, n: int) -> None:
    """n commits on top of HEAD, each adding one file (git fast-import: quick)."""
    head = out(repo, "rev-parse", "HEAD").strip()
    lines = []
    for i in range(n):
        body = f"file {i}\n" + "x" * 200 + "\n"
        lines += [
            "commit refs/heads/main",
            f"committer t <t@example.com> {1700000000 + i} +0000",
            f"data {len(f'ours {i}')}",
            f"ours {i}",
        ]
        if i == 0:
            lines.append(f"from {head}")
        lines += [f"M 100644 inline ours/{i:04d}.txt", f"data {len(body)}", body]
    stream = ("\n".join(lines) + "\n").encode()
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=stream, env=ENV, check=True)
    git(repo, "reset", "-q", "--hard", "refs/heads/main")


def _diverged_big(tmp: Path) -> Path:
    """A clone whose branch diverged from origin/main by OURS + 1 commits."""
    tmp.mkdir(parents=True, exist_ok=True)
    _, repo = diverged(tmp)
    _fast_import(repo, OURS)
    return repo


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        ppid = int(raw[raw.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


def _kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process and every descendant (they run in sessions of their own)."""
    victims = {proc.pid} | _descendants(proc.pid)
    for _ in range(3):  # catch children forked while we looked
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        victims = {v for pid in victims for v in _descendants(pid)} - victims
        if not victims:
            break
    proc.wait(timeout=30)


def _faultlens(repo: Path, state: Path, *args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "faultlens.cli.main",
        "run",
        "--workspace",
        str(repo),
        "--cwd",
        str(repo),
        "--state-dir",
        str(state),
        *args,
    ]


def _env() -> dict[str, str]:
    return {**os.environ, **{k: v for k, v in ENV.items() if k.startswith("GIT_")}}


def _interrupt_a_rebase(tmp: Path, delay: float) -> tuple[Path, Path, object] | None:
    repo = _diverged_big(tmp)
    state = tmp / "state"
    before = snapshot(repo)
    proc = subprocess.Popen(
        _faultlens(repo, state, "--recover", "--", "git", "status"),
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    rebasing = repo / ".git" / "rebase-merge"
    head_file = repo / ".git" / "HEAD"
    deadline = time.monotonic() + 120
    while not (rebasing.exists() and not head_file.read_bytes().startswith(b"ref:")):
        if proc.poll() is not None or time.monotonic() > deadline:
            _kill_tree(proc)
            return None
        time.sleep(0.002)
    time.sleep(delay)
    _kill_tree(proc)
    return repo, state, before


@pytest.mark.slow
def test_kill_9_of_the_process_tree_mid_rebase_is_rolled_back_at_the_next_start(tmp_path):
    rng = random.Random(7)
    for attempt in range(4):
        got = _interrupt_a_rebase(tmp_path / f"try{attempt}", rng.uniform(0.05, 0.6))
        if got is None:
            continue
        repo, state, before = got
        detached = not (repo / ".git" / "HEAD").read_bytes().startswith(b"ref:")
        if (repo / ".git" / "rebase-merge").exists() and detached:
            break
    else:
        pytest.fail("no kill landed inside the rebase")
    # What the kill left: a rebase in progress, HEAD detached, files missing.
    assert git(repo, "symbolic-ref", "-q", "HEAD", check=False).returncode != 0
    missing = sum(1 for i in range(OURS) if not (repo / "ours" / f"{i:04d}.txt").exists())
    assert snapshot(repo) != before

    said = _start(repo, state)
    assert "rolled back the rebase of main onto origin/main" in said, said
    assert snapshot(repo) == before, f"not restored ({missing} files were missing after the kill)"

    db = sqlite3.connect(state / "ledger.sqlite3")
    try:
        rows = db.execute("SELECT state, reason FROM attempts").fetchall()
    finally:
        db.close()
    assert rows and all(s != "pending" for s, _ in rows), rows
    (state_, reason), *_ = rows
    assert state_ == "escalated" and "interrupted" in reason and "rolled back the rebase" in reason
    events = [
        json.loads(ln) for ln in (state / "events.jsonl").read_text().splitlines() if ln.strip()
    ]
    recovered = [
        e for e in events if e["event"] == "state.recovered" and e.get("kind") == "git.sync"
    ]
    assert recovered and recovered[0]["rolled_back"] == "rebase"
    assert not list((state / "journal").glob("*.json"))


def _start(repo: Path, state: Path) -> str:
    res = subprocess.run(
        _faultlens(repo, state, "--", sys.executable, "-c", "pass"),
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    return res.stderr


def test_a_rebase_the_user_started_is_never_aborted(tmp_path, monkeypatch):
    for k, v in ENV.items():
        if k.startswith("GIT_"):
            monkeypatch.setenv(k, v)
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    repo = tmp_path / "repo"
    git(tmp_path, "clone", "-q", str(origin), str(repo))
    git(repo, "checkout", "-q", "-b", "main")
    commit(repo, "app.txt", "one\n", "base")
    old_head = out(repo, "rev-parse", "HEAD").strip()
    git(repo, "push", "-q", "-u", "origin", "main")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "app.txt", "side\n", "side")
    git(repo, "checkout", "-q", "main")
    commit(repo, "app.txt", "mine\n", "mine")
    git(repo, "rebase", "side", check=False)  # stops on the conflict: the user's rebase
    assert (repo / ".git" / "rebase-merge").exists()
    state = tmp_path / "state"
    # An older sync of main (at the base commit) that was interrupted.
    journal_by_a_dead_process(
        repo,
        "git.sync",
        {
            "repo": str(repo),
            "branch": "main",
            "head": old_head,
            "upstream": "refs/remotes/origin/main",
            "phase": "rebase",
        },
        state,
    )
    before = snapshot(repo)
    said = _start(repo, state)
    assert snapshot(repo) == before
    assert (repo / ".git" / "rebase-merge").exists()
    assert "not the one faultlens started" in said


def test_a_git_journal_naming_a_repository_outside_the_workspace_is_ignored(tmp_path, monkeypatch):
    for k, v in ENV.items():
        if k.startswith("GIT_"):
            monkeypatch.setenv(k, v)
    outside = tmp_path / "outside"
    git(tmp_path, "init", "-q", "-b", "main", str(outside))
    commit(outside, "a.txt", "a\n", "a")
    commit(outside, "a.txt", "b\n", "b")
    head = out(outside, "rev-parse", "HEAD~1").strip()
    git(outside, "checkout", "-q", "--detach", "HEAD")
    ws_root = tmp_path / "ws"
    ws_root.mkdir()
    state = tmp_path / "state"
    journal_by_a_dead_process(
        ws_root,
        "git.sync",
        {
            "repo": str(outside),
            "branch": "main",
            "head": head,
            "upstream": "refs/heads/main",
            "phase": "rebase",
        },
        state,
    )
    before = snapshot(outside)
    said = _start(ws_root, state)
    assert snapshot(outside) == before
    assert "naming no repository here" in said


def test_a_kill_inside_a_pick_of_our_rebase_is_rolled_back(tmp_path, monkeypatch):
    """Issue 27, item 12: a kill landing while the rebase picks a commit leaves
    CHERRY_PICK_HEAD (git writes it for each pick and removes it after the
    commit); `git rebase --abort` leaves it there, and the roll back once
    stopped at "a cherry-pick is still in progress".  The state is made here as
    git leaves it, without racing a kill."""
    for k, v in ENV.items():
        if k.startswith("GIT_"):
            monkeypatch.setenv(k, v)
    from .gitrepo import diverged

    _origin, repo = diverged(tmp_path, conflicting=True)
    head = out(repo, "rev-parse", "HEAD").strip()
    before = snapshot(repo)
    state = tmp_path / "state"
    journal_by_a_dead_process(
        repo,
        "git.sync",
        {
            "repo": str(repo),
            "branch": "main",
            "head": head,
            "upstream": "refs/remotes/origin/main",
            "phase": "rebase",
        },
        state,
    )
    git(repo, "rebase", "origin/main", check=False)  # stops on the conflict: a pick in progress
    git(repo, "update-ref", "--no-deref", "CHERRY_PICK_HEAD", head)
    # ... and the lock git held while it wrote it: `git rebase --abort` then
    # puts HEAD back but cannot delete CHERRY_PICK_HEAD.
    (repo / ".git" / "CHERRY_PICK_HEAD.lock").write_text(head + "\n")
    assert (repo / ".git" / "rebase-merge").exists()

    said = _start(repo, state)

    assert "rolled back the rebase of main onto origin/main" in said, said
    assert snapshot(repo) == before
    assert not (repo / ".git" / "CHERRY_PICK_HEAD").exists()
    assert not (repo / ".git" / "CHERRY_PICK_HEAD.lock").exists()
