"""Running and ingesting output for the server's commands: `faultlens.run`
(a command to its end with $/progress, or a watcher followed in the
background), `faultlens/ingest` (output the client captured), and the
seed's retry / skip / stop of a task.
"""

from __future__ import annotations

import asyncio
import io
import time
import uuid
from pathlib import Path
from typing import Any

from lsprotocol import types as T

from faultlens.classifier.redact import shown_command

from . import protocol as P
from . import runner
from .app import FaultLensServer
from .runlog import LOG_HOLD_LINES, default_key, open_run_log, run_source
from .store import TaskInfo

REPORT_EVERY = 0.2  # seconds between $/progress reports


def store_keys(ls: FaultLensServer, task: str) -> list[str]:
    """Store keys for a ledger task name: the key itself, or runs whose records carry it
    (records without a task belong to the default task)."""
    from faultlens.recipes import DEFAULT_TASK

    keys = {e.task for e in ls.store.entries() if (e.record.task or DEFAULT_TASK) == task}
    keys |= {
        k for k, info in ls.store.tasks.items() if k == task or (info.task or DEFAULT_TASK) == task
    }
    keys |= {k for k, t in ls.running_task.items() if k == task or (t or DEFAULT_TASK) == task}
    return sorted(keys)


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
        raise P.invalid(f"bad cycle pattern: {exc}") from None
    if watcher is None:
        return await run_task(ls, argv, cwd, task, key)
    key = key or default_key(argv, task, ls.rel_cwd(cwd))
    if key in ls.running:
        raise P.invalid(f"{key} is already running")
    return watchrun.start(ls, argv, cwd, task, key, watcher)


async def run_task(
    ls: FaultLensServer, argv: list[str], cwd: Path, task: str | None, key: str | None = None
) -> dict[str, Any]:
    """Run a command, streaming its output into the classifier, with $/progress."""
    from faultlens.classifier.structured import Recogniser

    key = key or default_key(argv, task, ls.rel_cwd(cwd))
    if key in ls.running:
        raise P.invalid(f"{key} is already running")
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


async def task_option(
    ls: FaultLensServer, option: str, a: P.TaskArgs, store_task: str | None
) -> dict[str, Any]:
    """retry / skip / stop a task (the seed's options)."""
    from faultlens.recipes import retry_task, skip_task, stop_task

    ws = ls.recipe_workspace()
    fn = {"retry": retry_task, "skip": skip_task, "stop": stop_task}[option]
    state = await asyncio.to_thread(fn, a.task, ws)
    keys = [store_task] if store_task else store_keys(ls, a.task)
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
