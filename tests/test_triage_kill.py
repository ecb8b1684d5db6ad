"""kill -9 in the middle of a triage check: the user's repository is byte for
byte as it was (HEAD, index, work tree, stash, branches), and the next start
of faultlens removes the temporary worktree and stops what the check left
running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .triage_repos import MUL, PYTEST, faultlens_env, git, make_repos, snapshot, worktrees

pytestmark = pytest.mark.real_tool

# The project's test, slow only where the triage check runs it (its environment
# carries the check's token): the kill lands while the check is running.
SLOW_IN_CHECK = """\
import os
import time

from calc import add


def test_add():
    if os.environ.get("FAULTLENS_TRIAGE_TOKEN"):
        time.sleep(120)
    assert add(2, 3) == 5
"""


def _with_token() -> list[int]:
    """Our processes that carry a triage check's token."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if b"FAULTLENS_TRIAGE_TOKEN=" in env:
            found.append(int(name))
    return found


def _wait_for(cond, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_kill_9_during_triage_leaves_the_repository_as_it_was_and_the_next_start_cleans_up(
    tmp_path: Path,
):
    repos = make_repos(tmp_path)
    repos.commit_local({"mul.py": MUL, "tests/test_calc.py": SLOW_IN_CHECK}, "add mul")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")
    (repos.local / "notes.txt").write_text("an untracked file of the user\n")
    (repos.local / "calc.py").write_text("def add(a, b):\n    return a - b  # still wrong\n")
    git(repos.local, "stash", "list")
    before = snapshot(repos.local)
    assert _with_token() == []

    proc = subprocess.Popen(
        [sys.executable, "-m", "faultlens.cli", "run", "--recover", "--", *PYTEST],
        cwd=repos.local,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=faultlens_env(),
    )
    try:
        _wait_for(lambda: bool(_with_token()), 240, "the triage check to start")
        scratch = repos.local / ".faultlens" / "tmp"
        assert [p.name for p in scratch.iterdir() if p.name.startswith("triage-")]
        assert len(worktrees(repos.local)) == 2  # the check's worktree exists
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    # The user's repository, byte for byte.
    assert snapshot(repos.local) == before
    assert _with_token(), "the check's test is still running (killed with faultlens only)"

    # The next start of faultlens (any command that opens the workspace).
    res = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "run", "--", "true"],
        cwd=repos.local,
        capture_output=True,
        text=True,
        timeout=120,
        env=faultlens_env(),
    )
    assert res.returncode == 0, res.stderr
    assert "temporary worktree" in res.stderr
    _wait_for(lambda: not _with_token(), 30, "the check's processes to stop")
    assert worktrees(repos.local) == [str(repos.local)]
    assert not any((repos.local / ".faultlens" / "tmp").iterdir())
    assert not list((repos.local / ".git" / "worktrees").glob("*"))
    assert snapshot(repos.local) == before
