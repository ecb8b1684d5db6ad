"""The test recipe's planner (see recipes/test.md): re-run only the failing test
once; a pass is a flaky test (recovered), a failure is real (escalated with
expected vs actual).

A test that errored because the code under test does not compile (NameError,
ImportError) gets the compile recipe's fix first, verified by the same
single-test re-run.
"""

from __future__ import annotations

from ..context import PlanContext
from ..fixes.scan import record_text
from ..fixes.test_rerun import expected_actual, find_test, rerun_argv
from ..model import CommandStep, Plan, Refusal

COMPILE_EXCEPTIONS = frozenset({"NameError", "ImportError", "ModuleNotFoundError"})


def plan(ctx: PlanContext) -> Plan | Refusal:
    rec = ctx.record
    ref = find_test(rec.tool, rec.hint, record_text(rec), ctx.command)
    if ref is None:
        return Refusal("the failing test could not be identified (or its id failed validation)")
    step = CommandStep(
        argv=rerun_argv(ref, ctx.command, ctx.python()),
        cwd=ctx.cwd,
        env=dict(ctx.env),
        timeout=float(ctx.setting("verify.timeout", 300)),
    )
    if rec.hint.get("exception") in COMPILE_EXCEPTIONS:
        from . import compile as compile_planner

        fix = compile_planner.plan(ctx)
        if isinstance(fix, Plan):
            fix.failure_type = "test"
            fix.verify = step
            fix.verify_by = "exit"
            fix.summary += f"; then re-run {ref.test_id}"
            fix.success_note = f"{ref.test_id} passes after: {fix.title}"
            return fix
    details = []
    hint_e, hint_a = rec.hint.get("expected"), rec.hint.get("actual")
    if isinstance(hint_e, str) and isinstance(hint_a, str):
        details = [f"Expected: {hint_e}", f"Actual: {hint_a}"]
    elif (pair := expected_actual(record_text(rec))) is not None:
        details = [f"Expected: {pair[0]}", f"Actual: {pair[1]}"]
    return Plan(
        failure_id=rec.id,
        failure_type="test",
        title=f"Re-run {ref.test_id} once",
        summary=f"re-run only {ref.test_id} ({ref.framework}) to tell flaky from real",
        verify=step,
        verify_by="exit",
        success_note=f"flaky test: {ref.test_id} passed when run again",
        details=details,
    )
