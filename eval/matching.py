"""Matching a case's records to its labels: a record matches a label of its
category (a group record, `affected` N, up to N labels), and a matched
label is located when a record names its file and line.  Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from faultlens.classifier.record import FailureRecord
from faultlens.classifier.taxonomy import Severity

from .corpus import Case, Label

# -- matching -------------------------------------------------------------------------------


@dataclass
class Match:
    label: Label
    record: FailureRecord | None
    located: bool = False


@dataclass
class CaseResult:
    case: Case
    records: list[FailureRecord]
    matches: list[Match] = field(default_factory=list)
    false_positives: list[FailureRecord] = field(default_factory=list)
    verdict: Verdict | None = None


@dataclass(frozen=True)
class Verdict:
    """The case's verdict: the record that says why it failed, against the labels.

    `found`: a record of a primary label's category is there, anywhere;
    `first`: the primary record is of a primary label's category (for a
    successful run: there is no primary record)."""

    primary: FailureRecord | None
    found: bool
    first: bool


def primary_record(records: Sequence[FailureRecord]) -> FailureRecord | None:
    """The record the classification names as the failure: the one marked
    `primary`, where records carry the mark; else the first blocking record."""
    if any(hasattr(r, "primary") for r in records):
        return next((r for r in records if getattr(r, "primary", False)), None)
    return next((r for r in records if r.severity is Severity.BLOCKING), None)


def verdict(case: Case, records: Sequence[FailureRecord]) -> Verdict:
    primary = primary_record(records)
    if not case.labels:
        return Verdict(primary, found=True, first=primary is None)
    wanted = {lab.category for lab in case.primary_labels}
    found = any(r.failure_type.value in wanted for r in records)
    first = primary is not None and primary.failure_type.value in wanted
    return Verdict(primary, found=found, first=first)


def _places(r: FailureRecord) -> list[tuple[str | None, int | None]]:
    return [(r.source_file, r.source_line), *((loc.file, loc.line) for loc in r.related)]


def _same_file(printed: str | None, labelled: str | None) -> bool:
    if not printed or not labelled:
        return False
    a, b = printed.replace("\\", "/"), labelled.replace("\\", "/")
    return a == b or a.endswith("/" + b)


def _located(r: FailureRecord, lab: Label) -> bool:
    if lab.file is None:
        return True
    for file, line in _places(r):
        if _same_file(file, lab.file) and (lab.line is None or line == lab.line):
            return True
    return False


def match(case: Case, records: Sequence[FailureRecord]) -> CaseResult:
    """Labels to records: each record takes up to `affected` labels of its
    category, the best-located first."""
    result = CaseResult(case, list(records), verdict=verdict(case, records))
    capacity = {id(r): max(1, r.affected) for r in records}
    used: set[int] = set()
    pending = list(case.labels)
    # two passes: first the labels a record locates exactly, then any of the category
    for exact in (True, False):
        still: list[Label] = []
        for lab in pending:
            pick = next(
                (
                    r
                    for r in records
                    if r.failure_type.value == lab.category
                    and capacity[id(r)] > 0
                    and (not exact or _located(r, lab))
                ),
                None,
            )
            if pick is None:
                still.append(lab)
                continue
            capacity[id(pick)] -= 1
            used.add(id(pick))
            result.matches.append(Match(lab, pick, located=_located(pick, lab)))
        pending = still
    result.matches += [Match(lab, None) for lab in pending]
    result.false_positives = [r for r in records if id(r) not in used]
    return result
