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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faultlens.recipes.lifecycle.tally import one_per_failure, records_per_failure, result_counts
from faultlens.recipes.run_and_recover import RunReport, run_command

from .main import UsageError
from .runio import group_summary, tests_affected
from .runio import say as _say

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import Workspace

SUMMARY_FORMATS = ("text", "json", "jsonl")
__all__ = ["RunReport", "run_command"]  # the run itself: recipes/run_and_recover.py


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
        "is the command's final status (after a successful recovery, the re-run's); 0 when its "
        "only failures are quarantined tests and the test runner's own summary says so "
        "(docs/team-history.md).",
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
    if recover and (report.outcomes or report.quarantined):
        for o in report.outcomes:
            what = o.tried if o.result != "escalated" else o.record.signal
            if o.record.affected > 1:
                what = f"{what} ({tests_affected(o.record.affected)})"
            verdict = o.record.triage.verdict if o.record.triage else "unknown"
            if verdict != "unknown":  # whose failure it is (recipes/triage.py)
                what = f"[{verdict.replace('_', ' ')}] {what}"
            rows.append((o.result, o.record.failure_type.value, _where(o.record), what))
        for r in report.quarantined:
            rows.append(("quarantined", r.failure_type.value, _where(r), _what(r)))
    else:
        for r in report.records:
            held = isinstance(r.hint.get("quarantined"), str)
            rows.append(
                ("quarantined" if held else "found", r.failure_type.value, _where(r), _what(r))
            )
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
    counts = result_counts(report.outcomes)  # one per failure, however many places
    lines.append("")
    attempted = recover and bool(report.outcomes or report.quarantined)
    groups = group_summary(
        records_per_failure(
            [o.record for o in report.outcomes[: report.attempted]] + report.quarantined
            if attempted
            else report.records
        )
    )
    if attempted:
        parts = [f"{counts.get(k, 0)} {k}" for k in ("recovered", "escalated", "skipped")]
        if report.quarantined:
            parts.append(f"{len(report.quarantined)} quarantined")
        new = len(one_per_failure(report.outcomes[report.attempted :]))
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
    lines += _notes(report)
    text = "\n".join(lines) + "\n"
    if report.box:
        text += "\n" + report.box
    return text


def _what(r: FailureRecord) -> str:
    why, test = r.hint.get("quarantined"), r.hint.get("test_id")
    if isinstance(why, str) and isinstance(test, str):  # which test, and why it does not block
        return f"{test} (quarantined: {why})"
    return r.signal + (f" ({tests_affected(r.affected)})" if r.affected > 1 else "")


def _notes(report: RunReport) -> list[str]:
    """Quarantine and the mass-failure guard, in words."""
    out = []
    if report.quarantined:
        n = len(report.quarantined)
        what = f"{n} quarantined test failure{'s' * (n != 1)} (not blocking)"
        if report.command_exit is not None:
            out.append(
                f"faultlens: {what}: exit {report.exit_code}; the command's own was "
                f"{report.command_exit}"
            )
        else:
            out.append(
                f"faultlens: {what}; exit {report.exit_code} stands"
                + (f": {report.quarantine_note}" if report.quarantine_note else "")
            )
    if report.mass_failure:
        out.append(
            f"faultlens: {report.mass_failure}: most of the run failed, infrastructure rather "
            "than flakiness; kept out of the flaky statistics"
        )
    return out


def summary_json(report: RunReport) -> dict[str, Any]:
    out: dict[str, Any] = {
        "exit_code": report.exit_code,
        "records": [r.to_json() for r in report.records],
        "outcomes": [o.to_json() for o in report.outcomes],
    }
    if report.quarantined:
        out["quarantined"] = [
            {"failure_id": r.id, "test_id": r.hint.get("test_id"), "reason": r.hint["quarantined"]}
            for r in report.quarantined
        ]
        out["command_exit_code"] = (
            report.command_exit if report.command_exit is not None else report.exit_code
        )
        if report.quarantine_note:
            out["quarantine_note"] = report.quarantine_note
    if report.mass_failure:
        out["mass_failure"] = report.mass_failure
    return out


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
        from faultlens.recipes.crash_restore import recover_state
        from faultlens.recipes.observe import guarded

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
