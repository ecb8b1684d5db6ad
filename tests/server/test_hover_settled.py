"""The hover reads how a failure's attempt settled from the ledger, never from
an outcome kept in memory: a fix the editor applied (nothing verified it) that
a terminal run then confirmed reads recovered, without the old box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.recipes import Ledger, Outcome, Workspace
from faultlens.server.features import hover_text

pytestmark = pytest.mark.fast
SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "typescript" / "tsc-plain-ts2304"


class _Server:
    """What hover_text asks of the server: where to report a crash."""

    def crashed(self, what: str, exc: BaseException) -> None:
        raise AssertionError(f"{what}: {exc}")


def _record(tmp_path: Path) -> Any:
    (rec,) = classify_text((SAMPLE / "output.txt").read_text(), Options(cwd=str(tmp_path)))
    rec.task = "T"
    return rec


def test_the_hover_shows_the_ledgers_settled_state_not_a_stale_one(tmp_path):
    ws = Workspace.at(tmp_path)
    rec = _record(tmp_path)
    ledger = Ledger.open(ws)
    aid = ledger.claim(rec.id, "T", "compile", rec)
    assert aid is not None
    ledger.finish(aid, Outcome(record=rec, result="applied", tried="Import it", reason="x"))
    applied = hover_text(_Server(), rec, ws)  # type: ignore[arg-type]
    assert "Attempts so far: 1 of 1 (applied)" in applied
    # A terminal run confirmed the editor's fix (recipes/confirm.py).
    assert ledger.settle_applied(aid, "recovered", "gone when the command ran again")
    after = hover_text(_Server(), rec, ws)  # type: ignore[arg-type]
    assert "Attempts so far: 1 of 1 (recovered)" in after and "╔" not in after


def test_the_hover_of_an_escalated_failure_shows_its_stored_box(tmp_path):
    ws = Workspace.at(tmp_path)
    rec = _record(tmp_path)
    ledger = Ledger.open(ws)
    aid = ledger.claim(rec.id, "T", "compile", rec)
    assert aid is not None
    box = "╔══ ERROR: Compile ══╗\n"
    ledger.finish(
        aid, Outcome(record=rec, result="escalated", tried="Import it", reason="no", box=box)
    )
    text = hover_text(_Server(), rec, ws)  # type: ignore[arg-type]
    assert "(escalated)" in text and "ERROR: Compile" in text
