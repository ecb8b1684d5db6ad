"""The infra recipe's planner (see recipes/infra.md).

Transient (connection refused or reset, DNS, HTTP 5xx, timeouts): re-run what
failed after 1 s, 2 s, 4 s: the failing test alone, selected as its runner
selects one (recipes/test_batch.py), when the failure names a test the runner
can select, else the command (at most 3 retries; the delays are
`Workspace.settings.backoff` and `infra_max_retries`, or the project's
recipe override when the caller left the defaults, and the pauses go through
`settings.sleep`, so tests inject them).  Recovered as soon as a re-run no
longer reports the failure; escalated after the last retry.

Permanent (deploy failed, variable not set, permission denied, disk full):
refused at once, escalated with what a human needs (recipes/fixes/infra_needs.py).
"""

from __future__ import annotations

import os
import posixpath
from typing import Any

from ..context import PlanContext
from ..fixes.infra_needs import human_needs, is_transient
from ..model import CommandStep, Plan, RecipeSettings, Refusal

_DEFAULTS = RecipeSettings()
MAX_DELAY = 600.0
SUGGESTIONS = {
    "env": "set the variable (in the environment or the CI secrets), then retry",
    "permission": "fix the permission (chmod/chown, or run as the right user), then retry",
    "disk-full": "free space on the file system (or point the output elsewhere), then retry",
    "deploy": "look at the rollout's events and logs, fix the release, then retry",
    "docker-daemon": "start the Docker daemon (or set DOCKER_HOST), then retry",
    "offline": "fetch the dependencies once with network access (`cargo fetch`), or run "
    "without `--offline`, then retry",
}


def _numbers(value: Any) -> tuple[float, ...] | None:
    if not isinstance(value, list | tuple) or not value:
        return None
    out: list[float] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= MAX_DELAY:
            return None
        out.append(float(v))
    return tuple(out)


def delays(ctx: PlanContext) -> tuple[float, ...]:
    """The pause before each retry: the caller's settings when it changed them,
    else the recipe document's `[retry]` (a project may override it)."""
    settings = ctx.ws.settings
    backoff = tuple(float(x) for x in settings.backoff)
    if backoff == _DEFAULTS.backoff:
        backoff = _numbers(ctx.setting("retry.backoff", None)) or backoff
    count = settings.infra_max_retries
    if count == _DEFAULTS.infra_max_retries:
        doc_count = ctx.setting("retry.attempts", count)
        if isinstance(doc_count, int) and not isinstance(doc_count, bool) and 0 <= doc_count <= 10:
            count = doc_count
    if count <= 0 or not backoff:
        return ()
    return tuple(backoff[min(i, len(backoff) - 1)] for i in range(count))


def plan(ctx: PlanContext) -> Plan | Refusal:
    rec = ctx.record
    needs = human_needs(rec, ctx.cwd_path, {**os.environ, **ctx.ws.settings.env, **ctx.env})
    if not is_transient(rec):
        kind = str(rec.hint.get("kind") or "")
        return Refusal(
            "a permanent infrastructure failure"
            + (f" ({kind})" if kind else "")
            + ": retrying will not fix it; a human must",
            suggestions=[SUGGESTIONS.get(kind, "fix the cause shown, then retry")],
            details=needs,
        )
    waits = delays(ctx)
    if not waits:
        return Refusal("retries are turned off for infra failures", details=needs)
    step = _retry_step(ctx)
    if step is None:
        return Refusal(
            "a transient failure, but the command that failed is not known: re-run it by hand",
            details=needs,
        )
    shown = ", ".join(f"{d:g} s" for d in waits)
    what = "the command" if step.argv == list(ctx.command or ()) else "the failing test"
    return Plan(
        failure_id=rec.id,
        failure_type="infra",
        title=f"Retry `{step.display()}` with backoff ({shown})",
        summary=f"a transient failure: re-run {what} after {shown}, at most {len(waits)} times",
        verify=step,
        verify_by="id",
        retries=len(waits) - 1,
        backoff=waits,
        success_note="transient failure: the command succeeded on a retry",
        details=[f"Retries: at most {len(waits)} (after {shown})", *needs],
    )


def _retry_step(ctx: PlanContext) -> CommandStep | None:
    """The failing test alone, when the record names one and its runner can
    select it (its own selection: `pytest ID`, `go test -run`, ...); else the
    command that failed (None: not known)."""
    whole = ctx.rerun_step()
    rec = ctx.record
    if whole is None or not (rec.hint.get("test_id") or rec.hint.get("test_name")):
        return whole
    assert ctx.command is not None  # (rerun_step is None without one)
    from ..test_batch import plan_reruns

    try:
        selections, _, _ = plan_reruns([rec], ctx.ws, ctx.command, ctx.cwd)
    except (OSError, ValueError):
        return whole
    if len(selections) != 1:
        return whole
    (sel,) = selections
    cwd = posixpath.normpath(posixpath.join(ctx.cwd or ".", sel.cwd or "."))
    return CommandStep(argv=list(sel.argv), cwd=cwd, env=whole.env, timeout=whole.timeout)
