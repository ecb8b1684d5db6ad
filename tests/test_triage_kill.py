"""kill -9 in the middle of a triage check: the user's repository is byte for
byte as it was (HEAD, index, work tree, stash, branches), and the next start
of faultlens removes the temporary worktree and stops what the check left
running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .triage_repos import (
    MUL,
    SLOW_IN_CHECK,
    faultlens_env,
    git,
    make_repos,
    no_leftovers,
    recover_until_the_check_runs,
    snapshot,
    wait_for,
    with_token,
    worktrees,
)

# Each test runs faultlens, git and pytest several times.
pytestmark = [pytest.mark.real_tool, pytest.mark.slow]


def test_kill_9_during_triage_leaves_the_repository_as_it_was_and_the_next_start_cleans_up(
    tmp_path: Path,
):
    repos = make_repos(tmp_path)
    repos.commit_local({"mul.py": MUL, "tests/test_calc.py": SLOW_IN_CHECK}, "add mul")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")
    # The user's state: a stash entry, a staged change, an unstaged one, an untracked file.
    (repos.local / "mul.py").write_text(MUL + "\n\ndef square(a):\n    return mul(a, a)\n")
    git(repos.local, "stash", "push", "-q", "-m", "square, for later")
    (repos.local / ".gitignore").write_text("__pycache__/\n*.log\n")
    git(repos.local, "add", ".gitignore")
    (repos.local / "notes.txt").write_text("an untracked file of the user\n")
    (repos.local / "calc.py").write_text("def add(a, b):\n    return a - b  # still wrong\n")
    assert "square, for later" in git(repos.local, "stash", "list")
    before = snapshot(repos.local)
    assert with_token() == []

    proc = recover_until_the_check_runs(repos.local)
    try:
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
    assert with_token(), "the check's test is still running (killed with faultlens only)"

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
    wait_for(lambda: not with_token(), 30, "the check's processes to stop")
    no_leftovers(repos.local, stash=str(before["stash"]))
    assert snapshot(repos.local) == before
