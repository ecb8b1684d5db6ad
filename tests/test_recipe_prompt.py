"""The prompt_delivery recipe: reduce the scope and retry once, the smaller token
budget computed from the error's numbers and handed to the retried command in
FAULTLENS_TOKEN_BUDGET (with FAULTLENS_REDUCE_SCOPE=1).  End to end with a real
fake agent that fails with the documented Anthropic error (as Claude Code prints
it: https://docs.anthropic.com/en/api/errors) unless the budget is below the limit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Plan, RecipeSettings, Refusal, Workspace, attempt, plan
from faultlens.recipes.planners.prompt_delivery import token_budget

from .helpers import faultlens_run_recover, workspace_beside

AGENT = """\
import json, os, sys
LIMIT = 200000
tokens = int(sys.argv[1])
budget = os.environ.get("FAULTLENS_TOKEN_BUDGET")
with open("seen.jsonl", "a") as f:
    f.write(json.dumps({"budget": budget, "reduce": os.environ.get("FAULTLENS_REDUCE_SCOPE")}) + "\\n")
if budget is not None:
    tokens = min(tokens, int(budget))
if tokens > LIMIT:
    body = {"type": "error", "error": {"type": "invalid_request_error",
            "message": f"prompt is too long: {tokens} tokens > {LIMIT} maximum"}}
    print("API Error: 400 " + json.dumps(body, separators=(",", ":")), file=sys.stderr)
    sys.exit(1)
print(f"agent finished with a {tokens}-token prompt")
"""


@pytest.fixture
def proj(tmp_path):
    p = tmp_path / "agent"
    p.mkdir()
    (p / "agent.py").write_text(AGENT)
    return p


def run_agent(proj: Path, cmd: list[str]) -> list[FailureRecord]:
    res = subprocess.run(cmd, cwd=proj, capture_output=True, text=True)
    assert res.returncode == 1
    recs = classify_text(res.stderr, Options(cwd=str(proj), command=cmd, exit_code=1))
    for r in recs:
        r.hint.setdefault("command", cmd)
    return recs


def seen(proj: Path) -> list[dict]:
    return [json.loads(x) for x in (proj / "seen.jsonl").read_text().splitlines()]


@pytest.mark.parametrize(
    ("hint", "current", "expected"),
    [
        ({"tokens": 215041, "limit": 200000, "budget": 160000}, None, 160000),
        ({"tokens": 215041, "limit": 200000}, None, 160000),
        ({"tokens": 10000}, None, 8000),
        ({"tokens": 215041, "limit": 200000, "budget": 160000}, 150000, 120000),
        ({"limit": 200000, "budget": 250000}, None, 160000),  # a budget above the limit is ignored
        ({}, None, None),
    ],
)
def test_the_budget_comes_from_the_errors_numbers(hint, current, expected):
    assert token_budget(hint, 0.8, current) == expected


@pytest.mark.real_tool
def test_a_prompt_too_long_is_retried_once_with_a_smaller_budget_and_recovers(proj):
    cmd = [sys.executable, "agent.py", "215041"]
    [rec] = run_agent(proj, cmd)
    assert rec.failure_type == "prompt_delivery"
    assert (rec.hint["tokens"], rec.hint["limit"]) == (215041, 200000)
    ws = workspace_beside(proj)
    p = plan(rec, ws)
    assert isinstance(p, Plan)
    assert p.verify is not None
    assert p.verify.env == {"FAULTLENS_REDUCE_SCOPE": "1", "FAULTLENS_TOKEN_BUDGET": "160000"}
    out = attempt(rec, ws)
    assert out.result == "recovered", out.reason
    assert seen(proj) == [
        {"budget": None, "reduce": None},
        {"budget": "160000", "reduce": "1"},
    ]
    # Once only: asked again, the failure's settled state, without a new attempt.
    again = attempt(rec, ws)
    assert again.result == "recovered" and again.reason.startswith("already recovered")
    assert again.box is None
    assert len(seen(proj)) == 2


@pytest.mark.real_tool
def test_a_retry_that_still_fails_is_escalated_with_the_numbers(proj):
    # The agent ignores the budget's smaller value when it cannot go below its floor.
    (proj / "agent.py").write_text(AGENT.replace("tokens = min(tokens, int(budget))", "pass"))
    cmd = [sys.executable, "agent.py", "215041"]
    [rec] = run_agent(proj, cmd)
    out = attempt(rec, workspace_beside(proj))
    assert out.result == "escalated"
    assert "Prompt: 215041 tokens, limit 200000" in out.details
    assert "Retry budget: 160000 tokens (FAULTLENS_TOKEN_BUDGET)" in out.details
    assert len(seen(proj)) == 2


def _record(**hint) -> FailureRecord:
    return FailureRecord(
        failure_type="prompt_delivery",
        severity="degraded",
        signal="error",
        auto_recoverable=True,
        recipe="recipes/prompt_delivery.md",
        id="p1",
        hint={"command": ["agent", "run"], **hint},
    )


def test_a_rate_limit_waits_the_apis_retry_after_through_the_injected_sleep(proj):
    slept: list[float] = []
    ws = Workspace(roots=[proj], settings=RecipeSettings(sleep=slept.append))
    p = plan(_record(kind="rate_limit", transient=True, retry_after=6.0), ws)
    assert isinstance(p, Plan) and p.backoff == (6.0,)
    assert p.verify is not None and "FAULTLENS_TOKEN_BUDGET" not in p.verify.env
    p = plan(_record(kind="rate_limit", retry_after=3600), ws)
    assert isinstance(p, Plan) and p.backoff == (60.0,)


def test_an_output_token_limit_hands_the_allowed_maximum(proj):
    p = plan(_record(kind="max_tokens", requested=64000, limit=32000), Workspace(roots=[proj]))
    assert isinstance(p, Plan) and p.verify is not None
    assert p.verify.env["FAULTLENS_MAX_TOKENS"] == "32000"


def test_an_exhausted_quota_is_not_retried(proj):
    p = plan(_record(kind="rate_limit", error_type="insufficient_quota"), Workspace(roots=[proj]))
    assert isinstance(p, Refusal) and "insufficient_quota" in p.reason


def test_the_variable_names_are_settings_of_the_recipe(proj):
    override = proj / ".faultlens" / "recipes"
    override.mkdir(parents=True)
    (override / "prompt_delivery.md").write_text(
        '+++\n[scope]\nenv = "AGENT_BUDGET"\nfactor = 0.5\n+++\n'
    )
    p = plan(_record(kind="context", tokens=300, limit=200), Workspace(roots=[proj]))
    assert isinstance(p, Plan) and p.verify is not None
    assert p.verify.env == {"FAULTLENS_REDUCE_SCOPE": "1", "AGENT_BUDGET": "100"}
    (override / "prompt_delivery.md").write_text('+++\n[scope]\nenv = "BAD; rm"\n+++\n')
    p = plan(_record(kind="context", tokens=300, limit=200), Workspace(roots=[proj]))
    assert isinstance(p, Plan) and p.verify is not None
    assert "FAULTLENS_TOKEN_BUDGET" in p.verify.env


@pytest.mark.real_tool
def test_faultlens_run_recover_delivers_the_prompt_with_a_smaller_budget(proj):
    res = faultlens_run_recover([sys.executable, "agent.py", "215041"], proj)
    assert "recovered  prompt_delivery" in res.stderr, res.stderr
    assert res.returncode == 0
    assert seen(proj)[-1] == {"budget": "160000", "reduce": "1"}
