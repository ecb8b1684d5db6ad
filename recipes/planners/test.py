"""The test recipe's planner for one failure (see recipes/test.md): re-run its
tests once, in one command (`test_runners.select`: escaped ids, the original
command's flags, nothing outside the workspace); a pass by the runner's own
summary is a flaky test (recovered), a failure is real (escalated with
expected vs actual).  `faultlens run --recover` re-runs all of a run's failing
tests at once instead (recipes/test_batch.py); this is the editor's and
`faultlens recover`'s path.

A test that errored because the code under test does not compile (NameError,
ImportError) gets the compile recipe's fix, verified by re-running the
original command.
"""

from __future__ import annotations

import dataclasses
import posixpath

from ..context import PlanContext
from ..fixes.scan import record_text
from ..fixes.test_rerun import expected_actual, find_test
from ..known_flakes import NOT_RERUN, only_known_flakes, split
from ..model import CommandStep, Plan, Refusal
from ..test_batch import plan_reruns

COMPILE_EXCEPTIONS = frozenset({"NameError", "ImportError", "ModuleNotFoundError"})


def plan(ctx: PlanContext) -> Plan | Refusal:
    rec = ctx.record
    if rec.hint.get("exception") in COMPILE_EXCEPTIONS:
        from . import compile as compile_planner

        fix = compile_planner.plan(ctx)
        if isinstance(fix, Plan):
            fix.failure_type = "test"
            fix.success_note = f"the test passes after: {fix.title}"
            return fix
    if not ctx.command:
        return Refusal("the command that ran the test is not known: nothing to re-run")
    if only_known_flakes(ctx.ws):
        from ..ledger import Ledger

        _, unknown = split(ctx.ws, Ledger.open(ctx.ws), [rec])
        if unknown:
            return Refusal(NOT_RERUN)
    selections, _, refused = plan_reruns([rec], ctx.ws, ctx.command, ctx.cwd)
    if not selections:
        ref = find_test(rec.tool, rec.hint, record_text(rec), ctx.command)
        if ref is not None and not rec.hint.get("test_id"):
            # The test is named only in the record's text.
            hint = {**rec.hint, "test_id": ref.test_id, "runner": ref.framework}
            hinted = dataclasses.replace(rec, hint=hint)
            selections, _, refused = plan_reruns([hinted], ctx.ws, ctx.command, ctx.cwd)
    if not selections:
        why = next(iter(refused.values()), "the failing test could not be identified")
        return Refusal(why)
    (sel,) = selections[:1]
    names = [t.test_id for t in sel.tests]
    step = CommandStep(
        argv=list(sel.argv),
        cwd=posixpath.normpath(posixpath.join(ctx.cwd or ".", sel.cwd or ".")),
        env=dict(ctx.env),
        timeout=float(ctx.setting("verify.timeout", 300)),
    )
    details = []
    hint_e, hint_a = rec.hint.get("expected"), rec.hint.get("actual")
    if not (isinstance(hint_e, str) and isinstance(hint_a, str)):
        pair = expected_actual(record_text(rec))
        if pair is not None:
            details = [f"Expected: {pair[0]}", f"Actual: {pair[1]}"]
    what = names[0] if len(names) == 1 else f"its {len(names)} tests"
    return Plan(
        failure_id=rec.id,
        failure_type="test",
        title=f"Re-run {what} once",
        summary=f"re-run only {what} ({sel.runner}) to tell flaky from real",
        verify=step,
        verify_by="exit",
        success_note=f"flaky test: {what} passed when run again",
        details=details,
    )
