"""The failure record: the structured output of the first seed, plus the
extra fields of the product contract (PRODUCT.md section 2).

The nine seed fields keep their names and JSON types exactly; everything else
is an addition that consumers may ignore.  `FailureRecord.model_json_schema()`
is what `faultlens schema` prints.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from .taxonomy import AutoRecoverable, FailureType, RecoveryResult, Severity, TriageVerdict

__all__ = ["FailureRecord", "Location", "RecoveryResult", "Triage", "TriageVerdict"]


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

    model_config = ConfigDict(extra="forbid", validate_assignment=True, defer_build=True)

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

    # What redaction changed in the values a re-run passes as argv (a test
    # id whose title holds `user:password@host`): the raw values, kept in
    # memory only (never serialised, never shown). See raw_hint/raw_test.
    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        """Records are equal when their fields are: the raw copies kept in
        memory (a record read back from JSON has none) do not count."""
        if not isinstance(other, FailureRecord):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (safe to put in LSP `data`)."""
        return self.model_dump(mode="json")

    def raw_hint(self, key: str) -> Any:
        """hint[key] as the output printed it, before secrets were masked
        (for an argv: a test id to re-run); the hint's value when nothing
        was masked, or when the record came from storage (then it may hold
        a mask: refuse to run it)."""
        return self._raw.get(key, self.hint.get(key))

    def raw_test(self, test: str) -> str:
        """The raw id of one of `related`'s tests (`Location.test`)."""
        tests = self._raw.get("tests")
        return tests.get(test, test) if isinstance(tests, dict) else test

    def keep_raw(self, key: str, value: Any) -> None:
        """Remember the unmasked value of hint[key] (the classifier does)."""
        self._raw.setdefault(key, value)

    def keep_raw_test(self, masked: str, raw: str) -> None:
        if masked != raw:
            self._raw.setdefault("tests", {}).setdefault(masked, raw)
