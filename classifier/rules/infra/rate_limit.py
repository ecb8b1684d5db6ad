"""An API rate limit that a CI job ran into."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint


@rule(
    id="infra.api_rate_limit",
    category=FailureType.INFRA,
    tool="ci",
    pattern=r"(?P<msg>API rate limit exceeded(?: for (?P<who>[^\s.]+(?:\.\d+)*))?.*"
    r"|GitHub has reached an internal rate limit, please try again later"
    r"|You have exceeded a secondary rate limit.*)",
    triggers=(
        "API rate limit exceeded",
        "GitHub has reached an internal rate limit",
        "You have exceeded a secondary rate limit",
    ),
    url="https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api",
    priority=PRIORITY + 5,
)
def api_rate_limit(m: re.Match[str], ctx: LineContext) -> Hit:
    """An API (GitHub's above all) that refused more requests for now.

    What it detects: GitHub's `API rate limit exceeded for 203.0.113.7.`
    and `API rate limit exceeded for installation ID N.`, `You have
    exceeded a secondary rate limit`, and the runner's `(GitHub has
    reached an internal rate limit, please try again later)` when it
    resolves actions (actions/runner LaunchHttpClient.cs).

    Example output (curl -sS on the REST API):
        {"message":"API rate limit exceeded for 203.0.113.7. (But here's the good news: ...)"}

    Recipe: infra, transient: retry with backoff once the limit resets;
    an unauthenticated client gets a far lower limit (pass the token).

    References: https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api
    """
    msg = m.group("msg").split('"', 1)[0].strip()
    hint = infra_hint("rate-limit", who=m.group("who"))
    hint["transient"] = True
    return Hit(signal=ctx.line.strip(), message=msg, code="rate-limit", hint=hint)
