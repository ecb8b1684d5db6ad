"""The MCP `ci` tool's answer: a CI run's failed jobs, each with its primary
failure and the rest, cut to what an agent acts on (agents/compact.py's
bounds), so "why did CI fail?" costs a few hundred tokens, not a log."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from faultlens.classifier.record import FailureRecord
from faultlens.remote.cireport import CIRunReport

from .compact import AgentFailure, compact

MAX_JOBS = 10
MAX_OTHERS = 5


class CIJob(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    name: str
    url: str
    conclusion: str
    failed_step: str | None = None
    primary: AgentFailure | None = Field(
        description="The failure that explains why the job failed (null: none recognised)."
    )
    others: list[AgentFailure] = Field(description=f"The next {MAX_OTHERS} failures of the job.")
    total: int = Field(description="How many failures the job's log holds.")
    error: str | None = Field(default=None, description="Why the log could not be read.")


class CIRun(BaseModel):
    model_config = ConfigDict(extra="forbid")

    service: str
    project: str
    id: int
    name: str
    url: str
    sha: str
    branch: str | None
    conclusion: str | None
    head_matches: bool | None = Field(
        description="Whether the local HEAD is the run's commit (null: not a git checkout)."
    )
    head_note: str = Field(description="How the local HEAD differs from the run's commit.")
    jobs_total: int
    failed_jobs: list[CIJob]


class CIResult(BaseModel):
    """The answer of the `ci` tool."""

    model_config = ConfigDict(extra="forbid")

    runs: list[CIRun]
    truncated: bool = Field(description="True when jobs, failures or texts were cut to fit.")


def _locally(record: FailureRecord) -> tuple[bool, str | None]:
    """A CI failure's one attempt is made here, by a local run of the job's command."""
    if record.auto_recoverable is False:
        return False, f"{record.failure_type.value} is never recovered automatically"
    return True, None


def ci_result(reports: Sequence[CIRunReport]) -> CIResult:
    runs: list[CIRun] = []
    truncated = False
    for rep in reports:
        failed = [j for j in rep.jobs if j.job.failed]
        truncated = truncated or len(failed) > MAX_JOBS
        jobs = []
        for job in failed[:MAX_JOBS]:
            views = []
            for rec in job.records[: 1 + MAX_OTHERS]:
                view, cut = compact(rec, _locally)
                views.append(view)
                truncated = truncated or cut
            truncated = truncated or len(job.records) > 1 + MAX_OTHERS
            jobs.append(
                CIJob(
                    id=job.job.ident,
                    name=job.job.name,
                    url=job.job.url,
                    conclusion=job.job.conclusion,
                    failed_step=job.job.failed_step,
                    primary=views[0] if views else None,
                    others=views[1:],
                    total=len(job.records),
                    error=job.error,
                )
            )
        head = rep.head
        runs.append(
            CIRun(
                service=rep.run.service,
                project=rep.run.project,
                id=rep.run.ident,
                name=rep.run.name,
                url=rep.run.url,
                sha=rep.run.sha,
                branch=rep.run.branch,
                conclusion=rep.run.conclusion,
                head_matches=None if head is None or head.local is None else head.matches,
                head_note="" if head is None else head.note,
                jobs_total=len(rep.run.jobs),
                failed_jobs=jobs,
            )
        )
    return CIResult(runs=runs, truncated=truncated)
