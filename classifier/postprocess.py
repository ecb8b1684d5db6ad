"""What happens once the whole output has been read.

Cross-record decisions live here, away from the line rules, in this order:

0. warnings (Hit.warning) are kept only when the run failed because of
   them (classifier/warnings_policy.py, docs/warnings.md); then summaries
   (Hit.key = (FALLBACK, ...): "could not compile", "make: *** Error 1",
   and WARNINGS_FAILED lines) are dropped when a more specific record was
   found; a pre-commit hook's record stands only when nothing was found in
   its output (rules/precommit.py); the generic GNU-format records stand
   only when nothing specific was found (drop_generic);
1. conflicts: a branch_divergence record naming a file that is readable
   under the working directory is placed on the file's first conflict
   marker, with every hunk in its hint (classifier/conflicts.py);
2. a record that only knows its test is placed on the test's definition
   (classifier/testdefs.py);
3. precedence between categories that saw the same failure
   (classifier/precedence.py, docs/precedence.md);
4. root-cause groups: the failing tests of one cause become one record
   for the cause (classifier/grouping.py);
5. the fallback record for a failed command that no rule explained
   (classifier/fallback.py);
6. the primary record: in a CI job log, records of steps that succeeded
   are set aside as context before step 1 (they are no failure), and once
   the rest is settled one record is marked `primary` and put first
   (classifier/primary.py, classifier/jobsteps.py, docs/precedence.md);
7. redaction of every secret a scanner named, in every record
   (classifier/redact.py; the engine already redacted known shapes).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from . import fallback, warnings_policy
from .locate import read_in_tree
from .redact import redact_record
from .rules import gnu as gnu_rules
from .rules import precommit as precommit_rules
from .rules.base import FALLBACK, WARNINGS_FAILED, Hit
from .taxonomy import TAXONOMY, FailureType

# The passes over records (steps 1-4) import their modules when there is a
# record to pass over: an output with no failure (most runs of `faultlens
# run`, every hook call on a clean step) never loads them (~20 ms).

if TYPE_CHECKING:
    from collections import deque
    from collections.abc import Hashable, Sequence

    from .jobsteps import JobLayout
    from .locate import Locator
    from .record import FailureRecord

# Hint values a re-run passes as argv (FailureRecord.raw_hint).
IDENTITY_KEYS = ("test_id", "test_path", "test_title", "test_name", "test_file")


class _Options(Protocol):
    command: Sequence[str] | str | None
    exit_code: int | None


class Classifier(Protocol):
    """What these passes use of a closed engine.Classifier (a protocol: this
    module is imported by the engine, never the other way round)."""

    @property
    def options(self) -> _Options: ...

    locator: Locator
    secrets: set[str]
    warning_keys: set[tuple[Hashable, ...]]
    repeats: dict[int, int]
    unclaimed: deque[tuple[int, str]]
    _records: dict[tuple[Hashable, ...], FailureRecord]
    _lines: int

    @property
    def records(self) -> list[FailureRecord]: ...

    def tail(self) -> list[str]: ...

    def job_layout(self) -> JobLayout | None: ...

    def add_hit(self, hit: Hit, *, rule_id: str, category_: FailureType, tool: str) -> None: ...


MAX_CONFLICT_FILE = 4 * 1024 * 1024
MAX_HUNKS = 100


def finalize(classifier: Classifier) -> None:
    """Apply the cross-record passes to a closed classifier, in place."""
    attribute_tools(classifier)
    precommit_rules.drop_explained(classifier._records)  # before the generic records go
    drop_generic(classifier)
    apply_warning_policy(classifier)
    drop_retried(classifier)  # transient errors a successful run got past (retried.py)
    attach_cargo_targets(classifier.records)
    drop_redundant_fallbacks(classifier)
    layout = classifier.job_layout()
    context = set_aside_context(classifier, layout)
    records = classifier.records
    kept = _place_and_fold(classifier, records) if records else []
    if len(kept) != len(records):
        ids = {id(r) for r in kept}
        classifier._records = {k: v for k, v in classifier._records.items() if id(v) in ids}
    if not kept:
        add_fallback(classifier)
    mark_primary(classifier, layout, context)
    if classifier.secrets:
        for r in classifier.records:
            _redact_keeping_raw_ids(r, classifier.secrets)


def _place_and_fold(classifier: Classifier, records: list[FailureRecord]) -> list[FailureRecord]:
    """Steps 1-4 over the records: the places found in files, then the
    records kept once dependencies, precedence and root causes are applied."""
    from . import dependency_errors, grouping, manifests, mcpconfig, precedence, testdefs
    from .rules.plugin import placement as plugin_placement

    cwd = classifier.locator.cwd
    for r in records:
        if r.failure_type == FailureType.BRANCH_DIVERGENCE and r.source_file:
            place_conflict(r, cwd)
    manifests.place_records(records, cwd)  # a vulnerable package on its manifest line
    mcpconfig.place_records(records, cwd)  # a server's entry in .mcp.json & co.
    plugin_placement.place_records(records, cwd)  # the line in a plugin's manifest / config
    testdefs.find_js_test_files(records, cwd)  # mocha's failure outside a test body
    testdefs.place(records, cwd)  # a test known by its id only: on its definition
    testdefs.name_variables(records, cwd)  # `NotPresent`: the variable its line reads
    # a dependency's files the compiler cannot read: one record per package
    return grouping.group(
        precedence.apply(dependency_errors.fold(records, cwd, classifier.repeats))
    )


def set_aside_context(classifier: Classifier, layout: JobLayout | None) -> list[FailureRecord]:
    """A CI job's records inside steps that succeeded leave the records
    (they are context, not failures); returns them."""
    if layout is None or not classifier._records:
        return []
    from . import primary

    _, context = primary.split_context(list(classifier._records.values()), layout)
    if context:
        gone = {id(r) for r in context}
        classifier._records = {k: v for k, v in classifier._records.items() if id(v) not in gone}
    return context


def mark_primary(
    classifier: Classifier, layout: JobLayout | None, context: list[FailureRecord]
) -> None:
    """`primary` on the one record that explains the failure, listed first."""
    if not classifier._records:
        return
    from . import primary

    items = list(classifier._records.items())
    ordered = primary.mark([r for _, r in items], layout, classifier.options.exit_code, context)
    if ordered[0] is not items[0][1]:
        key_of = {id(r): k for k, r in items}
        classifier._records = {key_of[id(r)]: r for r in ordered}


def drop_retried(classifier: Classifier) -> None:
    from . import retried

    exit_code = classifier.options.exit_code
    classifier._records = {
        k: r for k, r in classifier._records.items() if not retried.retried_to_success(r, exit_code)
    }


def attach_cargo_targets(records: list[FailureRecord]) -> None:
    """cargo closes each failing test target with `error: test failed, to
    rerun pass `--test api`` (rust.cargo_failed, a summary dropped when the
    tests were read): the tests reported above it belong to that target,
    which is what a re-run passes (hint["target"])."""
    targets = sorted(
        (r.log_line, r.hint["rerun_args"])
        for r in records
        if r.rule == "rust.cargo_failed"
        and r.log_line
        and isinstance(r.hint.get("rerun_args"), str)
    )
    if not targets:
        return
    for r in records:
        if r.hint.get("runner") != "cargo" or r.log_line is None or "target" in r.hint:
            continue
        after = next((t for line, t in targets if line > r.log_line), None)
        if after:
            r.hint["target"] = after


def _redact_keeping_raw_ids(r: FailureRecord, secrets: set[str]) -> None:
    """Mask what scanners named, remembering the raw test ids (argv of a
    re-run: FailureRecord.raw_hint / raw_test)."""
    ids = [(k, r.hint[k]) for k in IDENTITY_KEYS if k in r.hint]
    tests = [loc.test for loc in r.related]
    redact_record(r, secrets)
    for k, before in ids:
        if r.hint.get(k) != before:
            r.keep_raw(k, before)
    for loc, before in zip(r.related, tests, strict=True):
        if loc.test is not None and before is not None and loc.test != before:
            r.keep_raw_test(loc.test, r.raw_test(before))


_SUMMARIES = (FALLBACK, WARNINGS_FAILED)


def _is_summary(key: tuple[object, ...]) -> bool:
    return len(key) > 1 and key[1] in _SUMMARIES


# Tools that print the very lines another tool's rule reads: from a run of
# one of them, such a record is that tool's (flake8 prints ruff's concise lines).
SAME_FORMAT: dict[str, frozenset[str]] = {
    "ruff": frozenset({"flake8", "pycodestyle", "pyflakes"}),
    # GitHub's annotation lines, printed by linters run with their github format
    "github-actions": warnings_policy.LINTERS | {"mypy", "pyright", "tsc"},
}


def attribute_tools(classifier: Classifier) -> None:
    """Name the command's program as the tool of the records printed in a
    format it shares with another tool (SAME_FORMAT)."""
    program = fallback.command_tool(classifier.options.command)
    if not program:
        return
    for r in classifier._records.values():
        if r.tool and program in SAME_FORMAT.get(r.tool, ()):
            r.tool = program


def drop_generic(classifier: Classifier) -> None:
    """The generic GNU-format records (classifier/rules/gnu.py) stand only
    when nothing specific was found, the run is not known to have
    succeeded, and — for a line naming no severity — it is known to have
    failed. Those kept name the command's program as their tool and are
    test records when the command is a test runner."""
    records = classifier._records
    generic = {k for k, r in records.items() if r.rule in gnu_rules.RULE_IDS}
    if not generic:
        return
    opts = classifier.options
    specific = any(
        k not in generic and k not in classifier.warning_keys and not _is_summary(k)
        for k in records
    )
    failed = opts.exit_code is not None and opts.exit_code != 0
    program = fallback.command_tool(opts.command)
    as_test = fallback.command_category(opts.command) is FailureType.TEST
    for k in generic:
        r = records[k]
        if specific or opts.exit_code == 0 or (r.hint.get("level") is None and not failed):
            del records[k]
            continue
        if r.tool in (None, "unknown") and program:
            r.tool = program
        if as_test:
            cat = TAXONOMY[FailureType.TEST]
            r.failure_type = cat.failure_type
            r.severity = cat.severity
            r.recipe = cat.recipe
            r.auto_recoverable = cat.auto_recoverable


def apply_warning_policy(classifier: Classifier) -> None:
    """Keep the warnings when the run failed because of them, else drop
    them; drop every linter finding of a run the linter passed (exit 0,
    `--exit-zero`).

    A kept warning says so in its hint: `warning` (True) and `warnings_fail`
    (why: the output, the command's flag, or the exit status)."""
    records = classifier._records
    opts = classifier.options
    if warnings_policy.findings_advisory(opts.command, opts.exit_code):
        for k in [k for k, r in records.items() if r.tool in warnings_policy.LINTERS]:
            del records[k]
    warns = classifier.warning_keys & records.keys()
    if not warns:
        return
    # a tool's own "warnings failed the run" line promotes that tool's warnings
    promoted = {
        r.tool: r.signal for k, r in records.items() if len(k) > 1 and k[1] == WARNINGS_FAILED
    }
    errors = any(k not in warns and not _is_summary(k) for k in records)
    for k in warns:
        r = records[k]
        reason = warnings_policy.warnings_fail(
            opts.command, opts.exit_code, errors=errors, promoted=promoted.get(r.tool)
        )
        if reason is None:
            del records[k]
        else:
            r.hint["warning"] = True
            r.hint["warnings_fail"] = reason


# Build drivers whose summary ("make: *** [test] Error 8") only says that a
# command they ran failed: the summary of that command (ctest's list of the
# tests that failed) explains it.
_DRIVERS = frozenset({"make", "ninja"})


def drop_redundant_fallbacks(classifier: Classifier) -> None:
    """Drop the summary records ("could not compile", "make: *** Error 1")
    when a more specific record explains the failure.

    A rule marks such a summary with `Hit.key = (FALLBACK, TOOL, ...)`; the
    engine stores it under the key `(category, FALLBACK, TOOL, ...)`.  The
    summary stands unless a record of what TOOL runs explains it
    (classifier/summaries.py): a truncated log, an error format no rule
    knows, another tool's failure in the same log do not, so a failed run is
    never reported as clean.
    """
    records = classifier._records
    summaries = [k for k in records if _is_summary(k)]
    if not summaries:
        return
    from .precedence import is_ci_step_summary
    from .summaries import explained

    # a CI runner's "step failed" line says which step failed, not why:
    # it explains no tool's summary (ctest's list, make's Error 2)
    specific = [
        r.rule for k, r in records.items() if not _is_summary(k) and not is_ci_step_summary(r)
    ]
    tools = {k: k[2] if len(k) > 2 else None for k in summaries}
    drop = []
    for k in summaries:
        tool = tools[k]
        if explained(tool, specific):
            drop.append(k)
        elif tool in _DRIVERS and any(
            tools[o] not in _DRIVERS and tools[o] is not None for o in summaries if o != k
        ):
            # a tool that runs anything (make, ninja) is explained by the
            # summary of the tool it ran (make test's ctest list)
            drop.append(k)
    for k in drop:
        del records[k]


def place_conflict(r: FailureRecord, cwd: Path) -> None:
    """Put a conflict record on the file's first marker, hunks in the hint."""
    from . import conflicts

    if r.source_file is None:
        return
    text = read_in_tree(cwd, r.source_file, MAX_CONFLICT_FILE)
    if text is None:
        return
    hunks = conflicts.scan(text)
    if not hunks:
        return
    r.source_line = hunks[0].start
    r.source_column = 1
    r.hint["hunks"] = [h.to_hint() for h in hunks[:MAX_HUNKS]]
    r.hint.setdefault("ours", hunks[0].ours_label)
    r.hint.setdefault("theirs", hunks[0].theirs_label)


def _tail_lines(classifier: Classifier) -> list[tuple[int, str]]:
    tail = classifier.tail()
    first = classifier._lines - len(tail) + 1
    return [(first + i, line) for i, line in enumerate(tail) if first + i >= 1]


def add_fallback(classifier: Classifier) -> None:
    """One low-confidence record for a failed command nothing explained."""
    opts = classifier.options
    if not opts.exit_code or fallback.exit_is_a_state(opts.command, opts.exit_code):
        return
    candidates = [*classifier.unclaimed, *_tail_lines(classifier)]
    fb = fallback.build(opts.command, opts.exit_code, candidates)
    argv = fallback.argv_of(opts.command)
    tool = os.path.basename(argv[0]) if argv else "command"
    hit = Hit(
        signal=fb.signal,
        message=fb.message,
        log_line=fb.log_line,
        confidence=fallback.CONFIDENCE,
        code=f"exit-{opts.exit_code}",
        hint={"command": fb.command, "exit_code": opts.exit_code, "lines": list(fb.lines)},
    )
    classifier.add_hit(hit, rule_id="fallback", category_=fb.category, tool=tool)
