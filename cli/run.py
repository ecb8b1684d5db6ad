"""`faultlens run [--recover] -- CMD ARGS...`: run a command, stream its output
through live, classify and log every failure; with --recover apply each
failure's recipe once, verify it, and print a summary (with the boxed display
for escalations).  Exit status: the command's final status."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .main import UsageError
from .runio import group_summary, guarded, tests_affected
from .runio import say as _say
from .runio import writer as _writer

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import Outcome, Workspace

SUMMARY_FORMATS = ("text", "json", "jsonl")


def add_workspace_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--workspace",
        metavar="DIR",
        help="workspace root (default: the git work tree around --cwd, else --cwd)",
    )
    p.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where the ledger and logs live (default: ROOT/.faultlens)",
    )


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "run",
        help="run a command, classify its failures, optionally recover",
        description="Run CMD (no shell), stream its output through, classify and log every "
        "failure. With --recover, apply each failure's recipe once and verify it. Exit status "
        "is the command's final status (after a successful recovery, the re-run's).",
    )
    p.add_argument("--task", help="task id the failures belong to (default: 'default')")
    p.add_argument("--recover", action="store_true", help="apply each recipe once and verify")
    p.add_argument(
        "--format", choices=SUMMARY_FORMATS, default="text", help="summary format (on stderr)"
    )
    p.add_argument("--cwd", default=".", help="directory to run the command in (default: .)")
    p.add_argument(
        "--watch",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="follow CMD as a watcher, reporting each cycle (default: when CMD names one, "
        "e.g. tsc --watch, vitest --watch, nodemon)",
    )
    p.add_argument("--begin", metavar="REGEX", help="a line that begins a watcher's cycle")
    p.add_argument("--end", metavar="REGEX", help="a line that ends a watcher's cycle")
    add_workspace_args(p)
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="-- CMD ARGS...")
    p.set_defaults(func=run)


def find_root(cwd: Path) -> Path:
    """The git work tree containing cwd, else cwd."""
    for folder in (cwd, *cwd.parents):
        if (folder / ".git").exists():
            return folder
    return cwd


def workspace_for(args: argparse.Namespace, cwd: Path, worker: str = "cli") -> Workspace:
    """The workspace of a command; problems with its state dir are said on
    stderr, one line each, once."""
    from faultlens.recipes import RecipeSettings, Workspace, statefs

    statefs.set_reporter(lambda message: _say(sys.stderr, message))
    root = Path(args.workspace).resolve() if getattr(args, "workspace", None) else find_root(cwd)
    state = Path(os.path.abspath(args.state_dir)) if getattr(args, "state_dir", None) else None
    return Workspace(roots=[root], state_dir=state, settings=RecipeSettings(worker=worker))


@dataclass(slots=True)
class RunReport:
    exit_code: int
    records: list[FailureRecord] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    box: str | None = None  # the task's one escalation box
    reruns: int = 0  # runs of the original command after the first


def run_command(
    cmd: Sequence[str],
    *,
    cwd: Path,
    ws: Workspace,
    task: str | None,
    recover: bool,
    out: IO[bytes],
    err_bytes: IO[bytes],
    err: IO[str],
) -> RunReport:
    """Run, classify, log, recover; everything but the summary."""
    from faultlens.recipes.ledger import Ledger
    from faultlens.recipes.runner import build_env, shell_status, spawn

    from .passthrough import copy_through

    ledger: Ledger | None = guarded(ws, Ledger.open, ws)
    cwd_rel = os.path.relpath(cwd, ws.root).replace(os.sep, "/")
    if ledger is not None:
        from faultlens.recipes.recovery import recover_state

        recover_state(ws)  # what a killed faultlens left half done
    # The command starts first; the classifier is built and fed on a worker
    # thread started after it (its imports and rule compiling overlap the
    # command), and copying the output through never waits for classification.
    child = spawn(cmd, cwd=cwd, env=build_env(ws, {}))
    from faultlens.recipes import history, treestate

    # The commit and work tree it ran on, for history (our own state left out).
    where = treestate.TreeProbe(cwd, exclude=[ws.state_dir] if ws.state_dir else [])
    # The run's row, its argv redacted (which reads the secret detector set,
    # tens of ms: after the command started, not before).
    run_id: int | None = None
    if ledger is not None:
        run_id = guarded(ws, ledger.start_run, task, cmd, cwd_rel)
    if isinstance(child, str):
        if ledger is not None and run_id is not None:
            guarded(ws, ledger.finish_run, run_id, 127, [])
        from faultlens.classifier.redact import redact_argv

        _say(err, f"cannot run {redact_argv(cmd[:1])[0]}: {child}")
        return RunReport(127)
    from .background import BackgroundClassifier

    classifying = BackgroundClassifier(cwd=str(cwd), task=task, command=list(cmd))
    from faultlens.recipes.proctree import reap

    from .runio import stop_tree_on_signals

    tree: set[int] = set()  # what the command started, when a signal stops it
    restore = stop_tree_on_signals(child.pid, tree)
    try:
        code = copy_through(
            child, on_stdout=_writer(out), on_stderr=_writer(err_bytes), on_data=classifying.feed
        )
        classifier = classifying.finish()
    except BaseException:  # Ctrl-C, SIGTERM: the command is stopped; so is the worker
        classifying.abandon()
        raise
    finally:
        restore()
        reap(tree)
    from faultlens.recipes.events import EventLog

    events = EventLog(ws)
    classifier.options.exit_code = code
    records = classifier.close()
    from faultlens.classifier.redact import redact_argv

    shown = redact_argv(cmd)  # what is stored and shown; `cmd` itself is what runs
    for r in records:
        r.hint.setdefault("command", shown)
        r.hint.setdefault("cwd", cwd_rel)
        if task and not r.task:
            r.task = task
    events.emit_many("failure.classified", records, command=shown, exit_code=code)
    if ledger is not None and run_id is not None:
        guarded(ws, ledger.finish_run, run_id, code, records)
        guarded(ws, history.after_run, ledger, run_id, where.result(), records, recover)
        # fixes applied earlier without a command to verify them: this run decides
        from faultlens.recipes.confirm import confirm_applied

        for d in guarded(ws, confirm_applied, ledger, task, cmd, records, events) or []:
            _say(err, f"{d.state}: the fix applied earlier to {d.failure_id}: {d.reason}")
    report = RunReport(code, records)
    if not recover or not records:
        return report
    if ledger is None or run_id is None:
        _say(err, "recipes are not attempted: each needs the ledger (one attempt per failure)")
        return report

    from faultlens.recipes.session import recover_run

    rec_report = recover_run(
        records,
        ws,
        command=cmd,
        cwd=cwd_rel,
        task=task,
        run_id=run_id,
        exit_code=code,
        echo=_writer(err_bytes),
        say=lambda text: _say(err, text),
    )
    report.outcomes = [*rec_report.outcomes, *rec_report.new]
    guarded(ws, history.note_endings, ledger, run_id, rec_report.outcomes)
    for o in report.outcomes:  # one line per group: what became of it, and why
        _say(err, f"{o.result}: {o.record.failure_type.value} {_where(o.record)}: {o.reason}")
    report.box = rec_report.box
    report.reruns = rec_report.reruns
    # a re-run killed by a signal: 128+N, as a shell says
    report.exit_code = (
        shell_status(rec_report.exit_code) if rec_report.exit_code is not None else code
    )
    if report.exit_code == 0 and all(o.result != "escalated" for o in report.outcomes):
        guarded(ws, ledger.set_task_status, task, "completed")
    return report


# -- summary ------------------------------------------------------------------------
def _where(r: FailureRecord) -> str:
    if not r.source_file:
        return "-"
    return f"{r.source_file}:{r.source_line}" if r.source_line else r.source_file


def summary_text(report: RunReport, recover: bool) -> str:
    """One row per failure group (a cause with the tests it accounts for), the
    totals, then the task's one box when anything was escalated."""
    lines: list[str] = []
    if not report.records:
        lines.append(f"faultlens: no failures found (exit {report.exit_code})")
        return "\n".join(lines) + "\n"
    rows: list[tuple[str, str, str, str]] = []
    if recover and report.outcomes:
        for o in report.outcomes:
            what = o.tried if o.result != "escalated" else o.record.signal
            if o.record.affected > 1:
                what = f"{what} ({tests_affected(o.record.affected)})"
            verdict = o.record.triage.verdict if o.record.triage else "unknown"
            if verdict != "unknown":  # whose failure it is (recipes/triage.py)
                what = f"[{verdict.replace('_', ' ')}] {what}"
            rows.append((o.result, o.record.failure_type.value, _where(o.record), what))
    else:
        for r in report.records:
            what = r.signal + (f" ({tests_affected(r.affected)})" if r.affected > 1 else "")
            rows.append(("found", r.failure_type.value, _where(r), what))
    heads = ("RESULT", "CATEGORY", "LOCATION", "WHAT")
    widths = [max(len(heads[c]), *(len(row[c]) for row in rows)) for c in range(3)]
    widths[2] = min(widths[2], 50)
    lines.append("")
    lines.append(
        f"{heads[0]:<{widths[0]}}  {heads[1]:<{widths[1]}}  {heads[2]:<{widths[2]}}  {heads[3]}"
    )
    for a, b, c, d in rows:
        d = d if len(d) <= 70 else d[:69] + "…"
        lines.append(f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c:<{widths[2]}}  {d}")
    counts: dict[str, int] = {}
    for o in report.outcomes:
        counts[o.result] = counts.get(o.result, 0) + 1
    lines.append("")
    attempted = recover and bool(report.outcomes)
    groups = group_summary(
        [o.record for o in report.outcomes[: len(report.records)]] if attempted else report.records
    )
    if attempted:
        parts = [f"{counts.get(k, 0)} {k}" for k in ("recovered", "escalated", "skipped")]
        new = len(report.outcomes) - len(report.records)
        extra = f"; {new} new" if new > 0 else ""
        again = f"; original command re-run {report.reruns}x" if report.reruns else ""
        lines.append(
            f"faultlens: {groups}: {', '.join(parts)}{extra}{again}; exit {report.exit_code}"
        )
    elif recover:  # asked for, but no recipe could be attempted (said above why)
        lines.append(f"faultlens: {groups}; no recipe attempted; exit {report.exit_code}")
    else:
        lines.append(
            f"faultlens: {groups}; run with --recover to attempt recipes; exit {report.exit_code}"
        )
    text = "\n".join(lines) + "\n"
    if report.box:
        text += "\n" + report.box
    return text


