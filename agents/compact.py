"""What an agent is told about failures: the record, cut to what it acts on.

An agent reads every token it is given, so the MCP tools and the hooks hand it
a compact view of each record — the seed's nine fields (same names, same JSON
types as `FailureRecord`, whose field definitions in its pydantic mirror,
record_schema, are reused here), the id, the tool and code, a bounded message,
the group size and whether the one automatic attempt is still allowed — within
a bounded total size, with `truncated` saying when something was cut.  Pure: no I/O; the caller says what the ledger allows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from faultlens.classifier import record_schema
from faultlens.classifier.record import FailureRecord, RecoveryResult
from faultlens.classifier.taxonomy import AutoRecoverable, FailureType, Severity

# Bounds of one answer (an agent's context is the scarce resource).
MAX_FAILURES = 25
MAX_SIGNAL = 300
MAX_MESSAGE = 600
MAX_TESTS = 10
MAX_ESCALATION = 6000  # characters of escalation note in one answer

_F = record_schema.FailureRecord.model_fields


def _same(name: str) -> Any:
    """A Field like FailureRecord's `name` (its default and description)."""
    info = _F[name]
    return Field(default=info.default, description=info.description)


class Attempt(BaseModel):
    """Whether faultlens' one automatic attempt for this failure is still open."""

    model_config = ConfigDict(extra="forbid")

    allowed: bool = Field(description="True when the recipe may still be tried (once).")
    reason: str | None = Field(default=None, description="Why not, when it may not.")


class AgentFailure(BaseModel):
    """One failure as an agent sees it (a subset of the failure record)."""

    model_config = ConfigDict(extra="forbid")

    # The seed's nine fields, typed as in FailureRecord.
    failure_type: FailureType
    severity: Severity
    signal: str = _same("signal")
    source_file: str | None = _same("source_file")
    source_line: int | None = _same("source_line")
    auto_recoverable: AutoRecoverable
    recipe: str
    recovery_attempted: bool = False
    recovery_result: RecoveryResult | None = None
    # What an agent acts on besides.
    id: str = _same("id")
    tool: str | None = None
    code: str | None = _same("code")
    message: str = ""
    source_column: int | None = None
    affected: int = _same("affected")
    attempt: Attempt


class Group(BaseModel):
    """A root cause shared by several failing tests."""

    model_config = ConfigDict(extra="forbid")

    failure_id: str
    failure_type: str
    affected: int = Field(description="How many failures this cause accounts for.")
    tests: list[str] = Field(description=f"The first {MAX_TESTS} affected test ids.")


class ClassifyResult(BaseModel):
    """The answer of the `classify` tool."""

    model_config = ConfigDict(extra="forbid")

    failures: list[AgentFailure]
    groups: list[Group]
    truncated: bool = Field(description="True when failures or texts were cut to fit.")
    total: int = Field(description="How many failures were found in all.")


Allowed = Callable[[FailureRecord], tuple[bool, str | None]]


def _cut(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    return text[: limit - 1] + "…", True


def bounded_note(note: str | None, limit: int | None = MAX_ESCALATION) -> tuple[str | None, bool]:
    """An escalation note cut to `limit` characters at a line end, saying where
    the whole is; and whether it was cut."""
    if note is None or limit is None or len(note) <= limit:
        return note, False
    tail = "\n… (cut to fit: `faultlens explain <failure id>` prints the whole note)"
    head = note[: limit - len(tail)]
    if "\n" in head:
        head = head[: head.rfind("\n")]
    return head + tail, True


def compact(record: FailureRecord, allowed: Allowed) -> tuple[AgentFailure, bool]:
    """The agent's view of one record, and whether a text was cut."""
    signal, cut1 = _cut(record.signal, MAX_SIGNAL)
    message, cut2 = _cut(record.message, MAX_MESSAGE)
    ok, why = allowed(record)
    view = AgentFailure(
        failure_type=record.failure_type,
        severity=record.severity,
        signal=signal,
        source_file=record.source_file,
        source_line=record.source_line,
        auto_recoverable=record.auto_recoverable,
        recipe=record.recipe,
        recovery_attempted=record.recovery_attempted,
        recovery_result=record.recovery_result,
        id=record.id,
        tool=record.tool,
        code=record.code,
        message=message,
        source_column=record.source_column,
        affected=record.affected,
        attempt=Attempt(allowed=ok, reason=why),
    )
    return view, cut1 or cut2


def group_of(record: FailureRecord) -> Group | None:
    """The group a record stands for, when it accounts for several tests."""
    if record.affected <= 1:
        return None
    tests = [loc.test for loc in record.related if loc.test][:MAX_TESTS]
    return Group(
        failure_id=record.id,
        failure_type=record.failure_type.value,
        affected=record.affected,
        tests=tests,
    )


def classify_result(records: Sequence[FailureRecord], allowed: Allowed) -> ClassifyResult:
    """The bounded answer for a list of records (blocking ones first)."""
    ordered = sorted(records, key=lambda r: (r.severity.value != "blocking", r.log_line or 0))
    failures: list[AgentFailure] = []
    truncated = len(ordered) > MAX_FAILURES
    for record in ordered[:MAX_FAILURES]:
        view, cut = compact(record, allowed)
        failures.append(view)
        truncated = truncated or cut
    groups = [g for g in map(group_of, ordered[:MAX_FAILURES]) if g is not None]
    return ClassifyResult(failures=failures, groups=groups, truncated=truncated, total=len(records))


def where(failure: AgentFailure | FailureRecord) -> str:
    """`file:line`, `file`, or `(no file)`."""
    if not failure.source_file:
        return "(no file)"
    if failure.source_line:
        return f"{failure.source_file}:{failure.source_line}"
    return failure.source_file


def one_line(failure: AgentFailure) -> str:
    """`<failure_type> at <file>:<line>: <signal>` (the hooks' sentence)."""
    text = f"{failure.failure_type.value} at {where(failure)}: {failure.signal}"
    if failure.affected > 1:
        text += f" ({failure.affected} tests affected)"
    return text
