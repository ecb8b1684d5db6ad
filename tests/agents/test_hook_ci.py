"""The hook on an agent's look at CI: `gh pr checks` (each failed check in
its category, the primary first, and `faultlens ci URL` as the next step,
no attempt claimed on a check) and `gh run view --log-failed` (the job's
failures at the checkout's lines, runner paths mapped).  The outputs are the
format gh prints (tests/samples/infra/gh-pr-checks-*/cmd.txt names the
source) and the real job logs of tests/ci_logs."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ..ci_standin import LOGS, make_checkout
from .conftest import ROOT, payload
from .test_hook import context, hook

CHECKS = ROOT / "tests" / "samples" / "infra"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return make_checkout(tmp_path)


def _call(proj: Path, command: str, exit_code: int, output: str) -> dict[str, Any]:
    return payload(
        "claude-code-PostToolUseFailure-tsc",
        cwd=str(proj),
        tool_input={"command": command, "description": "CI"},
        error=f"Exit code {exit_code}\n{output}",
    )


@pytest.mark.parametrize("case", ["gh-pr-checks-failing", "gh-pr-checks-failing-tty"])
def test_failed_pr_checks_are_named_by_category_with_faultlens_ci_for_each_job(
    shop: Path, case: str
) -> None:
    output = (CHECKS / case / "output.txt").read_text()
    ctx = context(hook("claude-code", _call(shop, "gh pr checks 12", 1, output), shop))
    lines = ctx.splitlines()
    assert lines[0].startswith("faultlens: the pull request's failed CI checks")
    # the primary first: gh lists the failed checks by name, the CLA's status first
    assert lines[1].startswith("- trust_gate: the check license/cla failed")
    assert "waits for a person" in lines[2]
    for job in (901, 902):
        url = f"https://github.com/acme/shop/actions/runs/77/job/{job}"
        assert f"  next: `faultlens ci {url}` reads that job's log" in ctx
    assert sum(line.startswith("- compile: the check ") for line in lines) == 2
    assert "build" not in ctx and "deploy-preview" not in ctx  # passed, pending
    assert "recipe (" not in ctx and "ESCALATE" not in ctx


def test_a_check_claims_no_attempt_so_a_second_look_is_no_escalation(shop: Path) -> None:
    output = (CHECKS / "gh-pr-checks-failing" / "output.txt").read_text()
    call = _call(shop, "gh pr checks 12", 1, output)
    context(hook("claude-code", call, shop))
    again = context(hook("claude-code", call, shop))
    assert "ESCALATE" not in again and "faultlens ci https://" in again
    db = sqlite3.connect(shop / ".faultlens" / "ledger.sqlite3")
    try:
        assert db.execute("SELECT COUNT(*) FROM attempts").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2  # both looks recorded
    finally:
        db.close()


def test_checks_that_only_wait_say_nothing(shop: Path) -> None:
    output = (CHECKS / "gh-pr-checks-pending-tty" / "output.txt").read_text()
    res = hook("claude-code", _call(shop, "gh pr checks 12", 8, output), shop)
    assert res.returncode == 0 and res.stdout.strip() == "", res.stdout


def _log_failed(log: str, job: str, step: str) -> str:
    """`gh run view --log-failed`: each line of the failed step's log led by the
    job's and step's names (cli/cli pkg/cmd/run/view/view.go displayRunLog,
    "%s\\t%s\\t")."""
    lines = (LOGS / log).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if f"##[group]Run {step}" in line)
    end = next(i for i, line in enumerate(lines) if "##[error]Process completed" in line)
    return "".join(f"{job}\tRun {step}\t{line}\n" for line in lines[start : end + 1])


def test_gh_run_view_log_failed_is_told_at_the_checkouts_lines(shop: Path) -> None:
    step = "eslint --no-config-lookup --rule no-unused-vars: error /home/runner/work/shop/shop/src"
    output = _log_failed("lint.log", "lint", step)
    ctx = context(hook("claude-code", _call(shop, "gh run view 77 --log-failed", 0, output), shop))
    first = ctx.splitlines()[1]
    assert first.startswith("- compile at src/util.js:3: "), ctx  # the runner's path, mapped
    assert "'unused' is assigned a value but never used" in first
    assert "Process completed" not in first  # the step's own error explains it


def test_gh_run_view_log_failed_of_the_typecheck_job_names_the_ts2304(shop: Path) -> None:
    output = _log_failed("typecheck.log", "typecheck", "tsc -p . --pretty false")
    ctx = context(hook("claude-code", _call(shop, "gh run view 77 --log-failed", 0, output), shop))
    assert "compile at src/auth/middleware.ts:42: " in ctx and "TS2304" in ctx
