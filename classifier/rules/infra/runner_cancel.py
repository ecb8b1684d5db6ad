"""A CI run that was cancelled (the runner's own words)."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint


@rule(
    id="infra.job_cancelled",
    category=FailureType.INFRA,
    tool="ci",
    pattern=r"^(?:##\[error\])(?P<msg>The operation was canceled\.)\s*$"
    r"|^(?:ERROR: )?(?P<gitlab>Job failed: canceled)\s*$"
    r"|^(?P<azure>##\[error\]The Operation will be canceled\..*)$",
    triggers=(
        "##[error]The operation was canceled.",
        "Job failed: canceled",
        "##[error]The Operation will be canceled.",
    ),
    url="https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/canceling-a-workflow",
    priority=PRIORITY + 5,
)
def job_cancelled(m: re.Match[str], ctx: LineContext) -> Hit:
    """A CI job that was cancelled while a step ran.

    What it detects: GitHub Actions' `##[error]The operation was canceled.`
    (actions/runner StepsRunner.cs writes the cancelled step's
    OperationCanceledException message as an error: a user's cancel, a
    newer run of the same concurrency group, a sibling matrix job's
    failure with fail-fast, the job's time limit), GitLab's `ERROR: Job
    failed: canceled` (gitlab-runner common/build.go, ErrJobCanceled),
    Azure Pipelines' `The Operation will be canceled.` (strings
    `StepCancelled`).

    Example output (GitHub Actions job log):
        2026-12-01T10:20:00.1234567Z ##[error]The operation was canceled.

    Recipe: infra, transient: nothing failed in the code; re-run when the
    cancel was not wanted.  It is the job's verdict (the primary record).

    References: https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/canceling-a-workflow
    """
    msg = (m.group("msg") or m.group("gitlab") or m.group("azure")).removeprefix("##[error]")
    hint = infra_hint("cancelled")
    hint["transient"] = True
    return Hit(signal=ctx.line.strip(), message=msg, code="cancelled", hint=hint)
