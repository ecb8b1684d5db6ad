"""A fix nothing could verify is "applied", never "recovered" (issue 12.4:
recovered means the original command, re-run, no longer reports it): the
editor's quick fix on ingested output (no command known) leaves the
attempt open in the ledger, and the next run of the failure decides it
(recipes/confirm.py).  The failure: tsc's TS2304 from
tests/samples/typescript/tsc-plain-ts2304, its output as captured."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace, attempt
from faultlens.recipes.confirm import confirm_applied
from faultlens.recipes.ledger import Ledger

from .helpers import run_recover_in_process

SAMPLE = Path(__file__).parent / "samples" / "typescript" / "tsc-plain-ts2304"
ROOT = Path(__file__).resolve().parents[1]


def _ingested(tmp_path: Path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLE, proj)
    (proj / ".git").mkdir()
    records = classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))
    (rec,) = records
    rec.task = "T"
    return proj, rec


def _states(ws: Workspace) -> list[tuple[str, str]]:
    db = sqlite3.connect(ws.state / "ledger.sqlite3")
    return db.execute("SELECT state, reason FROM attempts ORDER BY id").fetchall()


def test_a_fix_for_output_without_a_command_is_applied_not_recovered(tmp_path):
    proj, rec = _ingested(tmp_path)
    ws = Workspace.at(proj)
    out = attempt(rec, ws)
    assert out.result == "applied"
    assert out.reason.startswith("applied, not verified: no command is known for this failure")
    assert out.verified is False and out.record.recovery_result is None
    assert (
        "import { UserProfile } from '../models/user';"
        in (proj / "src/auth/middleware.ts").read_text()
    )
    ((state, _),) = _states(ws)
    assert state == "applied"
    events = (ws.state / "events.jsonl").read_text()
    assert '"recovery.applied"' in events and '"recovery.succeeded"' not in events
    # the one automatic attempt is spent: asked again, its state, nothing tried
    before = (ws.state / "events.jsonl").read_text()
    again = attempt(rec, ws)
    assert again.result == "applied" and again.reason.startswith("already applied")
    assert (ws.state / "events.jsonl").read_text() == before


def test_the_next_run_of_the_same_tool_decides_the_applied_fix(tmp_path):
    proj, rec = _ingested(tmp_path)
    ws = Workspace.at(proj)
    attempt(rec, ws)
    ledger = Ledger.open(ws)
    # a run of another tool proves nothing
    assert confirm_applied(ledger, "T", ["pytest", "-q"], []) == []
    assert _states(ws)[0][0] == "applied"
    # tsc run again, the failure gone
    (d,) = confirm_applied(ledger, "T", ["npx", "tsc", "-p", "."], [])
    assert (d.failure_id, d.state) == (rec.id, "recovered")
    assert _states(ws) == [("recovered", "no longer reported by the next run (`npx tsc -p .`)")]


def test_a_next_run_that_reports_it_again_escalates_it(tmp_path):
    proj, rec = _ingested(tmp_path)
    ws = Workspace.at(proj)
    attempt(rec, ws)
    again = classify_bytes((SAMPLE / "output.txt").read_bytes(), Options(cwd=str(proj)))
    (d,) = confirm_applied(Ledger.open(ws), "T", [], again)  # an ingest: same tool's records
    assert d.state == "escalated"
    assert _states(ws)[0] == (
        "escalated",
        "still reported by the next run after the fix (the next output)",
    )


@pytest.mark.real_tool
def test_faultlens_run_of_the_build_confirms_the_fix_made_from_the_editor(tmp_path):
    tsc = ROOT / "tools" / "node" / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        pytest.skip("tsc not installed (scripts/install-tools.sh test)")
    proj, rec = _ingested(tmp_path)
    ws = Workspace.at(proj)
    attempt(rec, ws)
    report, _ = run_recover_in_process([str(tsc), "-p", "."], proj, "T")
    assert report.exit_code == 0
    assert _states(ws)[0][0] == "recovered"
