"""The text `faultlens ci` prints: per run, its failed jobs and each job's
primary failure first, the others counted."""

from __future__ import annotations

from collections.abc import Sequence

from faultlens.classifier.record import FailureRecord
from faultlens.remote.cireport import CIRunReport

MORE_SHOWN = 3  # records shown after a job's primary one


def render_runs(reports: Sequence[CIRunReport]) -> str:
    out: list[str] = []
    for rep in reports:
        run = rep.run
        title = run.name or f"run {run.ident}"
        state = run.conclusion or run.status or "unknown"
        on = f" on {run.branch}" if run.branch else ""
        out.append(f"{title}{on} at {run.sha[:12] or '?'}: {state}  {run.url}".rstrip())
        if rep.head is not None and rep.head.note:
            out.append(f"  note: {rep.head.note}")
        passed = 0
        for job in rep.jobs:
            if not job.job.failed:
                passed += job.job.conclusion == "success"
                continue
            step = f', step "{job.job.failed_step}"' if job.job.failed_step else ""
            out.append(f"✗ {job.job.name} ({job.job.conclusion}{step})  {job.job.url}".rstrip())
            if job.error:
                out.append(f"    could not read the log: {job.error}")
                continue
            if not job.records:
                out.append("    no failure recognised in the log")
            for rec in job.records[: 1 + MORE_SHOWN]:
                out.append(f"    {_line(rec)}")
            rest = len(job.records) - 1 - MORE_SHOWN
            if rest > 0:
                out.append(f"    … {rest} more (--json lists them)")
        if passed:
            out.append(f"✓ {passed} job{'s' * (passed != 1)} passed")
    return "\n".join(out) + "\n"


def _line(rec: FailureRecord) -> str:
    place = rec.source_file or "(no file)"
    if rec.source_file and rec.source_line is not None:
        place = f"{place}:{rec.source_line}"
    return f"{rec.failure_type.value:<17} {place}  {rec.signal}"
