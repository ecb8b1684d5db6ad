"""`workspace/executeCommand` commands, `faultlens/ingest`, and code action resolution.

Every command takes one JSON object argument (camelCase keys), validated by
the models of server/protocol.py; bad arguments are an *Invalid Params* error.
"""

from __future__ import annotations

import asyncio
import io
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as T

from faultlens.classifier.redact import shown_command

from . import actions, convert, runner
from . import protocol as P
from .app import FaultLensServer, PendingPlan
from .editor_apply import EditorApplier, offered_plan
from .runlog import LOG_HOLD_LINES, default_key, open_run_log, run_source
from .store import TaskInfo

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import CommandStep, Outcome, TextEdit, Workspace

REPORT_EVERY = 0.2  # seconds between $/progress reports


def register(server: FaultLensServer) -> None:
    """Register every faultlens.* command (and the recipe auto-recover runs)."""

    async def recover_one(failure_id: str) -> Any:
        return await apply_recipe(server, failure_id, edit_applied=False)

    server.recover_one = recover_one

    @server.command(P.CMD_RUN)
    async def run(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        a = P.parse_args(P.RunArgs, args)
        if a.command is None and a.name is None:
            raise _invalid("faultlens.run needs `command` (argv list or string) or `name`")
        if a.command is not None:
            command: list[str] | str = a.command
        elif a.name in ls.settings.run_commands:
            command = ls.settings.run_commands[a.name]
        else:
            raise _invalid(f"no run command named {a.name!r} in settings (runCommands)")
        try:
            argv = runner.to_argv(command)
            cwd = runner.working_dir(ls.root, a.cwd)
        except runner.BadCommand as exc:
            raise _invalid(str(exc)) from None
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
            for key in _store_keys(ls, a.task):
                touched |= ls.store.remove_task(key)
        ls.publish(touched)
        ls.info(f"faultlens: cleared {a.task or 'every task'} ({len(touched)} file(s))")
        return {"cleared": len(touched)}

    @server.command(P.CMD_CONFLICT)
    async def accept_conflict(ls: FaultLensServer, *args: Any) -> dict[str, Any]:
        a = P.parse_args(P.ConflictArgs, args)
        edit = conflict_edit(ls, a.uri, a.line, a.choice)
        if edit is None:
            raise _invalid(f"no conflict hunk at line {a.line + 1} of {a.uri}")
        result = await ls.workspace_apply_edit_async(
            T.ApplyWorkspaceEditParams(edit=edit, label=f"faultlens: accept {a.choice}")
        )
        ls.info(f"faultlens: accept {a.choice} at {a.uri}:{a.line + 1}: applied={result.applied}")
        return {"applied": result.applied}

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
        raise _invalid(f"no applied fix is known for {failure_id}")
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


def _invalid(message: str) -> Exception:
    from pygls.exceptions import JsonRpcInvalidParams

    return JsonRpcInvalidParams(message)


def _store_task(args: tuple[Any, ...]) -> str | None:
    first = args[0] if args else None
    value = first.get("storeTask") if isinstance(first, dict) else None
    return value if isinstance(value, str) else None


def _store_keys(ls: FaultLensServer, task: str) -> list[str]:
    """Store keys for a ledger task name: the key itself, or runs whose records carry it
    (records without a task belong to the default task)."""
    from faultlens.recipes import DEFAULT_TASK

    keys = {e.task for e in ls.store.entries() if (e.record.task or DEFAULT_TASK) == task}
    keys |= {
        k for k, info in ls.store.tasks.items() if k == task or (info.task or DEFAULT_TASK) == task
    }
    keys |= {k for k, t in ls.running_task.items() if k == task or (t or DEFAULT_TASK) == task}
    return sorted(keys)


# -- running and ingesting output ------------------------------------------------------
async def launch(
    ls: FaultLensServer,
    argv: list[str],
    cwd: Path,
    task: str | None,
    key: str | None = None,
    *,
    watch: bool | None = None,
    begin: str | None = None,
    end: str | None = None,
) -> dict[str, Any]:
    """Run a command to its end (`run_task`), or follow a watcher in the
    background (server/watchrun.py: answered at once with the task id)."""
    import re

    from . import watchrun

    try:
        watcher = await asyncio.to_thread(
            watchrun.choose, argv, cwd, watch=watch, begin=begin, end=end
        )
    except re.error as exc:
        raise _invalid(f"bad cycle pattern: {exc}") from None
    if watcher is None:
        return await run_task(ls, argv, cwd, task, key)
    key = key or default_key(argv, task, ls.rel_cwd(cwd))
    if key in ls.running:
        raise _invalid(f"{key} is already running")
    return watchrun.start(ls, argv, cwd, task, key, watcher)


async def run_task(
    ls: FaultLensServer, argv: list[str], cwd: Path, task: str | None, key: str | None = None
) -> dict[str, Any]:
    """Run a command, streaming its output into the classifier, with $/progress."""
    from faultlens.classifier.structured import Recogniser

    key = key or default_key(argv, task, ls.rel_cwd(cwd))
    if key in ls.running:
        raise _invalid(f"{key} is already running")
    stop = asyncio.Event()
    ls.running[key] = stop
    ls.running_task[key] = task
    request_id = P.REQUEST_ID.get()
    if request_id is not None:
        ls.run_requests[request_id] = key
    log_path = ls.run_log(key)
    opts = ls.options(cwd=cwd, task=task, command=argv, exit_code=None, log_file=str(log_path))
    classifier = Recogniser(opts)  # structured reports first, as every output
    token = str(uuid.uuid4())
    progress = ls.supports("window.work_done_progress")
    shown = shown_command(argv)  # `argv` itself runs; this is what is shown
    title = f"faultlens: {shown}"
    try:
        if progress:
            await ls.work_done_progress.create_async(token)
            ls.work_done_progress.begin(
                token, T.WorkDoneProgressBegin(title=title, message="starting", cancellable=True)
            )
        ls.info(f"faultlens: running {shown} in {cwd}")
        last_report = 0.0

        def report(lines: int) -> None:
            nonlocal last_report
            now = time.monotonic()
            if progress and now - last_report >= REPORT_EVERY:
                last_report = now
                ls.work_done_progress.report(
                    token, T.WorkDoneProgressReport(message=f"{lines} lines")
                )

        def cancelled() -> bool:
            fut = ls.work_done_progress.tokens.get(token)
            return stop.is_set() or (fut is not None and fut.cancelled())

        from faultlens.classifier.logredact import LogRedactor, scrub_file

        # The log on disk never holds a secret, nor one a scanner names a few
        # lines later (the classifier is fed first; lines are held back).
        scrub = LogRedactor(classifier.secrets, hold=LOG_HOLD_LINES)
        log_out, logged = open_run_log(ls, log_path)
        with log_out as out:

            async def on_output(chunk: bytes) -> None:
                await asyncio.to_thread(classifier.feed, chunk)
                out.write(scrub.feed(chunk))

            result = await runner.run_command(
                argv,
                cwd,
                on_output=on_output,
                on_lines=report,
                cancelled=cancelled,
                timeout=ls.settings.run_timeout,
            )
            # Its last blocks may name a secret the held-back lines show.
            classifier.options.exit_code = result.exit_code
            await asyncio.to_thread(classifier.close)
            out.write(scrub.close())
        if scrub.late and logged:  # named after its line was written: mask it there too
            await asyncio.to_thread(scrub_file, log_path, scrub.late)
        if result.error:
            if progress:
                ls.work_done_progress.end(token, T.WorkDoneProgressEnd(message=result.error))
            ls.warn(f"faultlens: {result.error}", show=True)
            return {"task": key, "error": result.error, "exitCode": None, "failures": 0}
        if progress:
            ls.work_done_progress.report(
                token, T.WorkDoneProgressReport(message=f"{result.lines} lines, classifying")
            )
        # A run the user stopped did not fail: no "exited with status -15" record.
        classifier.options.exit_code = None if result.cancelled else result.exit_code
        classified = await asyncio.to_thread(ls.finish, classifier)
        info = TaskInfo(
            argv=argv, task=task, cwd=cwd, exit_code=result.exit_code, log_path=log_path
        )
        partial = result.cancelled or result.timed_out
        if partial:
            why = "cancelled" if result.cancelled else "timed out"
            ls.info(
                f"faultlens: {shown} {why} after {result.lines} lines; "
                "earlier failures it did not re-check are kept"
            )
        entries = await ls.take(
            key, classified, cwd, info, partial=partial, source=run_source(argv, ls.rel_cwd(cwd))
        )
        summary = f"exit {result.exit_code}, {len(entries)} failure(s), {result.lines} lines"
        if progress:
            ls.work_done_progress.end(token, T.WorkDoneProgressEnd(message=summary))
        return {
            "task": key,
            "exitCode": result.exit_code,
            "failures": len(entries),
            "lines": result.lines,
            "seconds": round(result.seconds, 3),
            "cancelled": result.cancelled,
            "timedOut": result.timed_out,
            "log": str(log_path),
        }
    except BaseException:
        if progress:
            ls.work_done_progress.end(token, T.WorkDoneProgressEnd(message="stopped"))
        raise
    finally:
        ls.running.pop(key, None)
        ls.running_task.pop(key, None)
        if request_id is not None:
            ls.run_requests.pop(request_id, None)
        ls.work_done_progress.tokens.pop(token, None)


async def ingest_output(ls: FaultLensServer, a: P.IngestArgs) -> None:
    """Classify output the client captured (a terminal, a task)."""
    argv: list[str] | None
    try:
        argv = runner.to_argv(a.command) if a.command else None
    except runner.BadCommand:
        argv = None
    try:
        cwd = runner.working_dir(ls.root, a.cwd)
    except runner.BadCommand as exc:
        ls.warn(f"faultlens/ingest: {exc}; using the workspace root")
        cwd = ls.root
    key = default_key(argv, a.task, ls.rel_cwd(cwd))
    log_path = ls.run_log(key)
    data = a.output.encode("utf-8", "surrogatepass")
    opts = ls.options(
        cwd=cwd, task=a.task, command=argv, exit_code=a.exit_code, log_file=str(log_path)
    )

    classified = await asyncio.to_thread(ls.classify_stream, io.BytesIO(data), opts)
    info = TaskInfo(argv=argv, task=a.task, cwd=cwd, exit_code=a.exit_code, log_path=log_path)
    write_log = ls.log_writer(log_path, data, classified.secrets)
    source = "ingest:" + run_source(argv, ls.rel_cwd(cwd))
    await ls.take(key, classified, cwd, info, write_log=write_log, source=source)


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
            raise _invalid(f"unknown failure {fid}")
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
        edit = conflict_edit(ls, data.uri, data.line, data.choice)
        if edit is None:
            raise _invalid("the conflict hunk is gone")
        action.edit = edit
        return action
    if isinstance(data, P.ReviewActionData):
        fid = data.failure_id
        entry = ls.store.get(fid)
        if entry is None:
            raise _invalid(f"unknown failure {fid}")
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
    return action


def conflict_edit(ls: FaultLensServer, uri: str, line: int, choice: str) -> T.WorkspaceEdit | None:
    """The edit that resolves the conflict hunk starting at/around `line`."""
    from faultlens.recipes import conflict_hunks, resolve_hunk

    path = convert.uri_to_path(uri)
    if path is None or choice not in ("current", "incoming", "both"):
        return None
    lines, _, _ = ls.text_of(path)
    hunks = conflict_hunks(str(path), "".join(lines))
    for h in hunks:
        if h.start_line <= line <= h.end_line:
            te = resolve_hunk(h, choice)  # type: ignore[arg-type]
            rel = (
                path.relative_to(ls.root).as_posix() if path.is_relative_to(ls.root) else str(path)
            )
            te.path = rel
            return actions.workspace_edit([te], ls.root, ls.text_of)
    return None


async def apply_recipe(
    ls: FaultLensServer, failure_id: str, *, edit_applied: bool
) -> dict[str, Any]:
    """Apply a recipe (edits through the client), verify, record, re-publish: the
    one lifecycle (recipes' `attempt_offered`) in a worker thread, with the editor's
    applier and, in watch mode, the watcher's next cycle for the re-run."""
    from faultlens.recipes import attempt_offered

    entry = ls.store.get(failure_id)
    if entry is None:
        raise _invalid(f"unknown failure {failure_id}")
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


async def task_option(
    ls: FaultLensServer, option: str, a: P.TaskArgs, store_task: str | None
) -> dict[str, Any]:
    """retry / skip / stop a task (the seed's options)."""
    from faultlens.recipes import retry_task, skip_task, stop_task

    ws = ls.recipe_workspace()
    fn = {"retry": retry_task, "skip": skip_task, "stop": stop_task}[option]
    state = await asyncio.to_thread(fn, a.task, ws)
    keys = [store_task] if store_task else _store_keys(ls, a.task)
    out: dict[str, Any] = {
        "task": state.task,
        "status": state.status,
        "accepted": state.accepted,
        "retriesUsed": state.retries_used,
        "maxRetries": state.max_retries,
        "message": state.message,
    }
    if not state.accepted:
        ls.warn(f"faultlens: {option} {a.task} refused: {state.message}", show=True)
        return out
    # "retry default: retry 1 of 2": the count as the ledger has it, said once.
    ls.info(f"faultlens: {option} {a.task}: {state.message or state.status}")
    if option == "skip":
        touched: set[Path] = set()
        for k in keys:
            touched |= ls.store.remove_task(k)
        ls.publish(touched)
    elif option == "stop":
        for k in keys:
            if k in ls.running:
                ls.running[k].set()
    elif option == "retry":
        for k in keys:
            info = ls.store.tasks.get(k)
            if k in ls.running:
                out["run"] = {"task": k, "alreadyRunning": True}
                break
            if info and info.argv and info.cwd:
                out["run"] = await launch(ls, info.argv, info.cwd, info.task, key=k)
                break
    return out


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
        raise _invalid(str(exc)) from None
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
        raise _invalid(f"unknown failure {failure_id}")
    done = True
    if not edit_applied:  # else the client already applied the resolved edit
        try:
            step = await asyncio.to_thread(
                mark_reviewed, ls.root_relative(entry), ls.recipe_workspace()
            )
        except UnsafeEdit as exc:
            raise _invalid(str(exc)) from None
        done = await _run_review_step(ls, step)
    if done:
        ls.publish(ls.store.remove(failure_id))
    ls.info(f"faultlens: marked {failure_id} reviewed: {done}")
    return {"reviewed": done}
