"""The prompt_delivery recipe's planner (see recipes/prompt_delivery.md).

Reduce the scope and retry once: the command that failed is re-run with

* `FAULTLENS_REDUCE_SCOPE=1` (always),
* `FAULTLENS_TOKEN_BUDGET=<n>`: a smaller input budget computed from the
  error's numbers (hint["budget"] from the classifier, else hint["limit"] x
  `scope.factor`; a budget the failing run already had is cut by the factor
  again; `scope.default_budget` for a context error with no numbers),
* `FAULTLENS_MAX_TOKENS=<n>` when the error was an output-token limit.

The variable names are settings (`[scope] env`, `reduce_env`, `max_tokens_env`).
A rate limit or overload waits the `retry_after` the API gave (capped) before
the retry, through `settings.sleep`.  Errors that no retry fixes (an exhausted
quota, bad credentials) are refused.
"""

from __future__ import annotations

import os
import re
from typing import Any

from faultlens.classifier.lazyre import lazy_compile

from ..context import PlanContext
from ..model import Plan, Refusal

_ENV_NAME = lazy_compile(r"[A-Z_][A-Z0-9_]{0,63}", re.ASCII)
PERMANENT_ERRORS = frozenset(
    {"insufficient_quota", "authentication_error", "permission_error", "billing_error"}
)
WAIT_KINDS = frozenset({"rate_limit", "overloaded", "server_error", "api", "connection"})
MAX_WAIT = 60.0


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    n = int(value)
    return n if n > 0 else None


def _env_name(ctx: PlanContext, key: str, default: str) -> str:
    name = ctx.setting(f"scope.{key}", default)
    return name if isinstance(name, str) and _ENV_NAME.fullmatch(name) else default


def _factor(ctx: PlanContext) -> float:
    f = ctx.setting("scope.factor", 0.8)
    return float(f) if isinstance(f, int | float) and 0.1 <= f < 1 else 0.8


def token_budget(hint: dict[str, Any], factor: float, current: int | None) -> int | None:
    """The smaller budget the retry gets, from the error's numbers (None: none given)."""
    limit = _int(hint.get("limit"))
    tokens = _int(hint.get("tokens"))
    given = _int(hint.get("budget"))
    budget: int | None = None
    if given is not None and (limit is None or given < limit):
        budget = given
    elif limit is not None:
        budget = int(limit * factor)
    elif tokens is not None:
        budget = int(tokens * factor)
    if current is not None and (budget is None or current <= budget):
        budget = int(current * factor)  # the failing run was already within it: cut again
    return budget if budget and budget > 0 else None


def plan(ctx: PlanContext) -> Plan | Refusal:
    rec = ctx.record
    hint = rec.hint
    kind = str(hint.get("kind") or rec.code or "")
    error_type = str(hint.get("error_type") or "")
    if error_type in PERMANENT_ERRORS:
        return Refusal(
            f"the API refused the request ({error_type}): retrying will not fix it",
            suggestions=["check the API key, plan and quota, then retry"],
        )
    budget_env = _env_name(ctx, "env", "FAULTLENS_TOKEN_BUDGET")
    reduce_env = _env_name(ctx, "reduce_env", "FAULTLENS_REDUCE_SCOPE")
    max_env = _env_name(ctx, "max_tokens_env", "FAULTLENS_MAX_TOKENS")
    factor = _factor(ctx)
    current = _int(
        _maybe_int(
            ctx.env.get(budget_env)
            or ctx.ws.settings.env.get(budget_env)
            or os.environ.get(budget_env)
        )
    )
    env: dict[str, str] = {reduce_env: "1"}
    details: list[str] = []
    budget = token_budget(hint, factor, current)
    if budget is None and kind == "context":
        default = ctx.setting("scope.default_budget", 8000)
        budget = int(default) if isinstance(default, int) and default > 0 else 8000
    if budget is not None:
        env[budget_env] = str(budget)
    tokens, limit = _int(hint.get("tokens")), _int(hint.get("limit"))
    if kind == "max_tokens" and limit is not None:
        env[max_env] = str(limit)
        details.append(f"Output tokens: asked {hint.get('requested')}, allowed {limit}")
    elif tokens is not None or limit is not None:
        details.append(f"Prompt: {tokens or '?'} tokens, limit {limit or '?'}")
    if budget is not None:
        details.append(f"Retry budget: {budget} tokens ({budget_env})")
    step = ctx.rerun_step(env=env)
    if step is None:
        return Refusal(
            "the command that sent the prompt is not known: re-run it with a smaller scope",
            suggestions=[" ".join(f"{k}={v}" for k, v in env.items()) + " <the agent command>"],
            details=details,
        )
    wait = 0.0
    retry_after = hint.get("retry_after")
    if kind in WAIT_KINDS and isinstance(retry_after, int | float) and retry_after > 0:
        wait = min(float(retry_after), MAX_WAIT)
        details.append(f"Waited {wait:g} s first (the API's retry-after)")
    shown = ", ".join(f"{k}={v}" for k, v in env.items())
    return Plan(
        failure_id=rec.id,
        failure_type="prompt_delivery",
        title=f"Retry once with a smaller scope ({shown})",
        summary=f"re-run `{step.display()}` once with {shown}",
        verify=step,
        verify_by="id",
        retries=0,
        backoff=(wait,) if wait else (),
        success_note=f"delivered with a smaller scope ({shown})",
        details=details,
    )


def _maybe_int(value: str | None) -> int | None:
    if value is None or not value.strip().isdigit():
        return None
    return int(value.strip())
