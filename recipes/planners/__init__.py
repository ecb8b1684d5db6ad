"""One planner module per failure type: `recipes/planners/<failure_type>.py`.

A planner module defines

    def plan(ctx: PlanContext) -> Plan | Refusal

which reads files (never writes) and returns what the recipe will do.  The
engine (recipes/single_attempt.py) does the rest: the anti-loop check, applying the
edits atomically, running the commands, verifying, the ledger and the logs.
A type whose module does not exist has no automatic recipe (it is escalated).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..context import PlanContext
    from ..model import Plan, Refusal

PlannerFunc = Callable[["PlanContext"], "Plan | Refusal"]

PLANNERS: dict[str, str] = {
    "compile": "compile",
    "test": "test",
    "branch_divergence": "branch_divergence",
    "trust_gate": "trust_gate",
    "mcp_startup": "mcp_startup",
    "plugin_startup": "plugin_startup",
    "infra": "infra",
    "prompt_delivery": "prompt_delivery",
}


def get_planner(failure_type: str) -> PlannerFunc | None:
    """The `plan` function of a failure type, or None when it has none (yet)."""
    module = PLANNERS.get(failure_type)
    if module is None:
        return None
    name = f"{__package__}.{module}"
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
    func = getattr(mod, "plan", None)
    return func if callable(func) else None
