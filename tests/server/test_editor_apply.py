"""The editor's applier (server/editor_apply.py) under the one attempt path,
with a fake client and a fake re-runner, without processes: the lifecycle
runs in a worker thread and the workspace/applyEdit request goes out on the
server's loop; the editor's buffers take the edit, the stale file on disk is
written for the re-run, and the fix is kept for a revert.  A client that
declines, fails or cannot edit answers as applyRecipe always has."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as T
from pygls.workspace import PositionCodec

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Ledger, RecipeSettings, Workspace, attempt_offered, revert
from faultlens.recipes.lifecycle.apply import Fixing
from faultlens.recipes.model import CommandStep, Rerun
from faultlens.server.editor_apply import EditorApplier, offered_plan

pytestmark = pytest.mark.fast
SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "typescript" / "tsc-plain-ts2304"
MIDDLEWARE = "src/auth/middleware.ts"
TSC = ["tsc", "-p", "."]


class FakeEditor:
    """What the editor applier asks of the server: the client's answer to
    workspace/applyEdit (its buffers change, not the disk), the log."""

    def __init__(self, root: Path, ws: Workspace, answer: Any = True, can_edit: bool = True):
        self.root = root
        self.ws = ws
        self.answer = answer
        self.can_edit = can_edit
        self.requests: list[T.ApplyWorkspaceEditParams] = []
        self.said: list[str] = []
        self.crashes: list[str] = []

    def supports(self, path: str) -> bool:
        return self.can_edit

    def text_of(self, path: Path) -> tuple[list[str], PositionCodec, int | None]:
        return path.read_text().splitlines(keepends=True), PositionCodec(), None

    async def workspace_apply_edit_async(
        self, params: T.ApplyWorkspaceEditParams
    ) -> T.ApplyWorkspaceEditResult:
        self.requests.append(params)
        if isinstance(self.answer, Exception):
            raise self.answer
        if self.answer is True:
            return T.ApplyWorkspaceEditResult(applied=True)
        return T.ApplyWorkspaceEditResult(applied=False, failure_reason=self.answer)

    def recipe_workspace(self) -> Workspace:
        return self.ws

    def info(self, message: str) -> None:
        self.said.append(message)

    def crashed(self, what: str, exc: BaseException) -> None:
        self.crashes.append(f"{what}: {exc}")


def _clean_rerun(step: CommandStep, record: FailureRecord | None) -> Rerun:
    return Rerun(0, [], "", "a fake re-run")


def _sample(tmp_path: Path) -> tuple[Workspace, FailureRecord]:
    shutil.copytree(SAMPLE / "src", tmp_path / "src")
    (rec,) = classify_text((SAMPLE / "output.txt").read_text(), Options(cwd=str(tmp_path)))
    rec.task = "T"
    return Workspace.at(tmp_path, settings=RecipeSettings(rerun=_clean_rerun)), rec


async def _attempt(ws: Workspace, rec: FailureRecord, editor: FakeEditor, **kw: Any) -> Any:
    applier = EditorApplier(editor, ws, asyncio.get_running_loop(), **kw)  # type: ignore[arg-type]
    return await asyncio.to_thread(
        lambda: attempt_offered(rec, ws, applier, command=TSC, cwd=".", **_planned(kw))
    )


def _planned(kw: dict[str, Any]) -> dict[str, Any]:
    offered = kw.get("offered")
    return {"planned": offered.plan} if offered is not None else {}


def _attempted(ws: Workspace) -> int:
    lines = (ws.state / "events.jsonl").read_text().splitlines()
    return sum(json.loads(x)["event"] == "recovery.attempted" for x in lines)


async def test_the_edit_goes_through_the_client_then_the_stale_disk_then_the_ledger(tmp_path):
    ws, rec = _sample(tmp_path)
    editor = FakeEditor(tmp_path, ws)
    done = await _attempt(ws, rec, editor)
    assert done.outcome.result == "recovered", done.outcome.reason
    (request,) = editor.requests
    assert request.label and request.label.startswith("faultlens: ")
    # The client changed only its buffer: the applier wrote the file for the re-run.
    assert "import { UserProfile }" in (tmp_path / MIDDLEWARE).read_text()
    assert revert.find(Ledger.open(ws), rec.id) is not None  # kept for a revert
    assert any("edit applied=True; verifying" in s for s in editor.said)
    assert editor.crashes == [] and _attempted(ws) == 1


@pytest.mark.parametrize(
    ("answer", "reason"), [(None, "edits not applied"), ("read-only buffer", "read-only buffer")]
)
async def test_a_client_that_declines_the_edit_escalates(tmp_path, answer, reason):
    ws, rec = _sample(tmp_path)
    before = (tmp_path / MIDDLEWARE).read_text()
    editor = FakeEditor(tmp_path, ws, answer=answer)
    done = await _attempt(ws, rec, editor)
    assert done.outcome.result == "escalated"
    assert done.outcome.reason == f"the fix could not be applied: {reason}"
    assert (tmp_path / MIDDLEWARE).read_text() == before
    assert any("edit applied=False" in s for s in editor.said)


async def test_a_client_whose_request_fails_escalates_instead_of_leaving_the_slot(tmp_path):
    ws, rec = _sample(tmp_path)
    editor = FakeEditor(tmp_path, ws, answer=RuntimeError("connection lost"))
    done = await _attempt(ws, rec, editor)
    assert done.outcome.result == "escalated"
    assert "did not answer workspace/applyEdit: connection lost" in done.outcome.reason
    assert Ledger.open(ws).automatic_attempt(rec.id, "T").state == "escalated"  # type: ignore[union-attr]


async def test_a_client_that_cannot_edit_gets_the_files_written(tmp_path):
    ws, rec = _sample(tmp_path)
    editor = FakeEditor(tmp_path, ws, can_edit=False)
    done = await _attempt(ws, rec, editor)
    assert done.outcome.result == "recovered" and editor.requests == []
    assert "import { UserProfile }" in (tmp_path / MIDDLEWARE).read_text()
    assert revert.find(Ledger.open(ws), rec.id) is not None


async def test_the_offered_edit_the_client_applied_is_only_synced_and_kept(tmp_path):
    ws, rec = _sample(tmp_path)
    editor = FakeEditor(tmp_path, ws)
    pending = await asyncio.to_thread(
        offered_plan,
        editor,  # type: ignore[arg-type]
        _plan(rec, ws),
    )
    done = await _attempt(ws, rec, editor, offered=pending)
    assert done.outcome.result == "recovered" and editor.requests == []  # not sent again
    assert "import { UserProfile }" in (tmp_path / MIDDLEWARE).read_text()
    assert revert.find(Ledger.open(ws), rec.id) is not None and _attempted(ws) == 1


async def test_on_the_loop_itself_the_applier_refuses_rather_than_deadlock(tmp_path):
    ws, rec = _sample(tmp_path)
    editor = FakeEditor(tmp_path, ws)
    applier = EditorApplier(editor, ws, asyncio.get_running_loop())  # type: ignore[arg-type]
    p = _plan(rec, ws)
    applied = applier.apply(p.edits, Fixing("T", (rec.id,), (), p.title))
    assert not applied.ok and "worker thread" in (applied.error or "")
    assert editor.requests == []


def _plan(rec: FailureRecord, ws: Workspace) -> Any:
    from faultlens.recipes import Plan, plan

    p = plan(rec, ws, command=TSC, cwd=".")
    assert isinstance(p, Plan)
    return p
