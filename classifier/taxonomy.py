"""The failure taxonomy: the one place that maps a category to its severity,
its auto-recoverability and its recipe.

The table is fixed by the product contract (PRODUCT.md section 1) and by the
first seed document.  Everything else (the record model, the language server,
the recipe engine) reads it from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

AutoRecoverable = bool | Literal["partial"]
# What became of the one recovery attempt, and whose failure it is (triage):
# field types of the failure record (record.py) and of its pydantic mirror.
RecoveryResult = Literal["recovered", "escalated", "skipped"]
TriageVerdict = Literal["flaky", "stale_branch", "preexisting", "yours", "unknown"]


class FailureType(StrEnum):
    """The eight categories every failure is sorted into."""

    COMPILE = "compile"
    TEST = "test"
    BRANCH_DIVERGENCE = "branch_divergence"
    TRUST_GATE = "trust_gate"
    MCP_STARTUP = "mcp_startup"
    PLUGIN_STARTUP = "plugin_startup"
    INFRA = "infra"
    PROMPT_DELIVERY = "prompt_delivery"


class Severity(StrEnum):
    """`blocking` stops progress; `degraded` lets work go on with less capability."""

    BLOCKING = "blocking"
    DEGRADED = "degraded"


@dataclass(frozen=True, slots=True)
class Category:
    """One row of the taxonomy table."""

    failure_type: FailureType
    severity: Severity
    auto_recoverable: AutoRecoverable
    recipe: str
    title: str


def _row(ft: FailureType, sev: Severity, auto: AutoRecoverable, title: str) -> Category:
    return Category(ft, sev, auto, f"recipes/{ft.value}.md", title)


TAXONOMY: dict[FailureType, Category] = {
    c.failure_type: c
    for c in (
        _row(FailureType.COMPILE, Severity.BLOCKING, True, "Compile"),
        _row(FailureType.TEST, Severity.BLOCKING, "partial", "Test"),
        _row(FailureType.BRANCH_DIVERGENCE, Severity.BLOCKING, True, "Branch divergence"),
        _row(FailureType.TRUST_GATE, Severity.BLOCKING, False, "Trust gate"),
        _row(FailureType.MCP_STARTUP, Severity.DEGRADED, True, "MCP start-up"),
        _row(FailureType.PLUGIN_STARTUP, Severity.DEGRADED, "partial", "Plugin start-up"),
        _row(FailureType.INFRA, Severity.BLOCKING, False, "Infrastructure"),
        _row(FailureType.PROMPT_DELIVERY, Severity.DEGRADED, True, "Prompt delivery"),
    )
}


def category(ft: FailureType | str) -> Category:
    """The taxonomy row of a failure type (accepts the enum or its string value)."""
    return TAXONOMY[FailureType(ft)]
