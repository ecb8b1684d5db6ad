"""Triage on real git repositories (a bare remote on disk, two clones) with a
real test runner: `faultlens run --recover` tells a stale branch, a
pre-existing failure and the developer's own apart, and a stale branch is
brought up to date (the local commit kept), with no worktree or branch left."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .triage_repos import (
    CALC_FIXED,
    MUL,
    MUL_BUGGY,
    PYTEST,
    TEST_MUL,
    faultlens_env,
    git,
    make_repos,
    no_leftovers,
)

# Each test runs faultlens, git and pytest several times.
pytestmark = [pytest.mark.real_tool, pytest.mark.slow]


def run_recover(
    cwd: Path, command: list[str] = PYTEST, timeout: float = 300, **env: str
) -> tuple[subprocess.CompletedProcess[str], dict]:
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "faultlens.cli",
            "run",
            "--recover",
            "--format",
            "json",
            "--",
            *command,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**faultlens_env(), **env},
    )
    summary = json.loads(res.stderr.strip().splitlines()[-1])
    return res, summary


def _triage_of(summary: dict, test: str) -> dict:
    for o in summary["outcomes"]:
        rec = o["record"]
        if rec.get("hint", {}).get("test_id", "").endswith(test):
            return {"triage": rec["triage"], "result": o["result"], "reason": o["reason"]}
    raise AssertionError(f"no outcome for {test}: {summary['outcomes']}")


def test_a_failure_the_upstream_fixed_is_a_stale_branch_and_the_branch_is_brought_up_to_date(
    tmp_path,
):
    repos = make_repos(tmp_path)
    repos.commit_local({"mul.py": MUL}, "add mul")
    local_commit = git(repos.local, "rev-parse", "HEAD")
    repos.commit_upstream({"calc.py": CALC_FIXED}, "fix add")

    res, summary = run_recover(repos.local)

    assert res.returncode == 0, res.stderr[-3000:]
    got = _triage_of(summary, "test_add")
    assert got["triage"]["verdict"] == "stale_branch", got
    assert got["triage"]["upstream"] == "origin/main"
    assert got["result"] == "recovered"
    assert "merged in" in got["triage"]["reason"]
    # Up to date with the upstream, the local commit kept (rebased on top of it).
    assert git(repos.local, "rev-list", "--count", "HEAD..origin/main") == "0"
    subjects = git(repos.local, "log", "--format=%s").splitlines()
    assert subjects[:3] == ["add mul", "fix add", "calc with tests"]
    assert git(repos.local, "rev-parse", "HEAD") != local_commit  # rebased, not merged
    assert (repos.local / "mul.py").read_text() == MUL
    # Logged: the verdict, why, against what, and how long the check took.
    (event,) = [e for e in _events(repos.local) if e["event"] == "failure.triaged"]
    assert event["verdict"] == "stale_branch" and event["upstream"] == "origin/main"
    assert event["reason"] == got["triage"]["reason"]
    assert 0 < event["check_s"] < 300
    session = next((repos.local / ".faultlens" / "logs").glob("session-*.log")).read_text()
    assert f"triaged default test ({event['failure_id']}): stale branch: " in session
    # One attempt for the failure: the re-run, then the sync, are not two.
    attempted = [e for e in _events(repos.local) if e["event"] == "recovery.attempted"]
    assert len(attempted) == 1 and attempted[0]["failure_id"] == event["failure_id"]
    status = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "status", "--json"],
        cwd=repos.local,
        capture_output=True,
        text=True,
        check=True,
    )
    (task,) = json.loads(status.stdout)["tasks"]
    assert task["attempts"] == {"recovered": 1}
    no_leftovers(repos.local)


def _events(repo: Path) -> list[dict]:
    lines = (repo / ".faultlens" / "events.jsonl").read_text().splitlines()
    return [json.loads(ln) for ln in lines]


def test_a_failure_the_upstream_also_has_is_preexisting_and_escalated(tmp_path):
    repos = make_repos(tmp_path)
    repos.commit_local({"mul.py": MUL}, "add mul")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")  # the bug stays
    head = git(repos.local, "rev-parse", "HEAD")

    res, summary = run_recover(repos.local)

    assert res.returncode == 1, res.stderr[-3000:]
    got = _triage_of(summary, "test_add")
    assert got["triage"]["verdict"] == "preexisting", got
    assert got["result"] == "escalated"
    assert got["reason"].startswith("also failing on origin/main")
    assert "also failing on origin/main" in res.stderr  # the box says it
    (event,) = [e for e in _events(repos.local) if e["event"] == "failure.triaged"]
    assert (
        event["verdict"] == "preexisting" and event["record"]["source_file"] == "tests/test_calc.py"
    )
    assert git(repos.local, "rev-parse", "HEAD") == head  # nothing synced
    no_leftovers(repos.local)


def test_a_test_introduced_by_the_local_commit_is_yours(tmp_path):
    repos = make_repos(tmp_path)
    repos.commit_upstream({"calc.py": CALC_FIXED}, "fix add")
    git(repos.local, "pull", "-q", "--ff-only")
    repos.commit_local(
        {
            "mul.py": MUL_BUGGY,
            "tests/test_mul.py": TEST_MUL,
        },
        "add mul",
    )
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")  # behind by one, unrelated

    res, summary = run_recover(repos.local)

    assert res.returncode == 1, res.stderr[-3000:]
    got = _triage_of(summary, "test_mul")
    assert got["triage"]["verdict"] == "yours", got
    assert "does not exist on origin/main" in got["triage"]["reason"]
    assert got["result"] == "escalated"
    no_leftovers(repos.local)


def test_without_an_upstream_the_verdict_is_unknown_and_no_worktree_is_made(tmp_path):
    repos = make_repos(tmp_path)
    git(repos.local, "branch", "--unset-upstream")

    res, summary = run_recover(repos.local)

    assert res.returncode == 1
    got = _triage_of(summary, "test_add")
    assert got["triage"]["verdict"] == "unknown"
    assert got["triage"]["reason"] == "not checked: branch main has no upstream"
    assert not [e for e in _events(repos.local) if e["event"] == "failure.triaged"]
    assert not (repos.local / ".faultlens" / "tmp").exists()
    no_leftovers(repos.local)


CALC_NO_IMPORT = "def add(a, b):\n    return math.floor(a) + b\n"
CALC_WITH_IMPORT = "import math\n\n\ndef add(a, b):\n    return math.floor(a) + b\n"


def test_a_missing_import_the_upstream_added_is_stale_and_synced_not_fixed_twice(tmp_path):
    repos = make_repos(tmp_path)
    repos.commit_upstream({"calc.py": CALC_NO_IMPORT}, "floor the first operand")
    git(repos.local, "pull", "-q", "--ff-only")
    repos.commit_local({"mul.py": MUL}, "add mul")
    repos.commit_upstream({"calc.py": CALC_WITH_IMPORT}, "import math")

    res, summary = run_recover(repos.local)

    assert res.returncode == 0, res.stderr[-3000:]
    (out,) = [o for o in summary["outcomes"] if o["record"]["source_file"] == "calc.py"]
    assert out["record"]["failure_type"] == "compile"  # NameError: cause over symptom
    assert out["record"]["triage"]["verdict"] == "stale_branch"
    assert out["result"] == "recovered"
    # The upstream's import, once: the compile recipe did not add its own.
    assert (repos.local / "calc.py").read_text() == CALC_WITH_IMPORT
    assert git(repos.local, "log", "--format=%s", "-1") == "add mul"
    no_leftovers(repos.local)


def test_uncommitted_changes_go_into_the_check_and_the_sync_refuses_a_dirty_tree(tmp_path):
    repos = make_repos(tmp_path)
    repos.commit_local({"mul.py": MUL}, "add mul")
    repos.commit_upstream({"calc.py": CALC_FIXED}, "fix add")
    (repos.local / "mul.py").write_text(MUL + "\n\ndef square(a):\n    return mul(a, a)\n")
    (repos.local / "tests" / "test_square.py").write_text(
        "from mul import square\n\n\ndef test_square():\n    assert square(3) == 9\n"
    )
    head = git(repos.local, "rev-parse", "HEAD")

    res, summary = run_recover(repos.local)

    assert res.returncode == 1
    got = _triage_of(summary, "test_add")
    assert got["triage"]["verdict"] == "stale_branch", got
    assert got["result"] == "escalated"
    assert got["reason"].startswith("stale branch, but the work tree has uncommitted changes")
    assert git(repos.local, "rev-parse", "HEAD") == head
    assert "def square" in (repos.local / "mul.py").read_text()  # the changes are kept
    assert (repos.local / "tests" / "test_square.py").exists()
    no_leftovers(repos.local)


def test_the_check_runs_the_worktree_code_not_the_code_pythonpath_names_in_the_user_tree(
    tmp_path,
):
    """A src layout found through PYTHONPATH (or an editable install: a path in
    site-packages) points at the user's tree; the check must import the
    worktree's copy, or it would test the user's bug on the upstream."""
    repos = make_repos(tmp_path, src=True)
    repos.commit_local({"mul.py": MUL}, "add mul")
    repos.commit_upstream({"src/calc.py": CALC_FIXED}, "fix add")

    res, summary = run_recover(repos.local, PYTHONPATH=str(repos.local / "src"))

    assert res.returncode == 0, res.stderr[-3000:]
    got = _triage_of(summary, "test_add")
    assert got["triage"]["verdict"] == "stale_branch", got
    no_leftovers(repos.local)


def test_a_node_test_failure_the_upstream_fixed_is_a_stale_branch(tmp_path):
    from .triage_repos import JS_CALC_FIXED, NODE_TEST, make_js_repos

    repos = make_js_repos(tmp_path)
    repos.commit_local({"lib/mul.js": "exports.mul = (a, b) => a * b;\n"}, "add mul")
    repos.commit_upstream({"lib/calc.js": JS_CALC_FIXED}, "fix add")

    res, summary = run_recover(repos.local, NODE_TEST)

    assert res.returncode == 0, res.stderr[-3000:]
    (out,) = summary["outcomes"]
    assert out["record"]["triage"]["verdict"] == "stale_branch", out
    assert out["result"] == "recovered"
    assert (repos.local / "lib" / "calc.js").read_text() == JS_CALC_FIXED
    no_leftovers(repos.local)


def test_a_stale_branch_is_not_synced_over_another_recipe_s_fix_and_says_why(tmp_path):
    repos = make_repos(tmp_path)
    repos.commit_local(
        {
            "geo.py": "def circle(r):\n    return math.pi * r * r\n",
            "tests/test_geo.py": "from geo import circle\n\n\ndef test_circle():\n"
            "    assert circle(1) > 3\n",
        },
        "add geo",
    )
    repos.commit_upstream({"calc.py": CALC_FIXED}, "fix add")
    head = git(repos.local, "rev-parse", "HEAD")

    res, summary = run_recover(repos.local)

    assert res.returncode == 1, res.stderr[-3000:]
    (fix,) = [o for o in summary["outcomes"] if o["record"]["source_file"] == "geo.py"]
    assert fix["record"]["triage"]["verdict"] == "yours"
    assert fix["result"] == "recovered"  # the import was added
    stale = _triage_of(summary, "test_add")
    assert stale["triage"]["verdict"] == "stale_branch"
    assert stale["result"] == "escalated"
    assert "another recipe of this run changed files" in stale["reason"]
    assert git(repos.local, "rev-parse", "HEAD") == head  # never synced over the fix
    assert (repos.local / "geo.py").read_text().startswith("import math")
    no_leftovers(repos.local)


def test_a_compile_failure_the_upstream_also_has_is_escalated_not_fixed_here(tmp_path):
    repos = make_repos(tmp_path)
    repos.commit_upstream({"calc.py": CALC_NO_IMPORT}, "floor the first operand")
    git(repos.local, "pull", "-q", "--ff-only")
    repos.commit_local({"mul.py": MUL}, "add mul")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")  # the import still missing

    res, summary = run_recover(repos.local)

    assert res.returncode == 1
    (out,) = [o for o in summary["outcomes"] if o["record"]["source_file"] == "calc.py"]
    assert out["record"]["failure_type"] == "compile"
    assert out["record"]["triage"]["verdict"] == "preexisting"
    assert out["result"] == "escalated"
    assert out["reason"] == "also failing on origin/main: not introduced here"
    assert (repos.local / "calc.py").read_text() == CALC_NO_IMPORT  # not fixed here
    no_leftovers(repos.local)


FLAKY_ONCE = """\
import os
from pathlib import Path


