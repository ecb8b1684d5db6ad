"""faultlens.recipes: recovery recipes, the attempt ledger, escalation and the
lifecycle log.  Knows nothing of LSP.

The names below are the contract the language server and the CLI build on
(see docs/recipes.md); everything else in this package is internal.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .box import BoxContent, render_box
    from .conflicts import conflict_hunks, has_markers, resolve_hunk
    from .context import PlanContext
    from .docs import recipe_doc
    from .edits import apply_edits, recover_interrupted
    from .events import EVENTS, EventLog
    from .ledger import Ledger
    from .model import (
        DEFAULT_TASK,
        ApplyError,
        Availability,
        CommandStep,
        Option,
        Outcome,
        Plan,
        RecipeDoc,
        RecipeSettings,
        Refusal,
        ResolvableHunk,
        StateUnavailable,
        TaskState,
        TextEdit,
        UnsafeEdit,
        VerifyResult,
        Workspace,
    )
    from .run_recovery import recover_run
    from .single_attempt import (
        Attempted,
        attempt,
        attempt_offered,
        availability,
        escalate,
        plan,
    )
    from .tasks import retry_task, skip_task, stop_task
    from .trust import mark_reviewed

# Each public name and the module that defines it.  Loaded on first use
# (PEP 562), so `faultlens run` can start the command before the engine, the
# ledger and the classifier are imported.
_EXPORTS: dict[str, str] = {
    "BoxContent": "box",
    "render_box": "box",
    "conflict_hunks": "conflicts",
    "has_markers": "conflicts",
    "resolve_hunk": "conflicts",
    "PlanContext": "context",
    "recipe_doc": "docs",
    "apply_edits": "edits",
    "recover_interrupted": "edits",
    "Attempted": "single_attempt",
    "attempt": "single_attempt",
    "attempt_offered": "single_attempt",
    "availability": "single_attempt",
    "recover_run": "run_recovery",
    "escalate": "single_attempt",
    "plan": "single_attempt",
    "retry_task": "tasks",
    "skip_task": "tasks",
    "stop_task": "tasks",
    "EVENTS": "events",
    "EventLog": "events",
    "Ledger": "ledger",
    "DEFAULT_TASK": "model",
    "ApplyError": "model",
    "Availability": "model",
    "CommandStep": "model",
    "ResolvableHunk": "model",
    "Option": "model",
    "Outcome": "model",
    "Plan": "model",
    "RecipeDoc": "model",
    "RecipeSettings": "model",
    "Refusal": "model",
    "StateUnavailable": "model",
    "TaskState": "model",
    "TextEdit": "model",
    "UnsafeEdit": "model",
    "VerifyResult": "model",
    "Workspace": "model",
    "mark_reviewed": "trust",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_TASK",
    "EVENTS",
    "ApplyError",
    "Attempted",
    "Availability",
    "BoxContent",
    "CommandStep",
    "EventLog",
    "Ledger",
    "Option",
    "Outcome",
    "Plan",
    "PlanContext",
    "RecipeDoc",
    "RecipeSettings",
    "Refusal",
    "ResolvableHunk",
    "StateUnavailable",
    "TaskState",
    "TextEdit",
    "UnsafeEdit",
    "VerifyResult",
    "Workspace",
    "apply_edits",
    "attempt",
    "attempt_offered",
    "availability",
    "conflict_hunks",
    "escalate",
    "has_markers",
    "mark_reviewed",
    "plan",
    "recipe_doc",
    "recover_interrupted",
    "recover_run",
    "render_box",
    "resolve_hunk",
    "retry_task",
    "skip_task",
    "stop_task",
]
