"""The apply stage (recipes/lifecycle/apply.py) and the one attempt path that
takes an applier (recipes' `attempt_offered`, the editor's code action), tested
with a fake applier and a fake re-runner, without processes: an applier that
fails escalates "the fix could not be applied: ..."; an applied fix is
verified by the re-runner; the failure's slot is claimed once (one
`recovery.attempted`), and asked again it is declined with nothing written.

The failure is the real tsc sample tests/samples/typescript/tsc-plain-ts2304
(its captured output, its sources)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import (
    Ledger,
    Plan,
    RecipeSettings,
    TextEdit,
    Workspace,
    apply_edits,
    attempt_offered,
    plan,
)
from faultlens.recipes.lifecycle.apply import ApplyResult, DiskApplier, Fixing
from faultlens.recipes.lifecycle.claim import IN_PROGRESS
from faultlens.recipes.model import CommandStep, Rerun

pytestmark = pytest.mark.fast
SAMPLE = Path(__file__).resolve().parent / "samples" / "typescript" / "tsc-plain-ts2304"
MIDDLEWARE = "src/auth/middleware.ts"
TSC = ["tsc", "-p", "."]


class FakeApplier:
    """An applier that writes the edits to disk (or fails), and says what it was given."""

    def __init__(self, ws: Workspace, error: str | None = None) -> None:
        self.ws = ws
        self.error = error
        self.calls: list[tuple[list[TextEdit], Fixing]] = []
        self.locked = 0

    def lock(self) -> AbstractContextManager[object]:
        self.locked += 1
        return nullcontext()

    def apply(self, edits: Sequence[TextEdit], fixing: Fixing) -> ApplyResult:
        self.calls.append((list(edits), fixing))
        if self.error is not None:
            return ApplyResult(error=self.error)
        return ApplyResult(written=apply_edits(edits, self.ws))


def _reruns(records: list[FailureRecord], code: int, ran: list[str]) -> Any:
    def rerun(step: CommandStep, record: FailureRecord | None) -> Rerun:
        ran.append(" ".join(step.argv))
        return Rerun(code, records, "", "a fake re-run")

    return rerun


def _sample(tmp_path: Path, ran: list[str], code: int = 0) -> tuple[Workspace, FailureRecord]:
    shutil.copytree(SAMPLE / "src", tmp_path / "src")
    (rec,) = classify_text((SAMPLE / "output.txt").read_text(), Options(cwd=str(tmp_path)))
    rec.task = "T"
    ws = Workspace.at(tmp_path, settings=RecipeSettings(rerun=_reruns([], code, ran)))
    return ws, rec


def _events(ws: Workspace, name: str) -> list[dict[str, Any]]:
    path = ws.state / "events.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [e for e in map(json.loads, lines) if e["event"] == name]


def test_an_applier_that_fails_escalates_and_the_files_stay(tmp_path):
    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)
    before = (tmp_path / MIDDLEWARE).read_text()
    applier = FakeApplier(ws, error="the editor refused the edit")
    done = attempt_offered(rec, ws, applier, command=TSC, cwd=".")
    assert done.declined is None and not done.refused and done.crash is None
    assert done.outcome is not None and done.outcome.result == "escalated"
    assert done.outcome.reason == "the fix could not be applied: the editor refused the edit"
    assert (tmp_path / MIDDLEWARE).read_text() == before
    assert ran == []  # nothing to verify: nothing was applied
    assert len(_events(ws, "recovery.attempted")) == 1
    assert Ledger.open(ws).automatic_attempt(rec.id, "T").state == "escalated"  # type: ignore[union-attr]


def test_an_applied_fix_is_verified_by_the_rerunner_and_claimed_once(tmp_path):
    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)
    applier = FakeApplier(ws)
    done = attempt_offered(rec, ws, applier, command=TSC, cwd=".")
    assert done.outcome is not None and done.outcome.result == "recovered", done.outcome
    assert done.outcome.verified and ran  # the fake re-run decided
    assert applier.locked == 1 and len(applier.calls) == 1
    edits, fixing = applier.calls[0]
    assert {e.path for e in edits} == {MIDDLEWARE}
    assert fixing.failure_ids == (rec.id,) and fixing.task == "T" and len(fixing.attempt_ids) == 1
    assert "import { UserProfile }" in (tmp_path / MIDDLEWARE).read_text()
    # Asked again: declined, nothing applied, nothing written.
    again = attempt_offered(rec, ws, FakeApplier(ws), command=TSC, cwd=".")
    assert (
        again.outcome is None
        and again.declined
        and again.declined.startswith("Recipe already tried")
    )
    assert len(_events(ws, "recovery.attempted")) == 1
    assert len(_events(ws, "recovery.succeeded")) == 1


def test_a_fix_the_rerun_still_reports_is_undone_through_the_applier(tmp_path):
    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)
    before = (tmp_path / MIDDLEWARE).read_text()
    again = classify_text((SAMPLE / "output.txt").read_text(), Options(cwd=str(tmp_path)))
    ws = Workspace.at(tmp_path, settings=RecipeSettings(rerun=_reruns(again, 2, ran)))
    applier = DiskApplier(ws, Ledger.open(ws))
    done = attempt_offered(rec, ws, applier, command=TSC, cwd=".")
    assert done.outcome is not None and done.outcome.result == "escalated"
    assert done.outcome.reason.startswith("undone: the re-run still failed with error TS2304")
    assert (tmp_path / MIDDLEWARE).read_text() == before  # kept for a revert, so undone


def test_the_offered_plan_is_applied_without_planning_again(tmp_path, monkeypatch):
    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)
    offered = plan(rec, ws, command=TSC, cwd=".")
    assert isinstance(offered, Plan)

    def no_second_plan(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("planned again")

    monkeypatch.setattr("faultlens.recipes.single_attempt.plan", no_second_plan)
    applier = FakeApplier(ws)
    done = attempt_offered(rec, ws, applier, planned=offered, command=TSC, cwd=".")
    assert done.outcome is not None and done.outcome.result == "recovered"
    assert applier.calls[0][0] == offered.edits


def test_a_taken_slot_declines_with_nothing_written(tmp_path):
    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)
    # Another process claimed the failure and has not settled it yet.
    assert Ledger.open(ws).claim(rec.id, "T", rec.failure_type.value, rec) is not None
    applier = FakeApplier(ws)
    done = attempt_offered(rec, ws, applier, command=TSC, cwd=".")
    assert done.outcome is None and done.declined and applier.calls == []
    assert _events(ws, "recovery.attempted") == []


def test_a_concurrent_claim_between_the_check_and_the_claim_is_in_progress(tmp_path, monkeypatch):
    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)
    real = Ledger.claim

    def raced(self: Ledger, *args: Any, **kwargs: Any) -> int | None:
        real(self, *args, **kwargs)  # the other caller won the slot
        return None

    monkeypatch.setattr(Ledger, "claim", raced)
    done = attempt_offered(rec, ws, FakeApplier(ws), command=TSC, cwd=".")
    assert done.outcome is None and done.declined == IN_PROGRESS


def test_a_planner_crash_settles_the_claimed_slot(tmp_path, monkeypatch):
    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)

    def crash(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("planner bug")

    monkeypatch.setattr("faultlens.recipes.single_attempt.plan", crash)
    applier = FakeApplier(ws)
    done = attempt_offered(rec, ws, applier, command=TSC, cwd=".")
    assert isinstance(done.crash, RuntimeError) and applier.calls == []
    assert done.outcome is not None and done.outcome.result == "escalated"
    assert "the recipe crashed: RuntimeError: planner bug" in done.outcome.reason
    row = Ledger.open(ws).automatic_attempt(rec.id, "T")
    assert row is not None and row.state == "escalated"  # settled, not left pending


def test_the_clis_attempt_settles_a_planner_crash_in_its_slot_too(tmp_path, monkeypatch):
    from faultlens.recipes import attempt

    ran: list[str] = []
    ws, rec = _sample(tmp_path, ran)

    def crash(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("planner bug")

    monkeypatch.setattr("faultlens.recipes.single_attempt.plan", crash)
    out = attempt(rec, ws, command=TSC, cwd=".")
    assert out.result == "escalated" and "planner bug" in out.reason
    row = Ledger.open(ws).automatic_attempt(rec.id, "T")
    assert row is not None and row.state == "escalated"  # before: left pending for good
