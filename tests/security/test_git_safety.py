"""Git safety: the branch recipe, on a repository it must not sync, refuses
or aborts cleanly, and HEAD, the index, the work tree and the stash list are
byte for byte what they were (compared before and after).

Every record comes from real git output (git status / git pull / git push
run in the test repository) classified by faultlens, and every attempt goes
through the public recipe API (`faultlens.recipes.attempt`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier import classify_text
from faultlens.classifier.engine import Options
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Outcome, RecipeSettings, Workspace, attempt

from .gitrepo import ENV, commit, diverged, git, snapshot, write

pytestmark = pytest.mark.real_tool


def _records(repo: Path, *args: str) -> list[FailureRecord]:
    res = git(repo, *args, check=False)
    text = (res.stdout + res.stderr).decode()
    recs = classify_text(text, Options(cwd=str(repo), command=["git", *args], exit_code=1))
    return [r for r in recs if r.failure_type.value == "branch_divergence"]


def _ws(repo: Path, tmp: Path) -> Workspace:
    # State outside the repository, so the recipe's own files never show in it.
    return Workspace(
        roots=[repo], state_dir=tmp / "state", settings=RecipeSettings(sleep=lambda s: None)
    )


def _attempt_all(repo: Path, tmp: Path, records: list[FailureRecord]) -> list[str]:
    return [o.result for o in _outcomes(repo, tmp, records)]


def _outcomes(repo: Path, tmp: Path, records: list[FailureRecord]) -> list[Outcome]:
    assert records, "git's output gave no branch_divergence record to try"
    ws = _ws(repo, tmp)
    return [attempt(r, ws, command=["git", "status"], cwd=".") for r in records]


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in ENV.items():
        if k.startswith("GIT_"):
            monkeypatch.setenv(k, v)


def test_dirty_tree_refuses_and_leaves_everything_as_it_was(tmp_path):
    _, repo = diverged(tmp_path)
    write(repo / "ours.txt", "one\nEDITED\nthree\n")  # unstaged
    write(repo / "staged.txt", "staged\n")
    git(repo, "add", "staged.txt")
    write(repo / "untracked.txt", "new\n")
    git(repo, "stash", "list")
    records = _records(repo, "status")
    before = snapshot(repo)
    results = _attempt_all(repo, tmp_path, records)
    assert set(results) <= {"escalated", "skipped"}
    assert snapshot(repo) == before


def test_dirty_tree_reported_by_a_refused_pull_is_refused(tmp_path):
    _, repo = diverged(tmp_path, conflicting=True)
    git(repo, "reset", "-q", "--hard", "HEAD~1")  # behind, so pull wants to merge
    write(repo / "app.txt", "one\nlocal edit\nthree\n")
    records = _records(repo, "pull", "--no-rebase")
    before = snapshot(repo)
    results = _attempt_all(repo, tmp_path, records)
    assert set(results) <= {"escalated", "skipped"}
    assert snapshot(repo) == before


def test_detached_head_refuses(tmp_path):
    _, repo = diverged(tmp_path)
    records = _records(repo, "status")
    git(repo, "checkout", "-q", "--detach", "HEAD")
    before = snapshot(repo)
    results = _attempt_all(repo, tmp_path, records)
    assert set(results) <= {"escalated", "skipped"}
    assert snapshot(repo) == before


def test_a_rebase_already_in_progress_is_left_alone(tmp_path):
    _, repo = diverged(tmp_path, conflicting=True)
    records = _records(repo, "status")
    git(repo, "rebase", "origin/main", check=False)  # stops on the conflict
    assert (repo / ".git" / "rebase-merge").exists()
    git(repo, "stash", "list")
    before = snapshot(repo)
    results = _attempt_all(repo, tmp_path, records)
    assert set(results) <= {"escalated", "skipped"}
    assert snapshot(repo) == before


def test_no_upstream_refuses(tmp_path):
    _, repo = diverged(tmp_path)
    records = _records(repo, "status")
    git(repo, "branch", "--unset-upstream")
    before = snapshot(repo)
    results = _attempt_all(repo, tmp_path, records)
    assert set(results) <= {"escalated", "skipped"}
    assert snapshot(repo) == before


def test_a_stash_is_never_touched_and_a_conflicting_sync_aborts_cleanly(tmp_path):
    _, repo = diverged(tmp_path, conflicting=True)
    write(repo / "app.txt", "one\nstashed\nthree\n")
    git(repo, "stash", "push", "-q", "-m", "keep me")
    records = _records(repo, "status")
    before = snapshot(repo)
    assert b"keep me" in before.stash
    outcomes = _outcomes(repo, tmp_path, records)
    # rebase and merge-forward both conflict on app.txt: both aborted
    assert {o.result for o in outcomes} == {"escalated"}
    assert any("conflict" in " ".join([o.reason, *o.details]) for o in outcomes)
    assert snapshot(repo) == before


def test_a_protected_branch_refusing_the_push_is_not_worked_around(tmp_path):
    origin, repo = diverged(tmp_path)
    hook = origin / "hooks" / "pre-receive"
    hook.write_text(
        "#!/bin/sh\n"
        "echo 'error: GH006: Protected branch update failed for refs/heads/main.' >&2\n"
        "exit 1\n"
    )
    hook.chmod(0o755)
    git(repo, "pull", "-q", "--rebase")  # now ahead only: the push reaches the hook
    commit(repo, "more.txt", "x\n", "more")
    res = git(repo, "push", "origin", "main", check=False)
    assert b"pre-receive hook declined" in res.stderr
    text = res.stderr.decode()
    recs = classify_text(text, Options(cwd=str(repo), command=["git", "push"], exit_code=1))
    before = snapshot(repo)
    origin_before = git(origin, "for-each-ref").stdout
    ws = _ws(repo, tmp_path)
    # a policy refusal: escalated for a human (git.push_declined), never rebased around
    assert [r.failure_type.value for r in recs] == ["trust_gate"], recs
    for r in recs:
        assert attempt(r, ws, command=["git", "push"], cwd=".").result != "recovered"
    assert snapshot(repo) == before
    assert git(origin, "for-each-ref").stdout == origin_before


def test_the_sync_that_does_run_only_moves_the_branch(tmp_path):
    """The positive control: a clean diverged branch is rebased (HEAD moves),
    the stash and the untracked-free work tree are otherwise untouched."""
    _, repo = diverged(tmp_path)
    write(repo / "ours.txt", "stash me\n")
    git(repo, "stash", "push", "-q", "-m", "keep me")
    records = _records(repo, "status")
    before = snapshot(repo)
    results = _attempt_all(repo, tmp_path, records)
    assert "recovered" in results
    after = snapshot(repo)
    assert after.head != before.head
    assert after.stash == before.stash
    assert after.status == b""
    assert git(repo, "rev-list", "--count", "origin/main..HEAD").stdout.strip() == b"1"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("branch.main.remote", "--upload-pack=touch {canary}"),
        ("branch.main.remote", "-oProxyCommand=touch {canary}"),
        ("branch.main.remote", "origin;touch {canary}"),
        ("branch.main.merge", "refs/heads/$(touch {canary})"),
        ("branch.main.merge", "--exec=touch {canary}"),
        ("branch.main.merge", "refs/heads/`touch {canary}`"),
    ],
)
def test_hostile_upstream_settings_in_the_repository_config_are_refused(tmp_path, key, value):
    """A cloned or tampered repository's config names the upstream: its values
    are validated like output, never passed to git as options."""
    _, repo = diverged(tmp_path)
    records = _records(repo, "status")
    canary = tmp_path / "PWNED"
    git(repo, "config", key, value.format(canary=canary))
    before = snapshot(repo)
    results = _attempt_all(repo, tmp_path, records)
    assert set(results) <= {"escalated", "skipped"}
    assert snapshot(repo) == before
    assert not canary.exists()
