"""The branch_divergence recipe, end to end with real git in temporary repositories:
rebase onto the upstream, merge-forward when the rebase conflicts, everything
aborted and restored when both conflict, refusals (dirty tree, detached HEAD,
operation in progress, no upstream, hostile names), conflict hunks offered as
accept current / incoming / both."""

from __future__ import annotations

import copy
import os
import subprocess
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Plan, Refusal, Workspace, apply_edits, attempt, plan
from faultlens.recipes.fixes.gitrefs import valid_ref, valid_remote
from faultlens.recipes.planners.branch_divergence import hunk_choices

from .helpers import faultlens_run_recover

pytestmark = pytest.mark.real_tool

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for k, v in GIT_ENV.items():
        monkeypatch.setenv(k, v)


def git(cwd: Path, *args: str, check: bool = True) -> str:
    res = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **GIT_ENV}
    )
    if check and res.returncode != 0:
        raise AssertionError(f"git {args}: {res.stdout}{res.stderr}")
    return res.stdout + res.stderr


def commit(repo: Path, name: str, text: str, msg: str) -> None:
    (repo / name).write_text(text)
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", msg)


@pytest.fixture
def repos(tmp_path):
    """origin (bare), `work` (a clone tracking origin/main) and `other` (a second clone)."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(origin), str(seed))
    git(seed, "checkout", "-q", "-b", "main")
    commit(seed, "app.txt", "one\ntwo\nthree\n", "base")
    commit(seed, "notes.txt", "notes\n", "notes")
    git(seed, "push", "-q", "origin", "main")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(origin), str(work))
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(origin), str(other))
    return work, other


def upstream_commit(other: Path, name: str, text: str, msg: str) -> None:
    commit(other, name, text, msg)
    git(other, "push", "-q", "origin", "main")


def records_of(repo: Path, *args: str) -> list[FailureRecord]:
    git(repo, "fetch", "-q")
    res = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)
    out = res.stdout + res.stderr
    cmd = ["git", *args]
    recs = classify_text(out, Options(cwd=str(repo), command=cmd, exit_code=res.returncode))
    for r in recs:
        r.hint.setdefault("command", cmd)
    return [r for r in recs if r.failure_type == "branch_divergence"]


def snapshot(repo: Path) -> dict[str, object]:
    files = {
        str(p.relative_to(repo)): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file()
        and ".git" not in p.relative_to(repo).parts[:1]
        and ".faultlens" not in p.relative_to(repo).parts[:1]
    }
    return {
        "head": git(repo, "rev-parse", "HEAD"),
        "branch": git(repo, "symbolic-ref", "HEAD"),
        "cached": git(repo, "diff", "--cached"),
        "status": git(repo, "status", "--porcelain"),
        "stash": git(repo, "stash", "list"),
        "files": files,
    }


def ws_of(repo: Path) -> Workspace:
    # The ledger lives outside the repository, so `git status` compares exactly.
    return Workspace(roots=[repo], state_dir=repo.parent / f"{repo.name}-state")


# -- name validation ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "--upload-pack=touch pwned",
        "-x",
        "a..b",
        "main;rm -rf ~",
        "x@{1}",
        ".hidden",
        "feat/.x",
        "a.lock",
        "a b",
        "a~1",
        "a^",
        "a:b",
        "a?",
        "a*",
        "a[1]",
        "a\\b",
        "/abs",
        "trail/",
        "dot.",
        "double//slash",
        "@",
        "$(id)",
        "nul\x00",
        "",
    ],
)
def test_hostile_or_malformed_ref_names_are_refused(name):
    assert not valid_ref(name)


@pytest.mark.parametrize(
    "name", ["main", "feature/login-2", "release/1.2.x", "refs/remotes/origin/main"]
)
def test_ordinary_ref_names_pass(name):
    assert valid_ref(name)


@pytest.mark.parametrize("name", ["--upload-pack=x", "-o", "a/b", "..", "o..x", "x y", "r.lock"])
def test_hostile_remote_names_are_refused(name):
    assert not valid_remote(name)
    assert valid_remote("origin") and valid_remote("upstream-2") and valid_remote(".")


# -- the sync path ----------------------------------------------------------------------------
def test_a_branch_behind_its_upstream_is_brought_up_to_date(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\ntwo\nthree\nfour\n", "upstream: four")
    [rec] = records_of(work, "status")
    assert rec.code == "behind"
    out = attempt(rec, ws_of(work))
    assert out.result == "recovered", out.reason
    assert "up to date with origin/main" in out.reason
    assert git(work, "rev-parse", "HEAD") == git(work, "rev-parse", "origin/main")


def test_a_diverged_branch_is_rebased_onto_its_upstream(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\ntwo\nthree\nfour\n", "upstream: four")
    commit(work, "notes.txt", "notes\nmine\n", "local note")
    [rec] = records_of(work, "status")
    assert rec.code == "diverged"
    p = plan(rec, ws_of(work))
    assert isinstance(p, Plan)
    assert p.commands[0].argv[1:4] == ["-m", "faultlens.recipes.fixes.gitsync", "--remote=origin"]
    out = attempt(rec, ws_of(work))
    assert out.result == "recovered", out.reason
    # Rebased: linear history, the local commit on top of the upstream's.
    assert git(work, "log", "--format=%s").split("\n")[:3] == [
        "local note",
        "upstream: four",
        "notes",
    ]
    assert git(work, "rev-parse", "HEAD~1") == git(work, "rev-parse", "origin/main")


def test_a_rejected_push_is_fixed_by_rebasing(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\ntwo\nthree\nfour\n", "upstream: four")
    commit(work, "notes.txt", "notes\nmine\n", "local note")
    res = subprocess.run(
        ["git", "push", "origin", "main"], cwd=work, capture_output=True, text=True
    )
    recs = classify_text(
        res.stderr, Options(cwd=str(work), command=["git", "push", "origin", "main"])
    )
    [rec] = [r for r in recs if r.failure_type == "branch_divergence"]
    assert rec.code.startswith("push-rejected")
    out = attempt(rec, ws_of(work))
    assert out.result == "recovered", out.reason
    # Nothing was pushed by the recipe: origin still has only the upstream commit.
    assert (
        git(other, "ls-remote", "origin", "main").split()[0]
        == git(work, "rev-parse", "origin/main").strip()
    )


def test_a_conflicting_rebase_falls_back_to_merging_the_upstream_forward(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\nTWO upstream\nthree\n", "upstream edits two")
    # Two local commits: the first conflicts with the upstream, the second undoes it,
    # so replaying them one by one conflicts while a merge of the net change does not.
    commit(work, "app.txt", "one\ntwo local\nthree\n", "local edits two")
    commit(work, "app.txt", "one\ntwo\nthree\n", "local reverts two")
    commit(work, "notes.txt", "notes\nmine\n", "local note")
    [rec] = records_of(work, "status")
    out = attempt(rec, ws_of(work))
    assert out.result == "recovered", out.reason
    parents = git(work, "log", "-1", "--format=%P").split()
    assert len(parents) == 2  # a merge commit: merge-forward
    assert git(work, "log", "-1", "--format=%s").startswith("Merge origin/main into main")
    assert (work / "app.txt").read_text() == "one\nTWO upstream\nthree\n"


def test_when_rebase_and_merge_both_conflict_everything_is_exactly_as_before(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\nTWO upstream\nthree\n", "upstream edits two")
    commit(work, "app.txt", "one\ntwo local\nthree\n", "local edits two")
    (work / "untracked.txt").write_bytes(b"left alone\r\n\x00")
    [rec] = records_of(work, "status")
    before = snapshot(work)
    out = attempt(rec, ws_of(work))
    assert out.result == "escalated"
    assert "both conflict" in out.reason and "app.txt" in out.reason
    assert snapshot(work) == before
    assert out.box and "ERROR: Branch divergence" in out.box


def test_a_dirty_tree_is_refused_with_the_dirty_paths(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\ntwo\nthree\nfour\n", "upstream: four")
    [rec] = records_of(work, "status")
    (work / "notes.txt").write_text("edited, not committed\n")
    (work / "app.txt").write_text("staged\n")
    git(work, "add", "app.txt")
    before = snapshot(work)
    p = plan(rec, ws_of(work))
    assert isinstance(p, Refusal)
    assert "uncommitted changes" in p.reason
    assert "notes.txt" in p.reason and "app.txt" in p.reason
    out = attempt(rec, ws_of(work))
    assert out.result == "escalated"
    assert snapshot(work) == before


def test_detached_head_is_refused(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "x\n", "up")
    [rec] = records_of(work, "status")
    git(work, "checkout", "-q", "--detach")
    p = plan(rec, ws_of(work))
    assert isinstance(p, Refusal) and "detached" in p.reason


def test_a_rebase_already_in_progress_is_refused(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\nTWO upstream\nthree\n", "upstream edits two")
    commit(work, "app.txt", "one\ntwo local\nthree\n", "local edits two")
    [rec] = records_of(work, "status")
    git(work, "rebase", "origin/main", check=False)
    p = plan(rec, ws_of(work))
    assert isinstance(p, Refusal)
    assert "rebase is already in progress" in p.reason
    assert "git rebase --abort" in p.suggestions


def test_a_branch_without_upstream_is_refused(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "x\n", "up")
    [rec] = records_of(work, "status")
    git(work, "branch", "--unset-upstream")
    p = plan(rec, ws_of(work))
    assert isinstance(p, Refusal) and "no upstream" in p.reason


def test_a_hostile_remote_in_git_config_is_refused_and_nothing_runs(repos, tmp_path):
    work, other = repos
    upstream_commit(other, "app.txt", "x\n", "up")
    [rec] = records_of(work, "status")
    pwned = tmp_path / "pwned"
    git(work, "config", "branch.main.remote", f"--upload-pack=touch {pwned}")
    out = attempt(rec, ws_of(work))
    assert out.result == "escalated"
    assert "refusing" in out.reason
    assert not pwned.exists()


def test_hostile_branch_names_in_the_output_are_refused(repos, tmp_path):
    work, other = repos
    upstream_commit(other, "app.txt", "x\n", "up")
    [rec] = records_of(work, "status")
    for bad in ("--upload-pack=touch pwned", "main..x", "-b"):
        hostile = copy.deepcopy(rec)
        hostile.hint["branch"] = bad
        p = plan(hostile, ws_of(work))
        assert isinstance(p, Refusal) and "refusing branch name" in p.reason
    other_branch = copy.deepcopy(rec)
    other_branch.hint["branch"] = "feature"
    p = plan(other_branch, ws_of(work))
    assert isinstance(p, Refusal) and "checkout is on main" in p.reason


# -- conflict hunks -------------------------------------------------------------------------------
def test_conflict_hunks_are_offered_as_current_incoming_or_both_then_verified(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\nTWO upstream\nthree\n", "upstream edits two")
    commit(work, "app.txt", "one\ntwo local\nthree\n", "local edits two")
    git(work, "fetch", "-q")
    res = subprocess.run(["git", "merge", "origin/main"], cwd=work, capture_output=True, text=True)
    recs = classify_text(res.stdout + res.stderr, Options(cwd=str(work), command=["git", "merge"]))
    [rec] = [r for r in recs if r.failure_type == "branch_divergence"]
    assert rec.code == "conflict:content"
    p = plan(rec, ws_of(work))
    assert isinstance(p, Refusal)
    assert "1 conflict hunk(s) in app.txt" in p.reason
    assert any("accept current" in d and "incoming" in d and "both" in d for d in p.details)
    assert "git merge --abort" in " ".join(p.suggestions)

    text = (work / "app.txt").read_text()
    [choice] = hunk_choices("app.txt", text)
    from faultlens.recipes.edits import apply_to_text

    assert apply_to_text(text, [choice.edits["current"]]) == "one\ntwo local\nthree\n"
    assert apply_to_text(text, [choice.edits["incoming"]]) == "one\nTWO upstream\nthree\n"
    assert apply_to_text(text, [choice.edits["both"]]) == "one\ntwo local\nTWO upstream\nthree\n"

    apply_edits([choice.edits["incoming"]], ws_of(work))
    out = attempt(rec, ws_of(work))
    assert out.result == "recovered", out.reason
    assert "no conflict markers left in app.txt" in out.reason


def test_markers_left_in_place_are_not_verified(repos):
    work, _ = repos
    (work / "app.txt").write_text("<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n")
    rec = FailureRecord(
        failure_type="branch_divergence",
        severity="blocking",
        signal="CONFLICT",
        auto_recoverable=True,
        recipe="recipes/branch_divergence.md",
        id="c1",
        source_file="app.txt",
        code="conflict-markers",
        hint={"files": ["app.txt"]},
    )
    p = plan(rec, ws_of(work))
    assert isinstance(p, Refusal) and "need a choice" in p.reason


# -- through the CLI ----------------------------------------------------------------------------
def test_faultlens_run_recover_brings_a_stale_branch_up_to_date(repos):
    work, other = repos
    upstream_commit(other, "app.txt", "one\ntwo\nthree\nfour\n", "upstream: four")
    commit(work, "notes.txt", "notes\nmine\n", "local note")
    git(work, "fetch", "-q")
    res = faultlens_run_recover(["git", "status"], work)
    assert "recovered  branch_divergence" in res.stderr, res.stderr
    assert git(work, "rev-parse", "HEAD~1") == git(work, "rev-parse", "origin/main")
    assert "Your branch is ahead of 'origin/main' by 1 commit" in git(work, "status")
