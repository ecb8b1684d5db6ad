"""A CI run's failed jobs, classified against the local checkout.

Each failed job's log is read as a job (the classifier takes the runner's
timestamps, groups and closing lines off), its runner paths
(`/home/runner/work/app/app/src/x.ts`, `/builds/group/app/src/x.ts`) mapped
onto the same files under the checkout, and its primary failure named first.
The run's commit is compared with the local HEAD, so a developer knows when
the lines shown are not the lines CI built.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from faultlens.classifier.record import FailureRecord

from .http import RemoteError
from .jobs import Job, Run

_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@dataclass(slots=True)
class JobReport:
    job: Job
    records: list[FailureRecord] = field(default_factory=list)
    error: str | None = None  # why the log could not be read (one line)
    log_bytes: int = 0

    @property
    def primary(self) -> FailureRecord | None:
        return primary_of(self.records)

    def to_json(self) -> dict[str, Any]:
        primary = self.primary
        return {
            "id": self.job.ident,
            "name": self.job.name,
            "url": self.job.url,
            "conclusion": self.job.conclusion,
            "failed_step": self.job.failed_step,
            "primary": None if primary is None else primary.to_json(),
            "records": [r.to_json() for r in self.records],
            "error": self.error,
            "log_bytes": self.log_bytes,
        }


@dataclass(slots=True)
class HeadCheck:
    """The local HEAD against the run's commit."""

    local: str | None
    run: str
    ahead: int | None = None  # local commits the run did not build
    behind: int | None = None  # run commits the checkout lacks
    note: str = ""

    @property
    def matches(self) -> bool:
        return self.local is not None and self.local == self.run

    def to_json(self) -> dict[str, Any]:
        return {
            "local": self.local,
            "run": self.run,
            "matches": self.matches,
            "ahead": self.ahead,
            "behind": self.behind,
            "note": self.note,
        }


@dataclass(slots=True)
class CIRunReport:
    run: Run
    jobs: list[JobReport]
    head: HeadCheck | None = None

    @property
    def failed(self) -> bool:
        return any(j.job.failed for j in self.jobs)

    def to_json(self) -> dict[str, Any]:
        r = self.run
        return {
            "service": r.service,
            "project": r.project,
            "id": r.ident,
            "name": r.name,
            "url": r.url,
            "sha": r.sha,
            "branch": r.branch,
            "status": r.status,
            "conclusion": r.conclusion,
            "head": None if self.head is None else self.head.to_json(),
            "jobs_total": len(self.run.jobs),
            "failed_jobs": [j.to_json() for j in self.jobs if j.job.failed],
        }


def primary_of(records: Sequence[FailureRecord]) -> FailureRecord | None:
    """The record that explains the job's failure: the one the classifier
    marked primary, else the first blocking record, else the first."""
    for rec in records:
        if getattr(rec, "primary", False):
            return rec
    for rec in records:
        if rec.severity.value == "blocking":
            return rec
    return records[0] if records else None


LogFetcher = Callable[[Job], bytes]


def classify_jobs(run: Run, fetch_log: LogFetcher, checkout: Path) -> list[JobReport]:
    """Fetch and classify the failed jobs' logs only; the others are listed."""
    reports: list[JobReport] = []
    for job in run.jobs:
        report = JobReport(job)
        reports.append(report)
        if not job.failed:
            continue
        try:
            log = fetch_log(job)
        except RemoteError as exc:
            report.error = str(exc)
            continue
        report.log_bytes = len(log)
        report.records = classify_log(log, checkout, task=f"ci:{job.name}" if job.name else None)
    return reports


def classify_log(log: bytes, checkout: Path, task: str | None = None) -> list[FailureRecord]:
    """One job log classified as the output of a failed command, its primary
    record first."""
    from faultlens.classifier.engine import Options
    from faultlens.classifier.structured import classify_stream

    records = classify_stream(io.BytesIO(log), Options(cwd=str(checkout), task=task, exit_code=1))
    primary = primary_of(records)
    if primary is not None and records[0] is not primary:
        records.remove(primary)
        records.insert(0, primary)
    return records


def check_head(checkout: Path, run_sha: str) -> HeadCheck:
    """Whether the checkout's HEAD is the run's commit, and how far apart."""
    from faultlens.recipes.fixes.gitcore import Git

    git = Git(checkout, timeout=20.0)
    local = git.out("rev-parse", "--verify", "--quiet", "HEAD")
    check = HeadCheck(local=local, run=run_sha)
    if local is None:
        check.note = "the folder is not a git checkout: lines may not match the run's"
        return check
    if check.matches or not _SHA.fullmatch(run_sha):
        if not _SHA.fullmatch(run_sha):
            check.note = "the service gave no valid commit for the run"
        return check
    if git.run("cat-file", "-e", f"{run_sha}^{{commit}}").code != 0:
        check.note = (
            f"the run built {run_sha[:12]}, which this clone does not have (git fetch): "
            "lines may not match"
        )
        return check
    check.ahead = _count(git, f"{run_sha}..HEAD")
    check.behind = _count(git, f"HEAD..{run_sha}")
    parts = []
    if check.ahead:
        parts.append(f"{check.ahead} commit{'s' * (check.ahead != 1)} ahead of")
    if check.behind:
        parts.append(f"{check.behind} commit{'s' * (check.behind != 1)} behind")
    where = " and ".join(parts) or "not"
    check.note = f"the local HEAD is {where} the run's commit {run_sha[:12]}: lines may have moved"
    return check


def _count(git: Any, spec: str) -> int | None:
    out = git.out("rev-list", "--count", spec)
    return int(out) if out and out.isdigit() else None
