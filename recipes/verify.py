"""Verification: did the attempt fix the failure?

`rerun` re-runs a command, classifies its output with the classifier, and
reports whether the record's stable id is gone (`verify_by="id"`) or whether
the command exited 0 (`verify_by="exit"`).  A plan may instead give its own
`check` (re-read a file for conflict markers, an MCP handshake).

In watch mode the command is not run again: `RecipeSettings.rerun` (set by
the server for a watcher's failure) hands over the watcher's next cycle, and
the same judgement is made on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .lifecycle.judge import judge
from .lifecycle.verify_loop import verify_loop
from .model import CommandStep, Plan, VerifyResult, Workspace
from .rerun_proof import base_id, proves_a_pass
from .runner import Sink, run_step, step_cwd

__all__ = ["NOT_VERIFIED", "base_id", "rerun", "verify"]

# The start of the reason of an attempt whose fix nothing verified (result "applied").
NOT_VERIFIED = "applied, not verified"

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


def _runner_of(argv: list[str]) -> str | None:
    from .fixes.test_runners import detect

    found = detect(argv)
    return found[0].name if found else None


def rerun(
    step: CommandStep,
    ws: Workspace,
    record: FailureRecord,
    by: str,
    *,
    echo: Sink | None = None,
    full_rerun: bool = False,
    known: set[str] | None = None,
) -> VerifyResult:
    """Re-run `step`; by "exit": passed when it exits 0 (and, for a test runner,
    when its own summary says a test ran and passed); by "id": the record's id
    is gone and, when `known` (the ids the run had reported) is given, no
    failure outside it was reported."""
    stood_in = ws.settings.rerun(step, record) if ws.settings.rerun is not None else None
    if stood_in is not None:  # watch mode: the watcher's next cycle is the re-run
        if stood_in.error:
            return VerifyResult(False, f"not verified by {stood_in.how}: {stood_in.error}", None)
        code, records, tail = stood_in.exit_code, stood_in.records, stood_in.tail
        again = f"in {stood_in.how}"
    else:
        ran = _run_again(step, ws, record, echo, full_rerun)
        if isinstance(ran, VerifyResult):
            return ran
        code, records, tail = ran
        again = "when the command was run again"
    if by == "exit":
        ok = code == 0
        ran_again = "when run again" if stood_in is None else again
        still_fails = "it still fails" if stood_in is None else f"it still fails {again}"
        reason = f"it passed {ran_again} (exit 0)" if ok else f"{still_fails} (exit {code})"
        runner = _runner_of(list(step.argv))
        if ok and runner is not None:
            ok, why = proves_a_pass(runner, tail, code)
            reason = f"it passed {ran_again} ({why})" if ok else f"not a pass: {why}"
        return VerifyResult(ok, reason, code, records, tail, full_rerun)
    brings = "the command now reports" if stood_in is None else f"{again} brings"
    j = judge([record.id], records, known=known, again=again, brings=brings)
    reason = f"{j.reason} (exit {code})" if j.recovered else j.reason
    return VerifyResult(j.recovered, reason, code, records, tail, full_rerun)


def _run_again(
    step: CommandStep,
    ws: Workspace,
    record: FailureRecord,
    echo: Sink | None,
    full_rerun: bool,
) -> tuple[int | None, list[FailureRecord], str] | VerifyResult:
    """Run `step`, classifying its output: (exit status, records, output tail),
    or the VerifyResult of a run that could not finish."""
    from .observe import recogniser

    cwd = step_cwd(ws, step)
    classifier = recogniser(cwd, task=record.task, command=step.argv)
    result = run_step(step, ws, on_data=classifier.feed, echo=echo)
    tail = result.tail.decode("utf-8", "replace")[-4000:]
    if result.error:
        return VerifyResult(False, f"could not re-run `{step.display()}`: {result.error}", None)
    classifier.options.exit_code = result.exit_code
    records = classifier.close()
    if result.timed_out:
        return VerifyResult(
            False,
            f"`{step.display()}` timed out after {step.timeout:g} s",
            None,
            records,
            tail,
            full_rerun,
        )
    return result.exit_code, records, tail


def verify(
    plan: Plan,
    ws: Workspace,
    record: FailureRecord,
    *,
    echo: Sink | None = None,
    command: list[str] | None = None,
    known: set[str] | None = None,
) -> tuple[VerifyResult, bool]:
    """Run the plan's verification (with its retries); returns (result, verified)."""
    if plan.verify is None and plan.check is None and not plan.edits and not plan.commands:
        return VerifyResult(False, "the recipe neither changed anything nor can verify"), False
    if plan.verify_by == "none" or not ws.settings.verify:
        return VerifyResult(True, f"{NOT_VERIFIED}: verification is turned off"), False
    run_once: Callable[[], VerifyResult]
    if plan.verify_by == "check":
        if plan.check is None:
            return VerifyResult(False, "the recipe gave no check to verify with"), False
        run_once = plan.check
    else:
        step = plan.verify
        if step is None:
            return VerifyResult(
                True, f"{NOT_VERIFIED}: no command is known for this failure"
            ), False
        full = command is not None and list(step.argv) == list(command)

        def run_once() -> VerifyResult:
            return rerun(
                step,
                ws,
                record,
                plan.verify_by,
                echo=echo,
                full_rerun=full,
                known=known if full else None,
            )

    looped = verify_loop(
        run_once,
        lambda r: r.ok,
        retries=plan.retries,
        backoff=plan.backoff,
        sleep=ws.settings.sleep,
    )
    looped.result.reason += looped.note
    return looped.result, True
