"""A command run, observed, and with `recover` its failures' one attempt each:
what `faultlens run` and the MCP `run` tool do (everything but printing).

The first run is observed (recipes/observe.py: classified, stamped, recorded
once); the recovery (recipes/run_recovery.py) re-runs the original command to
verify, and its last run is recorded as a run too, so the ledger's last run
(`faultlens status`) says the final exit, not the first."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .observe import guarded, observe_command, relative_cwd

if TYPE_CHECKING:
    from faultlens.classifier.cycles import Watcher
    from faultlens.classifier.record import FailureRecord

    from .model import Outcome, Workspace
    from .observe import Observation


@dataclass(slots=True)
class RunReport:
    exit_code: int
    records: list[FailureRecord] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    box: str | None = None  # the task's one escalation box
    reruns: int = 0  # runs of the original command after the first
    command_exit: int | None = None  # the command's own status, when quarantine changed it
    quarantined: list[FailureRecord] = field(default_factory=list)  # not blocking
    attempted: int = 0  # outcomes[:attempted] are the first run's failures, the rest new ones
    quarantine_note: str = ""  # why quarantined failures still left the status non-zero
    mass_failure: str = ""  # the runner's count when most of its tests failed (infra)
    first_cycle: bool = False  # a watcher, stopped after its first cycle


def writer(stream: IO[bytes]) -> Callable[[bytes], None]:
    """A sink copying output to `stream` as it comes (a closed pipe is ignored)."""

    def write(chunk: bytes) -> None:
        with contextlib.suppress(BrokenPipeError, ValueError):
            stream.write(chunk)
            stream.flush()

    return write


def _where(r: FailureRecord) -> str:
    if not r.source_file:
        return "-"
    return f"{r.source_file}:{r.source_line}" if r.source_line else r.source_file


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
    watcher: Watcher | None = None,
) -> RunReport:
    """Run, classify, record, recover; everything but the summary.  `watcher`:
    `cmd` is that watcher, run for its first cycle (recipes/first_cycle.py),
    and a fix is verified by its first cycle run again."""
    from .runner import shell_status

    def say(text: str) -> None:
        err.write(f"faultlens: {text}\n")
        err.flush()

    echo = writer(err_bytes)
    seen = observe_command(
        cmd,
        cwd=cwd,
        ws=ws,
        task=task,
        out=writer(out),
        err_out=echo,
        say=say,
        recover=recover,
        watcher=watcher,
    )
    report = RunReport(seen.status, seen.records, first_cycle=seen.first_cycle)
    _quarantine(report, seen)
    if not recover or not seen.records:
        return report
    held = {id(r) for r in report.quarantined}
    todo = [r for r in seen.records if id(r) not in held]  # reported, not attempted
    if not todo:
        return report
    ledger, run_id = seen.ledger, seen.run_id
    if ledger is None or run_id is None:
        say("recipes are not attempted: each needs the ledger (one attempt per failure)")
        return report
    from . import history
    from .run_recovery import recover_run

    if watcher is not None:  # verified by the watcher's first cycle, run again
        import dataclasses

        from .first_cycle import rerun_first_cycle
        from .model import Workspace

        ws = Workspace(
            roots=list(ws.roots),
            state_dir=ws.state_dir,
            settings=dataclasses.replace(ws.settings, rerun=rerun_first_cycle(ws, watcher)),
        )

    cwd_rel = relative_cwd(ws, cwd)
    rec_report = recover_run(
        todo,
        ws,
        command=cmd,
        cwd=cwd_rel,
        task=task,
        run_id=run_id,
        exit_code=seen.exit_code,
        echo=echo,
        say=say,
        held=report.quarantined,
    )
    report.outcomes = [*rec_report.outcomes, *rec_report.new]
    report.attempted = len(rec_report.outcomes)
    guarded(ws, history.note_endings, ledger, run_id, rec_report.outcomes)
    for o in report.outcomes:  # one line per group: what became of it, and why
        say(f"{o.result}: {o.record.failure_type.value} {_where(o.record)}: {o.reason}")
    report.box = rec_report.box
    report.reruns = rec_report.reruns
    # a re-run killed by a signal: 128+N, as a shell says
    # no re-run: the first run's status (quarantine taken into account) stands
    report.exit_code = (
        shell_status(rec_report.exit_code)
        if rec_report.exit_code is not None and rec_report.reruns
        else seen.status
    )
    if rec_report.reruns and report.exit_code != 0 and report.quarantined:
        report.exit_code = _final_status(report, cmd, rec_report.final, rec_report.final_output)
    if rec_report.reruns:  # the last run of the command is the run the ledger ends with
        _record_last(ws, cmd, cwd, task, report.exit_code, rec_report.final)
    if report.exit_code == 0 and all(o.result != "escalated" for o in report.outcomes):
        guarded(ws, ledger.set_task_status, task, "completed")
    return report


def _quarantine(report: RunReport, seen: Observation) -> None:
    """What quarantine and the runner's own count made of the first run."""
    rec = seen.recorder
    report.quarantined = [r for r in seen.records if isinstance(r.hint.get("quarantined"), str)]
    decision = rec.exit if rec is not None else None
    if decision is not None and decision.changed:
        report.command_exit = decision.command_exit
    elif decision is not None and report.quarantined:
        report.quarantine_note = decision.why
    if rec is not None and rec.mass_failure and rec.summary is not None:
        report.mass_failure = f"{rec.summary.failed} of {rec.summary.total} tests failed"


def _final_status(
    report: RunReport, cmd: Sequence[str], final: Sequence[FailureRecord], output: str
) -> int:
    """The last run's status with the first run's quarantine taken into
    account (the same rule: only quarantined tests failed, by the runner's
    own count)."""
    from .team.quarantine import decide_exit, mark, quarantined_in, run_summary

    known = quarantined_in(report.quarantined)
    mark([r for r in final if r.failure_type.value == "test"], known)
    decision = decide_exit(report.exit_code, run_summary(cmd, output), final)
    if decision.changed:
        report.command_exit = decision.command_exit
    return decision.exit_code


def _record_last(
    ws: Workspace,
    cmd: Sequence[str],
    cwd: Path,
    task: str | None,
    exit_code: int,
    records: Sequence[FailureRecord],
) -> None:
    """The recovery's last run of the command, as a run of its own (its
    failures were already logged and settled by the recovery: no events)."""
    from . import history
    from .observe import RunRecorder

    last = RunRecorder(ws, task=task, command=cmd, cwd=cwd)
    if last.ledger is not None and last.run_id is not None:
        guarded(ws, last.ledger.finish_run, last.run_id, exit_code, list(records))
        guarded(ws, history.note_tree, last.ledger, last.run_id, last.tree())
