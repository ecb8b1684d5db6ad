"""Never leave orphans (seed 2): what a recipe makes in the repository — the
triage check's worktree and processes, scratch space, and never a branch or a
stash — is gone on success, failure, abort (Ctrl-C, SIGTERM) and kill.

Success: tests/test_triage_git.py (every case ends with `_no_leftovers`).
Kill -9: tests/test_triage_kill.py.  Here: failure, timeout and abort."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.recipes import Workspace, triage_run, triage_stage

from .triage_repos import (
    ENV,
    MUL,
    PYTEST,
    SLOW_IN_CHECK,
    git,
    make_repos,
    no_leftovers,
    recover_until_the_check_runs,
    snapshot,
)

pytestmark = pytest.mark.real_tool


def _failing_records(repo: Path, monkeypatch: pytest.MonkeyPatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    res = subprocess.run(PYTEST, cwd=repo, capture_output=True, text=True, timeout=120)
    records = classify_text(
        res.stdout + res.stderr, Options(cwd=str(repo), command=PYTEST, exit_code=res.returncode)
    )
    assert records
    return records


def _behind_and_ahead(tmp_path: Path):
    repos = make_repos(tmp_path)
    repos.commit_local({"mul.py": MUL}, "add mul")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")
    return repos


def test_a_check_whose_command_cannot_start_leaves_nothing(tmp_path, monkeypatch):
    repos = _behind_and_ahead(tmp_path)
    records = _failing_records(repos.local, monkeypatch)
    before = snapshot(repos.local)

    got = triage_stage.triage(
        Workspace.at(repos.local),
        records,
        command=["./no-such-runner", "tests"],
        cwd_rel=".",
        say=lambda _t: None,
    )

    verdict = got.by_id[records[0].id]
    assert verdict.verdict == "unknown" and "could not start" in verdict.reason
    assert snapshot(repos.local) == before
    no_leftovers(repos.local)


def test_a_check_that_raises_inside_its_worktree_leaves_nothing(tmp_path, monkeypatch):
    repos = _behind_and_ahead(tmp_path)
    records = _failing_records(repos.local, monkeypatch)
    seen: list[Path] = []

    def broken(ws, co, tree, recs, command, timeout):
        seen.append(tree)
        assert tree.is_dir()
        raise RuntimeError("the check broke")

    monkeypatch.setattr(triage_run, "run_check", broken)
    got = triage_stage.triage(
        Workspace.at(repos.local), records, command=PYTEST, cwd_rel=".", say=lambda _t: None
    )

    assert got.by_id[records[0].id].reason == "not checked: the check broke"
    assert seen and not seen[0].exists()
    no_leftovers(repos.local)


def test_a_merge_that_conflicts_in_the_worktree_is_unknown_and_leaves_nothing(
    tmp_path, monkeypatch
):
    repos = make_repos(tmp_path)
    repos.commit_local({"calc.py": "def add(a, b):\n    return a - b  # mine\n"}, "mine")
    repos.commit_upstream({"calc.py": "def add(a, b):\n    return a + b  # theirs\n"}, "theirs")
    records = _failing_records(repos.local, monkeypatch)
    before = snapshot(repos.local)

    got = triage_stage.triage(
        Workspace.at(repos.local), records, command=PYTEST, cwd_rel=".", say=lambda _t: None
    )

    reason = got.by_id[records[0].id].reason
    assert "conflicts in calc.py" in reason, reason
    assert snapshot(repos.local) == before
    no_leftovers(repos.local)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_abort_during_a_check_removes_its_worktree_and_stops_its_processes(tmp_path, sig):
    repos = make_repos(tmp_path)
    repos.commit_local({"mul.py": MUL, "tests/test_calc.py": SLOW_IN_CHECK}, "add mul")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")
    before = snapshot(repos.local)
    proc = recover_until_the_check_runs(repos.local)
    try:
        time.sleep(0.2)
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    assert proc.returncode == 128 + sig, err.decode()[-2000:]
    # Gone at once, not at the next start.
    no_leftovers(repos.local)
    assert snapshot(repos.local) == before


@pytest.mark.slow
def test_a_check_that_runs_past_its_timeout_is_stopped_and_leaves_nothing(tmp_path, monkeypatch):
    repos = make_repos(tmp_path)
    repos.commit_upstream({"tests/test_calc.py": SLOW_IN_CHECK}, "a slow test")
    git(repos.local, "pull", "-q", "--ff-only")  # slow on both sides: each check times out
    repos.commit_local({"mul.py": MUL}, "add mul")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")
    records = _failing_records(repos.local, monkeypatch)
    ws = Workspace.at(repos.local)
    (ws.state / "recipes").mkdir(parents=True, exist_ok=True)
    (ws.state / "recipes" / "test.md").write_text("+++\n[triage]\ntimeout = 2\n+++\n")
    before = snapshot(repos.local)

    start = time.monotonic()
    got = triage_stage.triage(ws, records, command=PYTEST, cwd_rel=".", say=lambda _t: None)
    took = time.monotonic() - start

    verdict = got.by_id[records[0].id]
    assert verdict.verdict == "unknown", verdict
    assert "timed out after 2 s" in verdict.reason, verdict.reason
    assert took < 60  # the check's test sleeps 120 s: it was stopped, not waited for
    assert snapshot(repos.local) == before
    no_leftovers(repos.local)  # its worktree removed, its processes stopped
