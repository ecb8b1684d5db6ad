"""What a CI service says about a run, in one shape for both services."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Job:
    """One job of a run: its log is fetched only when it failed."""

    ident: int
    name: str
    conclusion: str  # success, failure, cancelled, timed_out, skipped, ... (GitLab: its status)
    url: str = ""  # the job's page
    failed_step: str | None = None  # the first step whose conclusion is a failure

    @property
    def failed(self) -> bool:
        return self.conclusion in FAILED


@dataclass(slots=True)
class Run:
    """A run (GitHub workflow run, GitLab pipeline) and its jobs."""

    service: str  # github | gitlab
    project: str
    ident: int
    url: str  # the run's page
    sha: str
    branch: str | None
    status: str
    conclusion: str | None
    name: str = ""
    jobs: list[Job] = field(default_factory=list)
    pull_requests: list[int] = field(default_factory=list)  # what a comment goes to


# Conclusions of a job that failed the run (GitHub's; GitLab's status "failed").
FAILED = frozenset({"failure", "timed_out", "cancelled", "startup_failure", "failed"})
