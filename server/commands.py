"""`workspace/executeCommand` commands: their registration, the recipe
commands (apply, revert, the escalation prompt) and code action resolution.

Every command takes one JSON object argument (camelCase keys), validated by
the models of server/protocol.py; bad arguments are an *Invalid Params* error.
Running and ingesting output live in server/tasks.py, conflict resolution in
server/conflict_commands.py, the trust gate's review steps in
server/review_commands.py.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as T

from . import actions, runner
from . import protocol as P
from .app import FaultLensServer, PendingPlan
from .conflict_commands import accept_conflict, resolve_conflict_action
from .editor_apply import EditorApplier, offered_plan
from .review_commands import resolve_review_action, reviewed
from .tasks import launch, store_keys, task_option

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import Outcome, Workspace


def register(server: FaultLensServer) -> None:
    """Register every faultlens.* command (and the recipe auto-recover runs)."""

    async def recover_one(failure_id: str) -> Any:
        return await apply_recipe(server, failure_id, edit_applied=False)

    server.recover_one = recover_one

    @server.command(P.CMD_RUN)
    async def run(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        a = P.parse_args(P.RunArgs, args)
        if a.command is None and a.name is None:
            raise P.invalid("faultlens.run needs `command` (argv list or string) or `name`")
        if a.command is not None:
            command: list[str] | str = a.command
        elif a.name in ls.settings.run_commands:
            command = ls.settings.run_commands[a.name]
        else:
            raise P.invalid(f"no run command named {a.name!r} in settings (runCommands)")
        try:
            argv = runner.to_argv(command)
            cwd = runner.working_dir(ls.root, a.cwd)
        except runner.BadCommand as exc:
            raise P.invalid(str(exc)) from None
        return await launch(ls, argv, cwd, a.task, watch=a.watch, begin=a.begin, end=a.end)

    @server.command(P.CMD_APPLY)
    async def apply(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        a = P.parse_args(P.FailureArgs, args)
        return await apply_recipe(ls, a.failure_id, edit_applied=a.edit_applied)

    @server.command(P.CMD_RETRY)
    async def retry(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        return await task_option(ls, "retry", P.parse_args(P.TaskArgs, args), _store_task(args))

    @server.command(P.CMD_SKIP)
    async def skip(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        return await task_option(ls, "skip", P.parse_args(P.TaskArgs, args), _store_task(args))

    @server.command(P.CMD_STOP)
    async def stop(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        return await task_option(ls, "stop", P.parse_args(P.TaskArgs, args), _store_task(args))

    @server.command(P.CMD_CLEAR)
    def clear(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        a = P.parse_args(P.ClearArgs, args)
        if a.task is None:
            touched = ls.store.clear()
        else:
            touched = set()
            for key in store_keys(ls, a.task):
                touched |= ls.store.remove_task(key)
        ls.publish(touched)
        ls.info(f"faultlens: cleared {a.task or 'every task'} ({len(touched)} file(s))")
        return {"cleared": len(touched)}

    @server.command(P.CMD_CONFLICT)
    async def accept(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        return await accept_conflict(ls, P.parse_args(P.ConflictArgs, args))

    @server.command(P.CMD_REVIEWED)
    async def mark_reviewed(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        a = P.parse_args(P.FailureArgs, args)
        return await reviewed(ls, a.failure_id, edit_applied=a.edit_applied)

    @server.command(P.CMD_CI)
    async def show_ci(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        from . import ci_view

        return await ci_view.show(ls, P.parse_args(P.CIArgs, args))

    @server.command(P.CMD_REVERT)
    async def revert_fix(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        a = P.parse_args(P.FailureArgs, args)
        return await revert_the_fix(ls, a.failure_id)


async def revert_the_fix(ls: FaultLensServer, failure_id: str) -> dict[str, Any]:
    """Revert the fix applied for a failure (recipes/revert.py): the files it
    changed, those unchanged since; the others are kept and named."""
    from faultlens.recipes import Ledger, revert

    ws = ls.recipe_workspace()
    applied = await asyncio.to_thread(lambda: revert.find(Ledger.open(ws), failure_id))
    if applied is None:
        raise P.invalid(f"no applied fix is known for {failure_id}")
    try:
        done = await asyncio.to_thread(revert.revert, ws, applied, who="server")
    except revert.RevertError as exc:
        ls.warn(f"faultlens: {exc}", show=True)
        return {"reverted": False, "reason": str(exc)}
    message = f"faultlens: reverted the fix ({applied.title}): {done.summary()}"
    if done.kept:
        ls.warn(message, show=True)
    else:
        ls.info(message)
    return {"reverted": True, **done.to_json()}


def _store_task(args: tuple[Any, ...]) -> str | None:
    first = args[0] if args else None
    value = first.get("storeTask") if isinstance(first, dict) else None
    return value if isinstance(value, str) else None


# -- recipes -----------------------------------------------------------------------------
async def resolve_action(
    ls: FaultLensServer,
    action: T.CodeAction,
    data: P.RecipeActionData | P.ReviewActionData | P.ConflictActionData,
) -> T.CodeAction:
    """codeAction/resolve: compute the edit (and the follow-up command) lazily."""
    if isinstance(data, P.RecipeActionData):
        fid = data.failure_id
        entry = ls.store.get(fid)
        if entry is None:
            raise P.invalid(f"unknown failure {fid}")
        from faultlens.recipes import Plan, plan

        ws = ls.recipe_workspace()
        argv, rel = ls.command_of(entry.task)
        record = entry.record
        p = await asyncio.to_thread(lambda: plan(record, ws, command=argv, cwd=rel))
        if not isinstance(p, Plan):
            action.disabled = T.CodeActionDisabled(reason=p.reason)
            return action
        ls.pending[fid] = await asyncio.to_thread(offered_plan, ls, p)
        if p.edits:
            action.edit = actions.workspace_edit(p.edits, ls.root, ls.text_of)
        action.command = T.Command(
            title="faultlens: verify",
            command=P.CMD_APPLY,
            arguments=[{"failureId": fid, "editApplied": bool(p.edits)}],
        )
        return action
    if isinstance(data, P.ConflictActionData):
        return resolve_conflict_action(ls, action, data)
    if isinstance(data, P.ReviewActionData):
        return await resolve_review_action(ls, action, data)
    return action


async def apply_recipe(
    ls: FaultLensServer, failure_id: str, *, edit_applied: bool
) -> dict[str, Any]:
    """Apply a recipe (edits through the client), verify, record, re-publish: the
    one lifecycle (recipes' `attempt_offered`) in a worker thread, with the editor's
    applier and, in watch mode, the watcher's next cycle for the re-run."""
    from faultlens.recipes import attempt_offered

    entry = ls.store.get(failure_id)
    if entry is None:
        raise P.invalid(f"unknown failure {failure_id}")
    pending = ls.pending.pop(failure_id, None)
    ws = _attempt_workspace(ls, entry.task, pending)
    argv, rel = ls.command_of(entry.task)
    offered = pending if pending is not None and edit_applied else None
    applier = EditorApplier(ls, ws, asyncio.get_running_loop(), offered=offered)
    record, planned = entry.record, offered.plan if offered is not None else None
    try:
        done = await asyncio.to_thread(
            lambda: attempt_offered(record, ws, applier, planned=planned, command=argv, cwd=rel)
        )
    except Exception as exc:
        ls.crashed(f"recipe {record.failure_type}", exc)
        return {"result": "error", "reason": str(exc)}
    if done.outcome is None:
        ls.info(f"faultlens: recipe for {failure_id} not run: {done.declined}")
        return {"result": "disabled", "reason": done.declined}
    if done.crash is not None:
        ls.crashed(f"recipe {record.failure_type}", done.crash)
        return {"result": "error", "reason": str(done.crash)}
    outcome = done.outcome
    if done.refused:
        ls.info(f"faultlens: no recipe for {failure_id}: {outcome.reason}")
        return {"result": "refused", "reason": outcome.reason}
    await after_outcome(ls, entry.task, entry.cwd, outcome, source=entry.source)
    return {
        "result": outcome.result,
        "reason": outcome.reason,
        "tried": outcome.tried,
        "box": outcome.box,
    }


def _attempt_workspace(ls: FaultLensServer, task: str, pending: PendingPlan | None) -> Workspace:
    """The workspace for an attempt: a followed watcher's failure is verified by
    its first cycle begun after the fix (before the plan was offered, at most)."""
    watching = ls.watches.get(task)
    if watching is None:
        return ls.recipe_workspace()
    from faultlens.recipes.watch_board import rerun_by_next_cycle

    since = min(pending.at, time.monotonic()) if pending else time.monotonic()
    hook = rerun_by_next_cycle(watching, ls.settings.watch_verify_timeout, since)
    return ls.recipe_workspace(rerun=hook)


async def after_outcome(
    ls: FaultLensServer, store_task: str, cwd: Path, outcome: Outcome, *, source: str = ""
) -> None:
    """Show an attempt's result: update the store, re-publish, ask on escalation.
    A full re-run's failures replace those of the run it re-ran (`source`)."""
    rec = outcome.record
    if outcome.result in ("recovered", "applied"):
        # "applied": the fix is in, nothing verified it yet; the next run or
        # ingest of this output decides (recipes/confirm.py)
        touched = ls.store.remove(rec.id)
        ls.info(
            f"faultlens: {outcome.result} {rec.failure_type} {rec.id}: "
            f"{outcome.reason or outcome.tried}"
        )
    else:
        entry = ls.store.update(rec.id, rec)
        touched = {entry.placement.path} if entry and entry.placement else set()
        ls.info(f"faultlens: {outcome.result} {rec.failure_type} {rec.id}: {outcome.reason}")
    if outcome.full_rerun:
        entries = await asyncio.to_thread(ls.place_all, outcome.new_records, cwd)
        for e in entries:
            e.task = store_task
            e.source = source
        touched |= ls.store.replace(store_task, entries, source=source)
    ls.publish(touched)
    if outcome.result == "escalated" and ls.settings.ask_on_escalation and outcome.options:
        ls.spawn(ask(ls, store_task, rec, outcome), "escalation prompt")


async def ask(
    ls: FaultLensServer, store_task: str, record: FailureRecord, outcome: Outcome
) -> None:
    """window/showMessageRequest with the escalation's options (retry / skip / stop)."""
    choices = {o.label: o.id for o in outcome.options}
    answer = await ls.window_show_message_request_async(
        T.ShowMessageRequestParams(
            type=T.MessageType.Error,
            message=f"faultlens: {record.failure_type} escalated: {outcome.reason}",
            actions=[T.MessageActionItem(title=label) for label in choices],
        )
    )
    if answer is None:
        return
    option = choices.get(answer.title)
    ls.info(f"faultlens: user selected: {option}")
    if option == "revert":
        await revert_the_fix(ls, record.id)
    elif option in ("retry", "skip", "stop"):
        args = P.TaskArgs(task=actions.default_task(record), failure_id=record.id)
        await task_option(ls, option, args, store_task)
