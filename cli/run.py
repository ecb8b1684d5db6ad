"""`faultlens run [--recover] -- CMD ARGS...`: run a command, stream its output
through live, classify and log every failure; with --recover apply each
failure's recipe once, verify it, and print a summary (with the boxed display
for escalations).  Exit status: the command's final status."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .main import UsageError

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
    from faultlens.recipes import RecipeSettings, Workspace

    root = Path(args.workspace).resolve() if getattr(args, "workspace", None) else find_root(cwd)
    state = Path(args.state_dir).resolve() if getattr(args, "state_dir", None) else None
    return Workspace(roots=[root], state_dir=state, settings=RecipeSettings(worker=worker))


@dataclass(slots=True)
class RunReport:
    exit_code: int
    records: list[FailureRecord] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)


def _writer(stream: IO[bytes]) -> Any:
    def write(chunk: bytes) -> None:
        try:
            stream.write(chunk)
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass

    return write


def _say(err: IO[str], text: str) -> None:
    err.write(f"faultlens: {text}\n")
    err.flush()


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
    from faultlens.recipes.runner import build_env, spawn

    from .passthrough import copy_through, shell_status

    ledger = Ledger.open(ws)
    cwd_rel = os.path.relpath(cwd, ws.root).replace(os.sep, "/")
    run_id = ledger.start_run(task, cmd, cwd_rel)
    # The command starts first; the classifier is built and fed on a worker
    # thread started after it (its imports and rule compiling overlap the
    # command), and copying the output through never waits for classification.
    child = spawn(cmd, cwd=cwd, env=build_env(ws, {}))
    if isinstance(child, str):
        ledger.finish_run(run_id, 127, [])
        _say(err, f"cannot run {cmd[0]}: {child}")
        return RunReport(127)
    from .background import BackgroundClassifier

    classifying = BackgroundClassifier(cwd=str(cwd), task=task, command=list(cmd))
    try:
        code = copy_through(
            child, on_stdout=_writer(out), on_stderr=_writer(err_bytes), on_data=classifying.feed
        )
        classifier = classifying.finish()
    except BaseException:  # Ctrl-C: the command is stopped; so is the worker
        classifying.abandon()
        raise
    from faultlens.recipes.events import EventLog

    events = EventLog(ws)
    classifier.options.exit_code = code
    records = classifier.close()
    for r in records:
        r.hint.setdefault("command", list(cmd))
        r.hint.setdefault("cwd", cwd_rel)
        if task and not r.task:
            r.task = task
    events.emit_many("failure.classified", records, command=list(cmd), exit_code=code)
    ledger.finish_run(run_id, code, records)
    report = RunReport(code, records)
    if not recover or not records:
        return report

    from faultlens.recipes import attempt
    from faultlens.recipes.verify import base_id

    echo = _writer(err_bytes)
    last_full: int | None = None
    targeted_after_full = False
    current_ids: set[str] | None = None
    for i, rec in enumerate(records, 1):
        where = rec.source_file or "-"
        if rec.source_line:
            where += f":{rec.source_line}"
        if current_ids is not None and base_id(rec.id) not in current_ids:
            from faultlens.recipes import Outcome

            outcome = Outcome(
                record=rec.model_copy(update={"recovery_result": "recovered"}),
                result="recovered",
                tried="nothing: an earlier fix made it go away",
                reason="no longer reported by the re-run",
                verified=True,
            )
            events.emit(
                "recovery.succeeded", outcome.record, tried=outcome.tried, reason=outcome.reason
            )
            report.outcomes.append(outcome)
            _say(
                err,
                f"[{i}/{len(records)}] {rec.failure_type.value} {where}: gone after an earlier fix",
            )
            continue
        _say(err, f"[{i}/{len(records)}] recovering {rec.failure_type.value} {where} ...")
        outcome = attempt(rec, ws, command=cmd, cwd=cwd_rel, echo=echo)
        report.outcomes.append(outcome)
        _say(err, f"[{i}/{len(records)}] {outcome.result}: {outcome.tried} ({outcome.reason})")
        if outcome.exit_code is not None:
            if outcome.full_rerun:
                last_full = outcome.exit_code
                targeted_after_full = False
                current_ids = {base_id(r.id) for r in outcome.new_records}
            else:
                targeted_after_full = True
    final = _final_status(code, report.outcomes, last_full, targeted_after_full)
    report.exit_code = shell_status(final)  # a re-run killed by a signal: 128+N too
    if report.exit_code == 0 and all(o.result != "escalated" for o in report.outcomes):
        ledger.set_task_status(task, "completed")
    return report


def _final_status(
    original: int, outcomes: Sequence[Outcome], last_full: int | None, targeted_after: bool
) -> int:
    escalated = any(o.result == "escalated" for o in outcomes)
    if escalated:
        status = last_full if last_full is not None else original
        return status if status != 0 else 1
    if last_full is not None and not targeted_after:
        return last_full
    if outcomes and all(o.result in ("recovered", "skipped") for o in outcomes):
        # Every failure recovered by targeted re-runs (single tests, retries).
        return 0
    return original


# -- summary ------------------------------------------------------------------------
def _where(r: FailureRecord) -> str:
    if not r.source_file:
        return "-"
    return f"{r.source_file}:{r.source_line}" if r.source_line else r.source_file


def summary_text(report: RunReport, recover: bool) -> str:
    lines: list[str] = []
    if not report.records:
        lines.append(f"faultlens: no failures found (exit {report.exit_code})")
        return "\n".join(lines) + "\n"
    rows: list[tuple[str, str, str, str]] = []
    if recover and report.outcomes:
        for o in report.outcomes:
            rows.append((o.result, o.record.failure_type.value, _where(o.record), o.tried))
    else:
        for r in report.records:
            rows.append(("found", r.failure_type.value, _where(r), r.signal))
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
    if recover:
        parts = [f"{counts.get(k, 0)} {k}" for k in ("recovered", "escalated", "skipped")]
        lines.append(
            f"faultlens: {len(report.records)} failure(s): {', '.join(parts)}; exit {report.exit_code}"
        )
    else:
        lines.append(
            f"faultlens: {len(report.records)} failure(s); run with --recover to attempt recipes;"
            f" exit {report.exit_code}"
        )
    text = "\n".join(lines) + "\n"
    for o in report.outcomes:
        if o.result == "escalated" and o.box:
            text += "\n" + o.box
    return text


def summary_json(report: RunReport) -> dict[str, Any]:
    return {
        "exit_code": report.exit_code,
        "records": [r.to_json() for r in report.records],
        "outcomes": [o.to_json() for o in report.outcomes],
    }


def run(args: argparse.Namespace) -> int:
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
