"""Quarantine and the mass-failure guard on real runs: real `faultlens run`s
of a real pytest suite against the test's own PostgreSQL database.  A
quarantined test's failure is reported as quarantined, and the run's exit
status is decided without it when pytest's own summary says nothing else
failed."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from .runs import clone, count, faultlens, git, pytest_run

pytestmark = pytest.mark.postgres

CACHE = "tests/test_cache.py::test_the_cache_is_warm"
CLOCK = "tests/test_cache.py::test_the_clock"
PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")


def _marks(tmp_path: Path, *names: str) -> dict[str, str]:
    out = {}
    for name in names:
        mark = tmp_path / name.lower()
        mark.write_text("")
        out[name] = str(mark)
    return out


def _quarantine(cwd: Path, url: str, test: str) -> None:
    added = faultlens(cwd, url, "quarantine", "add", test, "--reason", "cold cache on CI")
    assert added.returncode == 0, added.stderr


def _summary(run: object) -> dict[str, object]:
    stderr = run.stderr  # type: ignore[attr-defined]
    return json.loads(stderr.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_a_run_whose_only_failure_is_quarantined_exits_0_and_says_so(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    work = clone(origin, "q")
    _quarantine(work, history_url, CACHE)
    marks = _marks(tmp_path, "FLAKE_MARK")
    text = pytest_run(work, history_url, **marks)
    assert text.returncode == 0, text.stdout + text.stderr
    assert "1 failed, 2 passed" in text.stdout  # pytest itself failed the test
    row = next(line for line in text.stderr.splitlines() if line.startswith("quarantined"))
    assert f"{CACHE} (quarantined: cold cache" in row  # the table cuts at 70 columns
    assert "1 quarantined test failure (not blocking): exit 0; the command's own was 1" in (
        text.stderr
    )
    as_json = faultlens(work, history_url, "run", "--format", "json", "--", *PYTEST, **marks)
    assert as_json.returncode == 0
    summary = _summary(as_json)
    assert summary["exit_code"] == 0 and summary["command_exit_code"] == 1
    (held,) = summary["quarantined"]  # type: ignore[misc]
    assert held["test_id"] == CACHE and held["reason"] == "cold cache on CI"
    # the team's rows keep the command's own status: the facts are the runner's
    assert count(history_url, "SELECT count(*) FROM faultlens.runs WHERE exit_code = 1") == 2
    # what the hover reads of it (server/features.py): the team's line says quarantined
    from faultlens.recipes import Workspace
    from faultlens.recipes.team.sync import team_history

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAULTLENS_HISTORY_URL", history_url)
        found = team_history(Workspace.at(work), [held["failure_id"]])
    assert found[held["failure_id"]].describe().endswith("; quarantined")


def test_a_failure_that_is_not_quarantined_keeps_the_status(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    work = clone(origin, "q2")
    _quarantine(work, history_url, CACHE)
    run = pytest_run(work, history_url, **_marks(tmp_path, "FLAKE_MARK", "CLOCK_MARK"))
    assert run.returncode == 1, run.stdout + run.stderr
    rows = [line.split()[0] for line in run.stderr.splitlines() if "tests/test_cache.py" in line]
    assert sorted(rows) == ["found", "quarantined"]
    assert "exit 1 stands: other failures block the run" in run.stderr


def test_recover_leaves_a_quarantined_test_alone_and_exits_0(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    work = clone(origin, "q3")
    _quarantine(work, history_url, CACHE)
    run = faultlens(
        work,
        history_url,
        "run",
        "--recover",
        "--format",
        "json",
        "--",
        *PYTEST,
        **_marks(tmp_path, "FLAKE_MARK"),
    )
    assert run.returncode == 0, run.stderr
    summary = _summary(run)
    assert summary["outcomes"] == [] and summary["command_exit_code"] == 1
    assert "re-running" not in run.stderr  # not re-run, not escalated: reported


def test_recover_decides_the_final_runs_status_without_the_quarantined_test(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    """The other failure is flaky (passes on its re-run), the original
    command is run again and fails on the quarantined test only: exit 0."""
    work = clone(origin, "q4")
    _quarantine(work, history_url, CACHE)
    marks = _marks(tmp_path, "FLAKE_MARK")
    # the clock test fails once: its marker is removed by the test itself
    (work / "tests" / "test_once.py").write_text(
        "import os\n\n\ndef test_once():\n"
        "    mark = os.environ['ONCE_MARK']\n"
        "    if os.path.exists(mark):\n"
        "        os.unlink(mark)\n"
        "        raise AssertionError('first run only')\n"
    )
    once = tmp_path / "once"
    once.write_text("")
    run = faultlens(
        work,
        history_url,
        "run",
        "--recover",
        "--format",
        "json",
        "--",
        *PYTEST,
        ONCE_MARK=str(once),
        **marks,
    )
    summary = _summary(run)
    assert [o["result"] for o in summary["outcomes"]] == ["recovered"], run.stderr  # type: ignore[union-attr]
    assert run.returncode == 0, run.stderr
    assert summary["command_exit_code"] == 1


def test_a_run_where_most_tests_fail_is_infra_and_stays_out_of_the_flaky_statistics(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    """pytest's "6 failed" of 6: the run is a mass failure by the runner's own
    count; on the same code a later run passes, and yet no test of it is
    flaky in the team's view."""
    work = clone(origin, "mass")
    (work / "tests" / "test_db.py").write_text(
        "import os\nimport pytest\n\n\n@pytest.mark.parametrize('n', range(6))\n"
        "def test_query(n):\n    assert not os.path.exists(os.environ.get('DB_DOWN', '/nonexistent'))\n"
    )
    (work / "pytest.ini").write_text("[pytest]\ntestpaths = tests/test_db.py\n")
    down = _marks(tmp_path, "DB_DOWN")
    failed = pytest_run(work, history_url, **down)
    assert failed.returncode == 1, failed.stdout
    assert "6 failed" in failed.stdout
    assert "6 of 6 tests failed: most of the run failed, infrastructure" in failed.stderr
    assert pytest_run(work, history_url).returncode == 0  # same code, the database back
    assert count(history_url, "SELECT count(*) FROM faultlens.runs WHERE mass_failure") == 1
    assert count(history_url, "SELECT max(tests_total) FROM faultlens.runs") == 6
    status = json.loads(faultlens(work, history_url, "status", "--history", "--json").stdout)
    assert count(history_url, "SELECT count(*) FROM faultlens.occurrences") >= 1  # sent, and yet
    assert status.get("team", {"failures": []})["failures"] == []  # kept out of the view
    # the workspace's own ledger too: failing again on the code that passed is not "flaky"
    again = faultlens(work, history_url, "run", "--format", "json", "--", *PYTEST, **down)
    records = _summary(again)["records"]
    assert all(r["hint"]["mass_failure"] is True for r in records)  # type: ignore[union-attr]
    assert all((r["triage"] or {}).get("verdict") != "flaky" for r in records)  # type: ignore[union-attr]
    local = json.loads(faultlens(work, history_url, "status", "--history", "--json").stdout)
    assert local["history"] and all(h["flaky"] == 0 for h in local["history"])


