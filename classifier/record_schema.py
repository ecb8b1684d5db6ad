"""The pydantic mirror of the failure record (record.py): what validates data
from outside into a record (`record.FailureRecord.from_json`) and the JSON
Schema that `faultlens schema` prints.

Only the edges import this module (pydantic costs a classify process ~0.2 s).
The classes keep the record's class names, which the schema's titles and
`$defs` are named after.  tests/test_record.py checks that they have the
dataclasses' fields, in the same order, with the same defaults.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .taxonomy import AutoRecoverable, FailureType, RecoveryResult, Severity, TriageVerdict


class Location(BaseModel):
    """A further place that matters for a failure (a traceback frame, a note)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    file: str
    line: int | None = Field(default=None, ge=1)
    column: int | None = Field(default=None, ge=1)
    message: str = ""
    test: str | None = Field(
        default=None, description="The test id, when this location is a test the failure affects."
    )


class Triage(BaseModel):
    """Whose failure it is: checked against the upstream and by re-running."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    verdict: TriageVerdict
    reason: str = Field(default="", description="How the verdict was reached, or why not checked.")
    upstream: str | None = Field(default=None, description="The upstream it was checked against.")


class FailureRecord(BaseModel):
    """One classified failure."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    # -- the seed's nine fields, names and JSON types as in the seed --------
    failure_type: FailureType
    severity: Severity
    signal: str = Field(description="The line of output that identifies the failure.")
    source_file: str | None = Field(
        default=None,
        description="Relative to the working directory when inside it, absolute otherwise.",
    )
    source_line: int | None = Field(default=None, ge=1, description="1-based.")
    auto_recoverable: AutoRecoverable
    recipe: str
    recovery_attempted: bool = False
    recovery_result: RecoveryResult | None = None

    # -- additions ------------------------------------------------------------
    id: str = Field(default="", description="Stable fingerprint; survives line shifts.")
    tool: str | None = None
    code: str | None = Field(default=None, description="The tool's own code (TS2304, E0425).")
    message: str = ""
    source_column: int | None = Field(default=None, ge=1)
    end_line: int | None = Field(default=None, ge=1)
    end_column: int | None = Field(default=None, ge=1)
    log_line: int | None = Field(default=None, ge=1, description="Where in the output it is.")
    log_file: str | None = Field(default=None, description="The file the output came from.")
    rule: str = Field(default="", description="The detection rule that matched.")
    task: str | None = None
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    hint: dict[str, Any] = Field(default_factory=dict)
    related: list[Location] = Field(default_factory=list)
    affected: int = Field(
        default=1,
        ge=1,
        description="How many failures (tests) this record's cause accounts for; the affected "
        "tests are listed in `related` with their test id.",
    )
    triage: Triage | None = Field(
        default=None, description="flaky, stale_branch, preexisting, yours or unknown."
    )
    primary: bool = Field(
        default=False,
        description="The verdict: the one record that explains why the job or command "
        "failed (true on exactly one record of a classification with failures, listed first; "
        "docs/precedence.md).",
    )


_ANY: TypeAdapter[Any] = TypeAdapter(Any)


def json_data(value: Any) -> Any:
    """`value` as JSON-ready data, as a record's `hint` (typed Any) was
    serialised by the pydantic model (record.py's fast path hands over what
    is not plain JSON data)."""
    return _ANY.dump_python(value, mode="json")