def summary_json(report: RunReport) -> dict[str, Any]:
    return {
        "exit_code": report.exit_code,
        "records": [r.to_json() for r in report.records],
        "outcomes": [o.to_json() for o in report.outcomes],
    }


def _watcher(cmd: list[str], args: argparse.Namespace) -> Any:
    """The watcher to follow CMD with (`--watch`, `--begin`/`--end`, or the one
    CMD names), or None to run it to its end."""
    import re

    from faultlens.classifier.cycles import AUTO, generic, watcher_for

    if args.watch is False:
        return None
    if args.begin or args.end:
        try:
            return generic(args.begin, args.end, name="--begin/--end")
        except re.error as exc:
            raise UsageError(f"bad cycle pattern: {exc}") from None
    known = watcher_for(cmd)
    if known is None and args.watch:
        import dataclasses

        return dataclasses.replace(AUTO, quiet=2.0)
    return known


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM ends `faultlens run` as Ctrl-C does: through every `finally`, so
    what a recipe made (a triage worktree, its processes) is removed at once."""
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace) -> int:
    import signal

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    cmd = list(args.command)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        raise UsageError("no command given (usage: faultlens run [--recover] -- CMD ARGS...)")
    cwd = Path(args.cwd).resolve()
    if not cwd.is_dir():
        raise UsageError(f"--cwd {args.cwd!r} is not a directory")
    ws = workspace_for(args, cwd)
    try:
        cwd.relative_to(ws.root)
    except ValueError:
        raise UsageError(f"--cwd {cwd} is outside the workspace {ws.root}") from None
    from faultlens.recipes.procscope import ProcessScope

    # The command carries a journalled token: after a kill -9 of faultlens, the
    # next start stops what it left running (a watcher never ends by itself).
    with ProcessScope(ws, own_group=False, stop_at_exit=False):
        return _run_in(cmd, cwd, ws, args)


def _run_in(cmd: list[str], cwd: Path, ws: Workspace, args: argparse.Namespace) -> int:
    watcher = _watcher(cmd, args)
    if watcher is not None:
        from faultlens.recipes.recovery import recover_state

        from .watch import run_watch

        guarded(ws, recover_state, ws)  # a watcher a killed faultlens left is stopped

        return run_watch(
            cmd,
            cwd=cwd,
            ws=ws,
            task=args.task,
            watcher=watcher,
            recover=args.recover,
            out=sys.stdout.buffer,
            err_bytes=sys.stderr.buffer,
            err=sys.stderr,
        )
    report = run_command(
        cmd,
        cwd=cwd,
        ws=ws,
        task=args.task,
        recover=args.recover,
        out=sys.stdout.buffer,
        err_bytes=sys.stderr.buffer,
        err=sys.stderr,
    )
    if args.format == "json":
        sys.stderr.write(json.dumps(summary_json(report), ensure_ascii=False) + "\n")
    elif args.format == "jsonl":
        for o in report.outcomes:
            sys.stderr.write(json.dumps(o.to_json(), ensure_ascii=False) + "\n")
        if not report.outcomes:
            for r in report.records:
                sys.stderr.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stderr.write(summary_text(report, args.recover))
    sys.stderr.flush()
    return report.exit_code