def test_flaky_once():
    # Fails the first time it runs (no mark yet), passes after: nothing changed.
    mark = Path(os.environ["FLAKY_MARK"])
    if not mark.exists():
        mark.write_text("ran")
        raise AssertionError("the service did not answer in time")
"""


def test_a_test_that_passes_on_its_own_re_run_is_flaky_and_needs_no_worktree(tmp_path):
    repos = make_repos(tmp_path)
    repos.commit_upstream({"calc.py": CALC_FIXED}, "fix add")
    git(repos.local, "pull", "-q", "--ff-only")
    repos.commit_local({"tests/test_flaky.py": FLAKY_ONCE}, "a test that is flaky")
    repos.commit_upstream({"README.md": "calc\n"}, "a readme")  # behind: a check could run
    head = git(repos.local, "rev-parse", "HEAD")
    mark = tmp_path / "flaky-mark"

    res, summary = run_recover(repos.local, FLAKY_MARK=str(mark))

    assert mark.exists()
    assert res.returncode == 0, res.stderr[-3000:]
    got = _triage_of(summary, "test_flaky_once")
    assert got["triage"]["verdict"] == "flaky", got
    reason = got["triage"]["reason"]
    assert reason.startswith(
        "tests/test_flaky.py::test_flaky_once passed when re-run alone (1 passed"
    )
    assert "\n" not in reason and reason.endswith("s)")
    assert got["result"] == "recovered"
    assert not (repos.local / ".faultlens" / "tmp").exists()  # no check, no worktree
    assert git(repos.local, "rev-parse", "HEAD") == head  # not synced: staleness played no part
    no_leftovers(repos.local)
