"""`git push` rejected because the remote moved on: the branch_divergence
recipe rebases, and the failure counts as recovered only when the push itself,
run again, succeeds (issue 12 item 4).  A local bare repository is the remote."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool

ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}


def git(cwd: Path, *args: str) -> str:
    res = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=_env()
    )
    return res.stdout


def _env() -> dict[str, str]:
    import os

    return {**os.environ, **ENV}


def _diverged(tmp_path: Path) -> tuple[Path, Path]:
    """(the clone whose push is rejected, the bare remote)."""
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    git(tmp_path, "clone", "-q", str(remote), str(mine))
    git(mine, "checkout", "-q", "-b", "main")
    git(mine, "commit", "-q", "--allow-empty", "-m", "base")
    git(mine, "push", "-q", "-u", "origin", "main")
    git(tmp_path, "clone", "-q", str(remote), str(theirs))
    (theirs / "theirs.txt").write_text("theirs\n")
    git(theirs, "add", "theirs.txt")
    git(theirs, "commit", "-q", "-m", "theirs")
    git(theirs, "push", "-q")
    (mine / "mine.txt").write_text("mine\n")
    git(mine, "add", "mine.txt")
    git(mine, "commit", "-q", "-m", "mine")
    return mine, remote


def test_a_rejected_push_is_recovered_only_when_the_push_succeeds(tmp_path, monkeypatch):
    mine, remote = _diverged(tmp_path)
    for k, v in ENV.items():
        monkeypatch.setenv(k, v)
    report, _ = run_recover_in_process(["git", "push"], mine, "T")
    assert report.exit_code == 0
    (outcome,) = report.outcomes
    assert outcome.record.failure_type.value == "branch_divergence"
    assert outcome.result == "recovered"
    assert report.reruns == 1  # the push itself, run again
    assert git(remote, "log", "--format=%s", "main").split() == ["mine", "theirs", "base"]


def test_a_rebase_whose_push_is_still_refused_is_not_recovered(tmp_path, monkeypatch):
    mine, remote = _diverged(tmp_path)
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'pushes are frozen today' >&2\nexit 1\n")
    hook.chmod(0o755)
    for k, v in ENV.items():
        monkeypatch.setenv(k, v)
    report, _ = run_recover_in_process(["git", "push"], mine, "T")
    assert report.exit_code != 0  # the last push's status
    assert report.outcomes and all(o.result == "escalated" for o in report.outcomes)
    assert "mine" not in git(remote, "log", "--format=%s", "main").split()
    (rebased,) = [o for o in report.outcomes if o.record.failure_type.value == "branch_divergence"]
    # Rebased onto the remote's commit: one ahead, none behind, counted after the fact.
    assert "Now: 1 ahead, 0 behind the upstream (after this run's fetch)" in rebased.details
