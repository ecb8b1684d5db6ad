"""A CI job's action or container image that could not be fetched."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint


@rule(
    id="infra.action_unresolved",
    category=FailureType.INFRA,
    tool="github-actions",
    pattern=r"(?P<msg>Unable to resolve action `?'?(?P<action>[^\s`',]+)`?'?, (?P<why>.+?)\s*$"
    r"|An action could not be found at the URI '(?P<uri>[^']+)'.*"
    r"|Failed to download archive '(?P<archive>[^']+)' after \d+ attempts\.?"
    r"|Action '(?P<timed>[^']+)' download has timed out\..*)",
    triggers=(
        "Unable to resolve action",
        "An action could not be found at the URI",
        "Failed to download archive '",
        "download has timed out.",
    ),
    url="https://docs.github.com/en/actions/sharing-automations/finding-and-customizing-actions",
    priority=PRIORITY + 5,
)
def action_unresolved(m: re.Match[str], ctx: LineContext) -> Hit:
    """An action the workflow uses that the runner could not get.

    What it detects: the job set-up's `Unable to resolve action
    `owner/name@ref`, repository not found` / `unable to find version
    `v9`` (GitHub's 422 answer, as the runner's LaunchHttpClient tests
    quote it), `An action could not be found at the URI '…'`
    (ActionNotFoundException.cs), `Failed to download archive '…' after N
    attempts.` and `Action '…' download has timed out.` (ActionManager.cs).

    Example output (GitHub Actions job log):
        2026-12-01T10:00:03.1234567Z ##[error]Unable to resolve action `actions/chekout@v4`, repository not found

    Recipe: infra.  A name or version that does not exist is permanent:
    fix the `uses:` line (hint `action`); a download that failed or timed
    out is transient (re-run).

    References: https://docs.github.com/en/actions/sharing-automations/finding-and-customizing-actions
    """
    action = m.group("action") or m.group("uri") or m.group("archive") or m.group("timed")
    missing = bool(m.group("action") or m.group("uri"))
    hint = infra_hint("action-missing" if missing else "action-download", action=action)
    hint["transient"] = not missing
    msg = m.group("msg").strip()
    return Hit(signal=ctx.line.strip(), message=msg, code=hint["kind"], hint=hint)


_IMAGE = r"(?P<image>[\w./:@-]+)"


@rule(
    id="infra.image_pull",
    category=FailureType.INFRA,
    tool="docker",
    pattern=r"(?P<msg>manifest for " + _IMAGE + r" not found: manifest unknown.*"
    r"|pull access denied for "
    + _IMAGE.replace("image", "denied")
    + r", repository does not exist.*"
    r"|toomanyrequests: You have reached your pull rate limit.*"
    r"|Docker pull failed with exit code (?P<code>\d+))",
    triggers=(
        "manifest unknown",
        "pull access denied for ",
        "toomanyrequests: You have reached your pull rate limit",
        "Docker pull failed with exit code",
    ),
    url="https://docs.docker.com/docker-hub/usage/pulls/",
    priority=PRIORITY + 5,
)
def image_pull(m: re.Match[str], ctx: LineContext) -> Hit:
    """A container image the job needs that could not be pulled.

    What it detects: the Docker daemon's `manifest for IMAGE not found:
    manifest unknown` (no such tag), `pull access denied for IMAGE,
    repository does not exist or may require 'docker login'`, Docker Hub's
    `toomanyrequests: You have reached your pull rate limit`, and the
    runner's `Docker pull failed with exit code N` (actions/runner
    ActionManager.cs, ContainerOperationProvider.cs), alone or inside
    GitLab's `ERROR: Job failed: failed to pull image "…"`.

    Example output (docker pull):
        Error response from daemon: manifest for python:3.99-slim not found: manifest unknown: manifest unknown

    Recipe: infra.  A tag or repository that does not exist, or access
    refused, is permanent (fix the image name or the registry login: hint
    `image`); the pull rate limit is transient (re-run later,
    authenticated).  The runner's own "pull failed" line alone is a
    download failure, transient.

    References: https://docs.docker.com/docker-hub/usage/pulls/
    """
    text = m.group("msg")
    image = m.group("image") or m.group("denied")
    if text.startswith("toomanyrequests"):
        kind, transient = "rate-limit", True
    elif m.group("code"):
        kind, transient = "image-pull", True
    else:
        kind, transient = "image-missing", False
    hint = infra_hint(kind, image=image)
    hint["transient"] = transient
    return Hit(signal=ctx.line.strip(), message=text.strip(), code=kind, hint=hint)
