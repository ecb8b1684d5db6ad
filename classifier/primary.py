"""The verdict: the one record that explains why a job or command failed.

Two passes over the records once the whole output is read
(classifier/postprocess.py calls them; docs/precedence.md, "The primary
record", explains the order):

* `split_context`: in a CI job log read as a job (classifier/jobsteps.py),
  a record inside a step that succeeded is context, not a failure (a
  configure step probing an optional library, an install's audit summary):
  it leaves the list, and the primary record lists it in
  `hint["incidental"]`.
* `mark`: `primary = True` on exactly one record when the run is not
  known to have succeeded (or when it is, on a start-up failure its
  host ran on without: an MCP server or a plugin that did not start,
  which an agent CLI or an editor reports and still exits 0), and that
  record first.  The candidates are the
  records of the first failed step when the log has steps (any record
  otherwise); among them the runner's own verdict on the job (time limit,
  cancellation, lost runner) comes first, then what git left (a
  conflict), then what stopped the build or the environment (compile,
  infra, a gate, a server that did not start), then failing tests (and a
  bare HTTP status), then the rest (warnings, a branch's state), and last
  the summaries that only say a step or command failed (`Process
  completed with exit code N`, the fallback record); within a tier, the
  first in the output.

Pure: records in, records out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .taxonomy import FailureType

if TYPE_CHECKING:
    from .jobsteps import JobLayout, Step
    from .record import FailureRecord

# hint["kind"] of the runner's own verdicts on a job (classifier/rules/infra/runner_*.py)
RUNNER_VERDICTS = frozenset({"job-timeout", "cancelled", "runner-lost"})
# the rules whose record only says that a step or a command failed
SUMMARY_RULES = frozenset({"infra.github_actions", "fallback"})
MAX_INCIDENTAL = 20

# git's reports of a branch's state (behind, diverged): a condition that
# explains no failure by itself, so any other record comes first
GIT_STATE_RULES = frozenset(
    {"git.behind", "git.diverged", "git.status_short_branch", "git.needs_rebase"}
)
# what git left that breaks the build or the tests after it
GIT_CAUSE_RULES = frozenset(
    {
        "git.conflict",
        "git.unmerged_path",
        "git.status_short_unmerged",
        "git.local_changes_overwritten",
    }
)

# infra kinds that name only an HTTP status: the response's own words, when
# another record read them (`Resource not accessible by integration`), say more
HTTP_STATUS_KINDS = frozenset({"http-4xx", "http-5xx"})

_TIER_OF_TYPE = {
    FailureType.BRANCH_DIVERGENCE: 2,
    FailureType.INFRA: 2,
    FailureType.MCP_STARTUP: 2,
    FailureType.PLUGIN_STARTUP: 2,
    FailureType.PROMPT_DELIVERY: 2,
    FailureType.COMPILE: 2,
    FailureType.TRUST_GATE: 2,
    FailureType.TEST: 3,
}
_SUMMARY_TIER = 5

# failures a host reports and runs on without, so its exit status does not
# tell them: an agent CLI whose MCP server or hook did not start answers
# without it and exits 0 (Claude Code's init `"status": "failed"`, its
# debug log's `MCP server "x" ... failed`), as an editor keeps running
# without the extension that did not activate
STARTUP_TYPES = frozenset({FailureType.MCP_STARTUP, FailureType.PLUGIN_STARTUP})


def is_summary(r: FailureRecord) -> bool:
    """A record that says only that a step or command failed, not why."""
    return r.rule in SUMMARY_RULES or (
        r.failure_type is FailureType.INFRA and r.hint.get("kind") == "ci"
    )


def tier(r: FailureRecord) -> int:
    """How well the record explains the failure: 0 best (see the module doc)."""
    if r.hint.get("kind") in RUNNER_VERDICTS and r.failure_type is FailureType.INFRA:
        return 0
    if is_summary(r):
        return _SUMMARY_TIER
    if r.hint.get("warning") is True or r.rule in GIT_STATE_RULES:
        return 4  # warnings that failed the run; the state of a branch
    if r.rule in GIT_CAUSE_RULES:
        return 1
    if r.failure_type is FailureType.INFRA and r.hint.get("kind") in HTTP_STATUS_KINDS:
        return 3
    return _TIER_OF_TYPE.get(r.failure_type, 4)


def split_context(
    records: list[FailureRecord], layout: JobLayout
) -> tuple[list[FailureRecord], list[FailureRecord]]:
    """(failures, context): the records of steps that succeeded are context."""
    from .jobsteps import StepStatus

    kept: list[FailureRecord] = []
    context: list[FailureRecord] = []
    for r in records:
        step = layout.step_at(r.log_line)
        if step is not None and step.status is StepStatus.SUCCEEDED and tier(r) != 0:
            context.append(r)
        else:
            kept.append(r)
    return kept, context


def _first_failed_step(records: list[FailureRecord], layout: JobLayout) -> Step | None:
    """The first failed step (outermost first) that holds a record."""
    from .jobsteps import StepStatus

    for step in layout.steps:
        if step.status is not StepStatus.FAILED:
            continue
        if any((s := layout.step_at(r.log_line)) is not None and s.within(step) for r in records):
            innermost = [
                s
                for r in records
                if (s := layout.step_at(r.log_line)) is not None
                and s.within(step)
                and s.status is StepStatus.FAILED
            ]
            return innermost[0] if innermost else step
    return None


def choose(
    records: list[FailureRecord], layout: JobLayout | None, exit_code: int | None
) -> FailureRecord | None:
    """The record that explains the failure, or None (nothing failed, or
    the run is known to have succeeded and nothing failed to start)."""
    if not records:
        return None
    if exit_code == 0 or (layout is not None and layout.job_failed is False):
        # what did not start (STARTUP_TYPES) is the verdict on a run its
        # exit status calls a success; anything else it got past
        return next((r for r in records if r.failure_type in STARTUP_TYPES), None)
    candidates = records
    if layout is not None:
        verdicts = [r for r in records if tier(r) == 0]
        step = _first_failed_step(records, layout)
        if verdicts:
            candidates = verdicts
        elif step is not None:
            candidates = [
                r
                for r in records
                if (s := layout.step_at(r.log_line)) is not None and s.within(step)
            ]
    best = min(range(len(candidates)), key=lambda i: (tier(candidates[i]), i))
    return candidates[best]


def incidental(context: list[FailureRecord], layout: JobLayout) -> list[dict[str, Any]]:
    """What the primary record says of the records left as context."""
    out: list[dict[str, Any]] = []
    for r in context[:MAX_INCIDENTAL]:
        step = layout.step_at(r.log_line)
        out.append(
            {
                "failure_type": r.failure_type.value,
                "rule": r.rule,
                "signal": r.signal,
                "log_line": r.log_line,
                "step": step.name if step is not None else None,
            }
        )
    return out


def mark(
    records: list[FailureRecord],
    layout: JobLayout | None,
    exit_code: int | None,
    context: list[FailureRecord] | None = None,
) -> list[FailureRecord]:
    """The records with `primary` set on the verdict, which comes first."""
    from .jobsteps import StepStatus

    for r in records:
        r.primary = False
    chosen = choose(records, layout, exit_code)
    if chosen is None:
        return records
    chosen.primary = True
    if layout is not None:
        step = layout.step_at(chosen.log_line)
        if step is None or step.status is not StepStatus.FAILED:  # a job-level verdict
            failed = layout.failed
            step = failed[0] if failed else step
        if step is not None:
            chosen.hint.setdefault("job_step", step.name)
            if step.exit_code is not None:
                chosen.hint.setdefault("job_step_exit_code", step.exit_code)
        if context:
            chosen.hint.setdefault("incidental", incidental(context, layout))
    return [chosen, *(r for r in records if r is not chosen)]
