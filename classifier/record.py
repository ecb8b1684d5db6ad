"""The failure record: the structured output of the first seed, plus the
extra fields of the product contract (PRODUCT.md section 2).

The nine seed fields keep their names and JSON types exactly; everything else
is an addition that consumers may ignore.

The records are plain dataclasses, not pydantic models: the classifier makes
thousands of them per log, and importing pydantic and validating each one cost
`faultlens classify` about a fifth of a second per process.  The engine makes
valid records, so constructing one checks nothing: `__post_init__` only does
what the model's validation did cheaply (enum values become members, an int
confidence a float, the hint and related list are copied).  Nor is an
assignment validated or coerced any more (the pydantic model had
validate_assignment): mypy --strict checks the types where records are made
and changed.  Validation happens at the edges, with the pydantic mirror of
these classes in `record_schema` (imported only there):

* `FailureRecord.from_json` validates data from outside (a stored record, an
  LSP `Diagnostic.data`), raising pydantic's `ValidationError` as before;
* `record_schema.FailureRecord.model_json_schema()` is what `faultlens schema`
  prints (field descriptions and constraints live there).

tests/test_record.py keeps the two in step: same fields, order and defaults.
Copies: `dataclasses.replace(record, **changes)` (shares the raw values kept
in memory, as a shallow copy of the pydantic model did) and `copy.deepcopy`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .taxonomy import AutoRecoverable, FailureType, RecoveryResult, Severity, TriageVerdict

__all__ = ["FailureRecord", "Location", "RecoveryResult", "Triage", "TriageVerdict"]


@dataclass(kw_only=True, slots=True)
class Location:
    """A further place that matters for a failure (a traceback frame, a note)."""

    file: str
    line: int | None = None
    column: int | None = None
    message: str = ""
    test: str | None = None  # the test id, when this location is a test the failure affects

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "test": self.test,
        }


@dataclass(kw_only=True, slots=True)
class Triage:
    """Whose failure it is: checked against the upstream and by re-running."""

    verdict: TriageVerdict
    reason: str = ""  # how the verdict was reached, or why not checked
    upstream: str | None = None  # the upstream it was checked against

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "reason": self.reason, "upstream": self.upstream}


@dataclass(kw_only=True, slots=True)
class FailureRecord:
    """One classified failure (the fields are described in record_schema)."""

    # -- the seed's nine fields, names and JSON types as in the seed --------
    failure_type: FailureType
    severity: Severity
    signal: str
    source_file: str | None = None
    source_line: int | None = None
    auto_recoverable: AutoRecoverable
    recipe: str
    recovery_attempted: bool = False
    recovery_result: RecoveryResult | None = None

    # -- additions ------------------------------------------------------------
    id: str = ""
    tool: str | None = None
    code: str | None = None
    message: str = ""
    source_column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    log_line: int | None = None
    log_file: str | None = None
    rule: str = ""
    task: str | None = None
    confidence: float = 1.0
    hint: dict[str, Any] = field(default_factory=dict)
    related: list[Location] = field(default_factory=list)
    affected: int = 1
    triage: Triage | None = None
    # The one record that explains why the job or command failed (the
    # verdict): set on exactly one record of a classification that has
    # failures, which is then listed first (classifier/primary.py).
    primary: bool = False

    # What redaction changed in the values a re-run passes as argv (a test
    # id whose title holds `user:password@host`): the raw values, kept in
    # memory only (never serialised, never shown, not compared). See
    # raw_hint/raw_test.  A field so that `dataclasses.replace` carries it.
    _raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        # What the pydantic model did on construction, cheaply: the enums
        # from their values, a float confidence, and containers of its own.
        if type(self.failure_type) is not FailureType:
            self.failure_type = FailureType(self.failure_type)
        if type(self.severity) is not Severity:
            self.severity = Severity(self.severity)
        if type(self.confidence) is not float:
            self.confidence = float(self.confidence)
        self.hint = dict(self.hint)
        self.related = list(self.related)

    @classmethod
    def from_json(cls, data: object) -> FailureRecord:
        """A record from JSON data (a stored record, an LSP `Diagnostic.data`),
        validated: pydantic's `ValidationError` (a ValueError) when it is not
        one.  It has no raw values: raw_hint then gives the (masked) hint."""
        from .record_schema import FailureRecord as Schema

        fields = Schema.model_validate(data).model_dump()
        related = [Location(**loc) for loc in fields.pop("related")]
        triage = fields.pop("triage")
        return cls(**fields, related=related, triage=None if triage is None else Triage(**triage))

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (safe to put in LSP `data`): every
        field but the raw values, enums as their values, new containers."""
        return {
            "failure_type": self.failure_type.value,
            "severity": self.severity.value,
            "signal": self.signal,
            "source_file": self.source_file,
            "source_line": self.source_line,
            "auto_recoverable": self.auto_recoverable,
            "recipe": self.recipe,
            "recovery_attempted": self.recovery_attempted,
            "recovery_result": self.recovery_result,
            "id": self.id,
            "tool": self.tool,
            "code": self.code,
            "message": self.message,
            "source_column": self.source_column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "log_line": self.log_line,
            "log_file": self.log_file,
            "rule": self.rule,
            "task": self.task,
            "confidence": self.confidence,
            "hint": _json_ready(self.hint),
            "related": [loc.to_json() for loc in self.related],
            "affected": self.affected,
            "triage": None if self.triage is None else self.triage.to_json(),
            "primary": self.primary,
        }

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


def _json_ready(value: Any) -> Any:
    """`value` as new JSON-ready data, as pydantic serialises an `Any` field
    in JSON mode: tuples become lists, non-finite floats None.  Plain JSON
    data (all a rule puts in a hint) is copied here; anything else (an enum,
    a set, a path, a non-string key) is left to pydantic, which then loads."""
    t = type(value)
    if t is str or t is int or t is bool or value is None:
        return value
    if t is float:
        return value if math.isfinite(value) else None
    if t is list or t is tuple:
        return [_json_ready(v) for v in value]
    if t is dict and all(type(k) is str for k in value):
        return {k: _json_ready(v) for k, v in value.items()}
    from .record_schema import json_data as by_pydantic

    return by_pydantic(value)
