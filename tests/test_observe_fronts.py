"""Every front observes a run the same one way (recipes/observe.py): issue 25's
bugs of the observe half, each as a user meets it.

The breakage is the seed's TypeScript example (tests/samples/typescript/
tsc-plain-ts2304: TS2304 at src/auth/middleware.ts:42), in a git work tree
with a commit, so that each run's tree state can be taken."""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.classifier.cycles import watcher_for
from faultlens.recipes import Workspace, attempt

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "samples" / "typescript" / "tsc-plain-ts2304"
WATCH = ROOT / "tests" / "samples" / "watch" / "tsc-watch" / "output.txt"
SARIF = ROOT / "tests" / "samples" / "structured" / "ruff-sarif"
TSC = ROOT / "tools" / "node" / "node_modules" / ".bin" / "tsc"


def faultlens(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def _committed(folder: Path) -> Path:
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "broken"], check=True)
    return folder


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    dest = tmp_path / "proj"
    shutil.copytree(SAMPLE / "src", dest / "src")
    shutil.copy(SAMPLE / "tsconfig.json", dest / "tsconfig.json")
    shutil.copy(SAMPLE / "output.txt", dest / "output.txt")
    (dest / ".gitignore").write_text(".faultlens/\n")
    return _committed(dest)


def _runs(proj: Path) -> list[dict[str, object]]:
    db = sqlite3.connect(proj / ".faultlens" / "ledger.sqlite3")
    db.row_factory = sqlite3.Row
    return [dict(r) for r in db.execute("SELECT * FROM runs ORDER BY id")]


def _attempts(proj: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(proj / ".faultlens" / "ledger.sqlite3")
    return db.execute("SELECT state, reason FROM attempts ORDER BY id").fetchall()


def _hook_call(proj: Path, output: str, code: int, session: str) -> dict[str, object]:
    return {
        "session_id": session,
        "cwd": str(proj),
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "tsc -p ."},
        "tool_use_id": "toolu_1",
        "error": f"Exit code {code}\n{output}",
        "is_interrupt": False,
    }


def test_the_hook_keeps_the_whole_session_id_and_stores_its_run_with_the_tree_state(proj):
    session = "4acc1807-7dfa-4179-a7cd-5148e501036c"
    output = (proj / "output.txt").read_text()
    res = faultlens(
        "hook", "claude-code", cwd=proj, stdin=json.dumps(_hook_call(proj, output, 2, session))
    )
    assert res.returncode == 0, res.stderr
    (run,) = _runs(proj)
    assert run["task"] == f"claude-code-{session}"
    assert run["exit_code"] == 2 and run["head"] and run["tree"]


def test_the_hook_reads_a_sarif_report_as_located_compile_failures(tmp_path):
    case = _committed(shutil.copytree(SARIF, tmp_path / "case"))
    report = (case / "output.sarif").read_text()
    call = _hook_call(case, report, 1, "s-1")
    res = faultlens("hook", "claude-code", cwd=case, stdin=json.dumps(call))
    context = json.loads(res.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "compile at report.py:1: " in context and "compile at report.py:9: " in context
    assert "(no file)" not in context and "problem.severity" not in context


def test_a_clean_call_of_a_command_that_failed_before_is_stored_as_a_pass(proj):
    """The pass that lets history call a later failure on the same code flaky."""
    output = (proj / "output.txt").read_text()
    call = _hook_call(proj, output, 2, "s-2")
    faultlens("hook", "claude-code", cwd=proj, stdin=json.dumps(call))
    clean = {
        **call,
        "hook_event_name": "PostToolUse",
        "tool_response": {"stdout": "", "stderr": ""},
    }
    clean.pop("error")
    faultlens("hook", "claude-code", cwd=proj, stdin=json.dumps(clean))
    runs = _runs(proj)
    assert [r["exit_code"] for r in runs] == [2, 0]
    assert runs[0]["tree"] == runs[1]["tree"] is not None  # nothing changed in between


def _applied_in_the_editor(proj: Path) -> Workspace:
    """The editor's quick fix on ingested output (no command known): "applied"."""
    (rec,) = classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))
    rec.task = "T"
    ws = Workspace.at(proj)
    assert attempt(rec, ws).result == "applied"
    return ws


def _follow(proj: Path, ws: Workspace, output: str) -> str:
    from faultlens.cli.watch import Follower

    watcher = watcher_for(["tsc", "--watch"])
    assert watcher is not None
    err = io.StringIO()
    follower = Follower(
        ["tsc", "--watch", "-p", "."], cwd=proj, ws=ws, task="T", watcher=watcher, err=err
    )
    follower.start()
    follower.feed(output.encode())
    follower.finish(0)
    return err.getvalue()


def test_a_watch_cycle_no_longer_reporting_an_applied_fix_confirms_it(proj):
    ws = _applied_in_the_editor(proj)
    captured = WATCH.read_text()
    clean = captured[captured.index("\n", captured.index("Found 1 error")) + 1 :]
    clean = clean[: clean.index("Found 0 errors")]
    clean += "Found 0 errors. Watching for file changes.\n"  # the captured cycle's own end line
    said = _follow(proj, ws, clean)
    assert "cycle 1: no failures" in said
    ((state, reason),) = _attempts(proj)
    assert state == "recovered", reason
    assert "no longer reported by the next run" in reason
    (run,) = _runs(proj)
    assert run["tree"] is not None  # a watch cycle counts toward history too


def test_a_watch_cycle_still_reporting_an_applied_fix_escalates_it(proj):
    ws = _applied_in_the_editor(proj)
    captured = WATCH.read_text()
    first = captured[: captured.index("\n", captured.index("Found 1 error")) + 1]
    _follow(proj, ws, first)
    ((state, _),) = _attempts(proj)
    assert state == "escalated"


@pytest.mark.skipif(not TSC.exists(), reason="tsc is missing: run scripts/install-tools.sh test")
def test_status_after_a_recovered_run_shows_the_final_exit(proj):
    res = faultlens("run", "--recover", "--", str(TSC), "-p", ".", cwd=proj)
    assert res.returncode == 0, res.stderr
    assert "1 recovered" in res.stderr
    data = json.loads(faultlens("status", "--json", cwd=proj).stdout)
    assert data["last_run"]["exit_code"] == 0
    text = faultlens("status", cwd=proj).stdout
    assert "exit 0" in text and "exit 2" not in text