def test_a_run_where_a_few_tests_fail_is_not_a_mass_failure(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    work = clone(origin, "few")
    run = pytest_run(work, history_url, **_marks(tmp_path, "FLAKE_MARK"))
    assert run.returncode == 1 and "infrastructure" not in run.stderr
    assert count(history_url, "SELECT count(*) FROM faultlens.runs WHERE mass_failure") == 0
    assert count(history_url, "SELECT max(tests_total) FROM faultlens.runs") == 3
    assert count(history_url, "SELECT max(tests_failed) FROM faultlens.runs") == 1


UNITTEST = """import os
import unittest


class Cache(unittest.TestCase):
    def test_warm(self):
        self.assertFalse(os.path.exists(os.environ.get("FLAKE_MARK", "/nonexistent/x")))

    def test_arithmetic(self):
        self.assertEqual(1 + 1, 2)
"""
NODE = """import test from 'node:test';
import assert from 'node:assert';
import { existsSync } from 'node:fs';

test('the cache is warm', () => {
  assert.ok(!existsSync(process.env.FLAKE_MARK ?? '/nonexistent/x'));
});
test('arithmetic', () => { assert.strictEqual(1 + 1, 2); });
"""


@pytest.mark.parametrize(
    ("runner", "files", "command", "test_id"),
    [
        (
            "unittest",
            {"tests/__init__.py": "", "tests/test_warm.py": UNITTEST},
            (sys.executable, "-m", "unittest"),
            "tests.test_warm.Cache.test_warm",
        ),
        (
            "node",
            {"cache.test.mjs": NODE},
            ("node", "--test", "cache.test.mjs"),
            "the cache is warm",
        ),
    ],
)
def test_other_runners_whose_summary_is_read_exit_0_on_a_quarantined_failure(
    origin: Path,
    history_url: str,
    tmp_path: Path,
    runner: str,
    files: dict[str, str],
    command: tuple[str, ...],
    test_id: str,
) -> None:
    if runner == "node" and shutil.which("node") is None:
        pytest.fail("node is not installed (scripts/setup.d installs it)")
    work = clone(origin, runner)
    for name, text in files.items():
        (work / name).write_text(text)
    marks = _marks(tmp_path, "FLAKE_MARK")
    before = faultlens(work, history_url, "run", "--", *command, **marks)
    assert before.returncode == 1, before.stderr
    _quarantine(work, history_url, test_id)
    after = faultlens(work, history_url, "run", "--format", "json", "--", *command, **marks)
    summary = _summary(after)
    assert after.returncode == 0, after.stderr
    assert summary["command_exit_code"] == 1
    assert [q["test_id"] for q in summary["quarantined"]] == [test_id]  # type: ignore[union-attr]


def test_retry_known_flakes_reruns_a_test_flaky_on_the_team_and_escalates_the_other(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    """`[recipes.test] retry = "known-flakes"`: the cache test failed on one
    clone and passed on another (flaky on the team); on a later commit a
    third clone's --recover re-runs it, and escalates the clock test, which
    has no flaky history, without a re-run."""
    (origin / ".faultlens.toml").write_text('[recipes.test]\nretry = "known-flakes"\n')
    git(origin, "add", ".")
    git(origin, "commit", "-qm", "retry only known flakes")
    marks = _marks(tmp_path, "FLAKE_MARK", "CLOCK_MARK")
    assert pytest_run(clone(origin, "a"), history_url, FLAKE_MARK=marks["FLAKE_MARK"]).returncode
    assert pytest_run(clone(origin, "b"), history_url).returncode == 0
    (origin / "README").write_text("a later commit\n")
    git(origin, "add", ".")
    git(origin, "commit", "-qm", "later")
    later = clone(origin, "c")
    override = (
        later / ".faultlens" / "recipes" / "test.md"
    )  # no triage: the reasons stay the recipe's
    override.parent.mkdir(parents=True)
    override.write_text("+++\n[triage]\nenabled = false\n+++\n")
    run = faultlens(
        later, history_url, "run", "--recover", "--format", "json", "--", *PYTEST, **marks
    )
    assert run.returncode == 1
    outcomes = {o["record"]["hint"]["test_id"]: o for o in _summary(run)["outcomes"]}  # type: ignore[union-attr]
    assert outcomes[CACHE]["tried"].startswith("re-ran ")
    clock = outcomes[CLOCK]
    assert clock["result"] == "escalated" and clock["tried"] == "nothing (not re-run)"
    assert "no flaky history" in clock["reason"] and "known-flakes" in clock["reason"]
