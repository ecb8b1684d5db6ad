"""A CI runner that was shut down or lost while it ran the job."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint


@rule(
    id="infra.runner_lost",
    category=FailureType.INFRA,
    tool="ci",
    pattern=r"(?P<msg>The (?:runner|agent) has received a shutdown signal\."
    r"|The (?:hosted |self-hosted )?runner: (?P<runner>.+?) lost communication with the server"
    r"|Operating system is shutting down for computer '[^']*'"
    r"|Job failed \(system failure\): .+)",
    triggers=(
        "has received a shutdown signal.",
        "lost communication with the server",
        "Operating system is shutting down for computer",
        "Job failed (system failure):",
    ),
    url="https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/monitoring-and-troubleshooting-self-hosted-runners",
    priority=PRIORITY + 5,
)
def runner_lost(m: re.Match[str], ctx: LineContext) -> Hit:
    """The machine running the job went away: shut down, lost, broken.

    What it detects: `The runner has received a shutdown signal. This can
    happen when the runner service is stopped, or a manually started runner
    is canceled.` and `Operating system is shutting down for computer 'X'`
    (actions/runner JobRunner.cs), Azure's `The agent has received a
    shutdown signal.` (strings `UserShutdownAgent`), GitHub's `The hosted
    runner: R lost communication with the server.`, GitLab's `ERROR: Job
    failed (system failure): ...` (gitlab-runner common/build.go).

    Example output (GitHub Actions job log):
        2026-12-01T10:20:00.1234567Z ##[error]The runner has received a shutdown signal. This can happen when the runner service is stopped, or a manually started runner is canceled.

    Recipe: infra, transient: re-run on another runner (a job that keeps
    losing its runner starves it of memory or disk: look at the step it
    was in).  It is the job's verdict (the primary record).

    References: https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/monitoring-and-troubleshooting-self-hosted-runners
    """
    msg = m.group("msg").rstrip(".")
    hint = infra_hint("runner-lost", runner=m.group("runner"))
    hint["transient"] = True
    return Hit(signal=ctx.line.strip(), message=msg, code="runner-lost", hint=hint)
