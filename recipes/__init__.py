"""faultlens.recipes: recovery recipes, the attempt ledger, escalation and the
lifecycle log.  Knows nothing of LSP.

The names below are the contract the language server and the CLI build on
(see docs/recipes.md); everything else in this package is internal.
"""

from .box import BoxContent, render_box
from .conflicts import conflict_hunks, has_markers, resolve_hunk
from .context import PlanContext
from .docs import recipe_doc
from .edits import apply_edits, recover_interrupted
from .engine import (
    attempt,
    availability,
    complete_attempt,
    escalate,
    plan,
    retry_task,
    skip_task,
    stop_task,
)
from .events import EVENTS, EventLog
from .ledger import Ledger
from .model import (
    DEFAULT_TASK,
    ApplyError,
    Availability,
    CommandStep,
    Hunk,
    Option,
    Outcome,
    Plan,
    RecipeDoc,
    RecipeSettings,
    Refusal,
    TaskState,
    TextEdit,
    UnsafeEdit,
    VerifyResult,
    Workspace,
)
from .trust import mark_reviewed

__all__ = [
    "DEFAULT_TASK",
    "EVENTS",
    "ApplyError",
    "Availability",
    "BoxContent",
    "CommandStep",
    "EventLog",
    "Hunk",
    "Ledger",
    "Option",
    "Outcome",
    "Plan",
    "PlanContext",
    "RecipeDoc",
    "RecipeSettings",
    "Refusal",
    "TaskState",
    "TextEdit",
    "UnsafeEdit",
    "VerifyResult",
    "Workspace",
    "apply_edits",
    "attempt",
    "availability",
    "complete_attempt",
    "conflict_hunks",
    "escalate",
    "has_markers",
    "mark_reviewed",
    "plan",
    "recipe_doc",
    "recover_interrupted",
    "render_box",
    "resolve_hunk",
    "retry_task",
    "skip_task",
    "stop_task",
]
