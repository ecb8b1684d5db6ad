"""The review steps of the trust gate: a human marks a finding reviewed,
and its allow-list entry is applied (an edit through the client, or a
validated command); offered as a code action and as `faultlens.markReviewed`."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

from lsprotocol import types as T

from . import actions, runner
from . import protocol as P
from .app import FaultLensServer

if TYPE_CHECKING:
    from faultlens.recipes import CommandStep, TextEdit


async def resolve_review_action(
    ls: FaultLensServer, action: T.CodeAction, data: P.ReviewActionData
) -> T.CodeAction:
    """codeAction/resolve of a review action: the allow-list edit, computed now."""
    fid = data.failure_id
    entry = ls.store.get(fid)
    if entry is None:
        raise P.invalid(f"unknown failure {fid}")
    from faultlens.recipes import TextEdit, UnsafeEdit, mark_reviewed

    try:
        step = await asyncio.to_thread(
            mark_reviewed, ls.root_relative(entry), ls.recipe_workspace()
        )
    except UnsafeEdit as exc:
        action.disabled = T.CodeActionDisabled(reason=str(exc))
        return action
    if isinstance(step, TextEdit):
        action.edit = actions.workspace_edit([step], ls.root, ls.text_of)
    action.command = T.Command(
        title="faultlens: reviewed",
        command=P.CMD_REVIEWED,
        arguments=[{"failureId": fid, "editApplied": isinstance(step, TextEdit)}],
    )
    return action


async def _run_review_step(ls: FaultLensServer, step: TextEdit | CommandStep) -> bool:
    """Apply an allow-list entry: an edit through the client, or a validated command."""
    from faultlens.recipes import TextEdit

    if isinstance(step, TextEdit):
        edit = actions.workspace_edit([step], ls.root, ls.text_of)
        result = await ls.workspace_apply_edit_async(
            T.ApplyWorkspaceEditParams(edit=edit, label="faultlens: mark reviewed")
        )
        return result.applied
    try:
        cwd = runner.working_dir(ls.root, step.cwd)
    except runner.BadCommand as exc:
        raise P.invalid(str(exc)) from None
    sink = io.BytesIO()

    async def keep(chunk: bytes) -> None:
        sink.write(chunk)

    res = await runner.run_command(
        step.argv, cwd, on_output=keep, timeout=step.timeout, env=step.env
    )
    return res.exit_code == 0


async def reviewed(ls: FaultLensServer, failure_id: str, *, edit_applied: bool) -> dict[str, Any]:
    """trust_gate: a human marked the finding reviewed (allow-list entry)."""
    from faultlens.recipes import UnsafeEdit, mark_reviewed

    entry = ls.store.get(failure_id)
    if entry is None:
        raise P.invalid(f"unknown failure {failure_id}")
    done = True
    if not edit_applied:  # else the client already applied the resolved edit
        try:
            step = await asyncio.to_thread(
                mark_reviewed, ls.root_relative(entry), ls.recipe_workspace()
            )
        except UnsafeEdit as exc:
            raise P.invalid(str(exc)) from None
        done = await _run_review_step(ls, step)
    if done:
        ls.publish(ls.store.remove(failure_id))
    ls.info(f"faultlens: marked {failure_id} reviewed: {done}")
    return {"reviewed": done}
