"""`faultlens report` inside a CI job: the failures this job's commands
recorded in the workspace (`faultlens run -- CMD`, the agents' hooks), as a
run report of the same shape `faultlens ci` builds from the service's logs,
so that the job summary and the pull-request comment are the same table.

The job's runs are those started since the job began (the CI says when:
GitLab's CI_JOB_STARTED_AT, the runner's event file on GitHub), each
command's latest run (a command run again and passing is no failure).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from faultlens.classifier.record import FailureRecord

from .cienv import CurrentJob
from .cireport import CIRunReport, JobReport, primary_of
from .jobs import Job, Run

MAX_RUNS = 1000


def recorded_failures(
    root: Path, since: float | None, state_dir: Path | None = None
) -> list[tuple[list[str], list[FailureRecord]]]:
    """(command, records) of each command whose latest run since `since`
    failed, in the order they first ran; [] when nothing was recorded."""
    from faultlens.recipes import Ledger, StateUnavailable, Workspace

    ws = Workspace(roots=[root], state_dir=state_dir)
    try:
        if not (ws.state / "ledger.sqlite3").is_file():
            return []
        ledger = Ledger.open(ws)
        runs = ledger.runs_since(since or 0.0, MAX_RUNS)
    except StateUnavailable:
        return []
    latest: dict[tuple[str, str, str], int] = {}
    for i, row in enumerate(runs):
        latest[(row.task, "\0".join(row.argv), row.cwd)] = i
    out: list[tuple[list[str], list[FailureRecord]]] = []
    for i in sorted(latest.values()):
        row = runs[i]
        if row.exit_code == 0:
            continue
        records = [FailureRecord.from_json(r) for r in ledger.run_records(row.id)]
        if row.exit_code is None and not records:  # still running, or stopped with nothing
            continue
        primary = primary_of(records)
        if primary is not None and records[0] is not primary:
            records.remove(primary)
            records.insert(0, primary)
        out.append((list(row.argv), records))
    return out


def job_report(
    ci: CurrentJob, failures: Sequence[tuple[list[str], list[FailureRecord]]]
) -> CIRunReport:
    """This job as a run report: one failed "job" per failed command, named
    by the CI's job and the command."""
    run = Run(
        service=ci.service,
        project=ci.project,
        ident=ci.run_id,
        url=ci.run_url,
        sha=ci.sha,
        branch=ci.branch,
        status="in_progress",
        conclusion="failure" if failures else None,
        name=ci.workflow,
        pull_requests=[ci.pull] if ci.pull is not None else [],
    )
    jobs = []
    for n, (argv, records) in enumerate(failures, 1):
        shown = " ".join([os.path.basename(argv[0]), *argv[1:]] if argv else [])
        if len(shown) > 80:
            shown = shown[:79] + "…"
        job = Job(n, f"{ci.job}: {shown}" if shown else ci.job, "failure", ci.job_url)
        jobs.append(JobReport(job, records, None if records else "no failure recognised"))
        run.jobs.append(job)
    return CIRunReport(run, jobs)
