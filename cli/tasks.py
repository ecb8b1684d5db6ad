"""The seed's options after an escalation, from the terminal: `faultlens retry
TASK` (try again with fresh context, at most 2 retries), `faultlens skip TASK`
(go on with the other tasks), `faultlens stop [TASK]` (stop here; completed work
is kept).  Each is recorded in the ledger and logged ("user selected: retry")."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .main import UsageError
from .run import add_workspace_args, workspace_for


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)


def add_retry(sub: Any) -> None:
    p = sub.add_parser(
        "retry",
        help="retry a task with fresh context (at most 2 retries)",
        description="Count a retry of TASK (refused past the limit: a human decides) and run "
        "its last command again with --recover: every failure gets one fresh attempt. Exit "
        "status: that run's, or 1 when the retry is refused.",
    )
    p.add_argument("task", metavar="TASK")
    p.add_argument("--no-run", action="store_true", help="count the retry, run nothing")
    add_common(p)
    p.set_defaults(func=retry)


def add_skip(sub: Any) -> None:
    p = sub.add_parser(
        "skip",
        help="skip a task; the other tasks continue",
        description="Mark TASK skipped: its failures are no longer attempted.",
    )
    p.add_argument("task", metavar="TASK")
    add_common(p)
    p.set_defaults(func=skip)


def add_stop(sub: Any) -> None:
    p = sub.add_parser(
        "stop",
        help="stop here (completed work is kept)",
        description="Mark TASK (default: every task not completed or skipped) stopped: no "
        "recipe is attempted for it any more; completed work is kept.",
    )
    p.add_argument("task", metavar="TASK", nargs="?")
    add_common(p)
    p.set_defaults(func=stop)


def _ws(args: argparse.Namespace) -> Any:
    cwd = Path(args.cwd).resolve()
    if not cwd.is_dir():
        raise UsageError(f"--cwd {args.cwd!r} is not a directory")
    ws = workspace_for(args, cwd)
    if not (ws.state / "ledger.sqlite3").exists():
        raise UsageError(f"no ledger in {ws.state}: run `faultlens run -- CMD` first")
    return ws


def _masked(argv: list[str]) -> str | None:
    try:
        from faultlens.classifier.redact import masked_secret
    except ImportError:
        return None
    found: str | None = masked_secret(argv)
    return found


def retry(args: argparse.Namespace) -> int:
    from faultlens.recipes import Ledger, retry_task

    from .run import run_command, summary_text

    ws = _ws(args)
    ledger = Ledger.open(ws)
    last = ledger.last_run(args.task)
    if last is None and not args.no_run:
        raise UsageError(f"task {args.task!r} has no recorded run to retry")
    state = retry_task(args.task, ws)
    print(f"faultlens: {state.message}", file=sys.stderr)
    if not state.accepted:
        return 1
    if args.no_run or last is None:
        return 0
    masked = _masked(last.argv)
    if masked is not None:
        print(
            f"faultlens: the stored command holds a masked secret ({masked}); run it again "
            "with `faultlens run --recover --task TASK -- CMD`",
            file=sys.stderr,
        )
        return 1
    cwd = ws.root if last.cwd in ("", ".") else ws.root / last.cwd
    report = run_command(
        last.argv,
        cwd=cwd,
        ws=ws,
        task=args.task,
        recover=True,
        out=sys.stdout.buffer,
        err_bytes=sys.stderr.buffer,
        err=sys.stderr,
    )
    sys.stderr.write(summary_text(report, True))
    return report.exit_code


def skip(args: argparse.Namespace) -> int:
    from faultlens.recipes import skip_task

    state = skip_task(args.task, _ws(args))
    print(f"faultlens: {state.message}", file=sys.stderr)
    return 0


def stop(args: argparse.Namespace) -> int:
    from faultlens.recipes import Ledger, stop_task

    ws = _ws(args)
    if args.task is not None:
        tasks = [args.task]
    else:
        tasks = [
            t["task"]
            for t in Ledger.open(ws).status()["tasks"]
            if t["status"] not in ("completed", "skipped", "stopped")
        ]
    for task in tasks:
        stop_task(task, ws)
    names = ", ".join(tasks) if tasks else "nothing to stop"
    print(f"faultlens: stopped {names}; completed work is kept", file=sys.stderr)
    return 0
