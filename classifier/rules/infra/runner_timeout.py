"""A CI job or step stopped by its time limit (the runner's own words)."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint


@rule(
    id="infra.job_timeout",
    category=FailureType.INFRA,
    tool="ci",
    pattern=r"(?P<msg>The job running on (?:runner|agent) (?P<runner>.+?) has exceeded the maximum"
    r" execution time of (?P<limit>[^.]+)"
    r"|The (?:action|background step) '(?P<step>.+)' has timed out after (?P<minutes>[\d.]+) minutes"
    r"|Job failed: execution took longer than (?P<gitlab>\S+(?: seconds)?)"
    r"|The task has timed out)",
    triggers=(
        "has exceeded the maximum execution time of",
        "has timed out after",
        "execution took longer than",
        "The task has timed out",
    ),
    url="https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions#jobsjob_idtimeout-minutes",
    priority=PRIORITY + 5,
)
def job_timeout(m: re.Match[str], ctx: LineContext) -> Hit:
    """A CI job or step that ran into its time limit and was stopped.

    What it detects: GitHub Actions' `The job running on runner R has
    exceeded the maximum execution time of 360 minutes.` (a job's
    `timeout-minutes`) and `The action 'S' has timed out after N minutes.`
    (a step's, actions/runner StepsRunner.cs), GitLab's `ERROR: Job failed:
    execution took longer than 1h0m0s seconds` (gitlab-runner
    common/build.go), Azure Pipelines' `The task has timed out.`
    (azure-pipelines-agent strings `StepTimedOut`).

    Example output (GitHub Actions job log):
        2026-12-01T10:20:00.1234567Z ##[error]The action 'Run tests' has timed out after 1 minutes.

    Recipe: infra, transient: the runner stopped the job, nothing in it
    said why; re-run once (a hang that repeats is a test's or the
    limit's problem: hint `limit`, `step`).  It is the job's verdict, the
    primary record whatever else the log holds.

    References: https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions#jobsjob_idtimeout-minutes
    """
    limit = m.group("limit") or (m.group("minutes") and f"{m.group('minutes')} minutes")
    limit = limit or m.group("gitlab")
    msg = m.group("msg").rstrip(".")
    hint = infra_hint("job-timeout", limit=limit, step=m.group("step"), runner=m.group("runner"))
    hint["transient"] = True
    return Hit(signal=ctx.line.strip(), message=msg, code="job-timeout", hint=hint)
