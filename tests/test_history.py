"""A failure's history across runs (recipes/history.py): first and last seen,
times seen, how each occurrence ended, flaky counts, and a test that flips
between pass and fail on the same code called flaky without any re-run.

Real git, real pytest, `faultlens run` in this process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.recipes import Ledger, Workspace, history, treestate

from .helpers import _Sink

ENV_TEST = """\
import os


def test_service_answers():
    # Fails when the environment says the service is down: the code is the same.
    assert os.environ.get("SERVICE_DOWN") != "1", "the service did not answer"


def test_other():
    assert True
"""


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def _project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "tests").mkdir(parents=True)
    (proj / "tests" / "test_service.py").write_text(ENV_TEST)
    (proj / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n")
    _git(proj, "init", "-q", "-b", "main")
    _git(proj, "add", "-A")
    _git(proj, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "tests")
    return proj


PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]


def _run(proj: Path, monkeypatch: pytest.MonkeyPatch, down: bool):
    from faultlens.cli.run import run_command

    monkeypatch.setenv("SERVICE_DOWN", "1" if down else "0")
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # the project's pytest, bare
    out, err = _Sink(), _Sink()
    ws = Workspace.at(proj)
    report = run_command(
        PYTEST, cwd=proj, ws=ws, task=None, recover=False, out=out, err_bytes=err, err=err
    )
    return report, ws


def _failing(report):
    (rec,) = [r for r in report.records if r.failure_type.value == "test"]
    return rec


def test_a_test_that_fails_and_passes_on_the_same_code_is_flaky_without_a_rerun(
    tmp_path, monkeypatch
):
    proj = _project(tmp_path)
    first, ws = _run(proj, monkeypatch, down=True)
    rec = _failing(first)
    assert rec.triage is not None and rec.triage.verdict == "unknown"
    assert "--recover" in rec.triage.reason
    passed, _ = _run(proj, monkeypatch, down=False)
    assert passed.exit_code == 0 and not passed.records
    again, _ = _run(proj, monkeypatch, down=True)
    rec = _failing(again)
    assert rec.triage is not None and rec.triage.verdict == "flaky"
    assert "passed on the same code" in rec.triage.reason

    h = history.history(Ledger.open(ws), rec.id)
    assert h.times == 2 and h.flaky == 2 and h.flips
    assert h.first_seen is not None and h.last_seen is not None
    assert h.first_seen <= h.last_seen
    text = history.describe(h)
    assert text.startswith("seen 2× since ") and "flaky 2 of 2" in text


def test_a_change_to_the_code_between_a_fail_and_a_pass_is_not_flakiness(tmp_path, monkeypatch):
    proj = _project(tmp_path)
    test_file = proj / "tests" / "test_service.py"
    original = test_file.read_text()
    first, ws = _run(proj, monkeypatch, down=True)
    rec = _failing(first)
    # The developer "fixes" the test (uncommitted), it passes; then breaks it again.
    test_file.write_text(original.replace('!= "1"', '!= "never"'))
    fixed, _ = _run(proj, monkeypatch, down=True)
    assert fixed.exit_code == 0
    test_file.write_text(original)
    again, _ = _run(proj, monkeypatch, down=True)
    rec = _failing(again)
    assert rec.triage is not None and rec.triage.verdict == "unknown"
    h = history.history(Ledger.open(ws), rec.id)
    assert h.times == 2 and h.flaky == 0 and not h.flips
    assert history.describe(h).startswith("seen 2× since ")


def test_the_tree_key_is_the_commit_plus_every_local_change(tmp_path):
    proj = _project(tmp_path)
    clean = treestate.tree_state(proj)
    assert clean is not None and clean.head == _git(proj, "rev-parse", "HEAD")
    assert treestate.tree_state(proj / "tests") == clean  # any folder of the work tree
    (proj / "notes.txt").write_text("untracked\n")
    untracked = treestate.tree_state(proj)
    assert untracked is not None and untracked.tree != clean.tree
    (proj / "notes.txt").write_text("changed\n")
    changed = treestate.tree_state(proj)
    assert changed is not None and changed.tree not in (clean.tree, untracked.tree)
    (proj / "notes.txt").unlink()
    assert treestate.tree_state(proj) == clean
    # It is a look only: the index is not rewritten (GIT_OPTIONAL_LOCKS=0).
    index = (proj / ".git" / "index").read_bytes()
    (proj / "tests" / "test_service.py").touch()
    treestate.tree_state(proj)
    assert (proj / ".git" / "index").read_bytes() == index
    assert treestate.tree_state(tmp_path) is None  # not a git work tree


def test_status_history_lists_the_worst_offenders(tmp_path, monkeypatch):
    proj = _project(tmp_path)
    for down in (True, False, True, True):
        _run(proj, monkeypatch, down=down)
    res = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "status", "--history", "--json"],
        cwd=proj,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    (row,) = json.loads(res.stdout)["history"]
    assert row["times"] == 3 and row["flaky"] == 3
    assert row["endings"] == {"flaky": 3}
    assert "tests/test_service.py" in row["where"]
    text = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "status", "--history"],
        cwd=proj,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "flaky 3 of 3" in text and "test_service_answers" in text


def _stored_runs(ws: Workspace, record, n: int) -> Ledger:
    ledger = Ledger.open(ws)
    for _ in range(n):
        run_id = ledger.start_run(None, ["pytest"], ".")
        ledger.finish_run(run_id, 1, [record])
    return ledger


def test_the_box_and_the_hover_say_how_often_a_failure_was_seen_and_its_triage(tmp_path):
    from faultlens.classifier import classify_text
    from faultlens.classifier.record import Triage
    from faultlens.recipes.outcome import make_outcome, task_box
    from faultlens.server import convert

    (rec,) = classify_text("src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n")
    ws = Workspace.at(tmp_path)
    ledger = _stored_runs(ws, rec, 3)
    rec.triage = Triage(
        verdict="preexisting", reason="also failing on origin/main", upstream="origin/main"
    )
    out = make_outcome(rec, ws, ledger, "escalated", "nothing", "also failing on origin/main")
    box = task_box(ws, ledger, None, [out], [], ["tsc"])
    flat = " ".join(box.split())
    assert "History: seen 3× since " in flat
    assert "Triage: pre-existing — also failing on origin/main" in flat

    seen = history.describe(history.history(ledger, rec.id))
    hover = convert.hover_markdown(rec, summary=None, attempts=None, box=None, history=seen)
    assert "Triage: **preexisting** — also failing on origin/main" in hover
    assert f"History: {seen}" in hover and seen.startswith("seen 3× since ")


def test_a_failure_seen_for_the_first_time_gets_no_history_line(tmp_path):
    from faultlens.classifier import classify_text

    (rec,) = classify_text("src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n")
    ws = Workspace.at(tmp_path)
    ledger = _stored_runs(ws, rec, 1)
    assert history.box_lines(ledger, rec) == []
    assert history.describe(history.history(ledger, rec.id)).startswith("first seen ")


def test_an_untracked_virtualenv_or_node_modules_is_not_part_of_the_code(tmp_path):
    proj = _project(tmp_path)
    clean = treestate.tree_state(proj)
    venv = proj / ".venv"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for i in range(600):  # more files than a tree key reads
        (venv / "lib" / f"m{i}.py").write_text("x = 1\n")
    (proj / "web" / "node_modules" / "left-pad").mkdir(parents=True)
    (proj / "web" / "node_modules" / "left-pad" / "index.js").write_text("module.exports = 1\n")
    assert treestate.tree_state(proj) == clean
    assert treestate.tool_path(proj, ".venv/lib/m1.py")
    assert treestate.tool_path(proj, "web/node_modules/left-pad/index.js")
    assert not treestate.tool_path(proj, "tests/test_service.py")


def test_the_worst_offenders_of_one_task_count_that_task_s_runs_only(tmp_path):
    from faultlens.classifier import classify_text

    (rec,) = classify_text("src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n")
    ledger = Ledger.open(Workspace.at(tmp_path))
    for task, n in (("A", 2), ("B", 3)):
        for _ in range(n):
            run_id = ledger.start_run(task, ["tsc"], ".")
            ledger.finish_run(run_id, 2, [rec])
    assert [h.times for h in history.worst(ledger, 5)] == [5]
    assert [h.times for h in history.worst(ledger, 5, task="A")] == [2]
    assert history.worst(ledger, 5, task="C") == []
