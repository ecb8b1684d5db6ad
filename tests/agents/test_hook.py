"""`faultlens hook <agent>`: the answer an agent reads after a shell call, and
the anti-loop rule kept in the ledger across calls."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from faultlens.recipes import Ledger, Workspace

from .conftest import payload


def hook(agent: str, data: Any, cwd: Path) -> subprocess.CompletedProcess[str]:
    raw = data if isinstance(data, str) else json.dumps(data)
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "hook", agent],
        input=raw,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def context(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    return str(out["hookSpecificOutput"]["additionalContext"])


def failing(proj: Path) -> dict[str, Any]:
    return payload("claude-code-PostToolUseFailure-tsc", cwd=str(proj))


def passing(proj: Path) -> dict[str, Any]:
    """The same tsc call, succeeding (what Claude Code sends then)."""
    data = failing(proj)
    data.pop("error")
    data["hook_event_name"] = "PostToolUse"
    data["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
    return data


def test_a_failed_build_is_told_as_category_location_signal_and_the_recipe_to_try(ts_project):
    res = hook("claude-code", failing(ts_project), ts_project)
    ctx = context(res)
    assert (
        "compile at src/auth/middleware.ts:42: error TS2304: Cannot find name 'UserProfile'" in ctx
    )
    assert "recipes/compile.md" in ctx
    assert "Import UserProfile from '../models/user'" in ctx  # the recipe's own plan
    assert json.loads(res.stdout)["hookSpecificOutput"]["hookEventName"] == "PostToolUseFailure"


def test_a_successful_call_with_nothing_failing_is_silent(ts_project):
    res = hook(
        "claude-code", payload("claude-code-PostToolUse-ls", cwd=str(ts_project)), ts_project
    )
    assert (res.returncode, res.stdout, res.stderr) == (0, "", "")


def test_the_same_failure_again_is_escalated_never_a_second_attempt(ts_project):
    first = context(hook("claude-code", failing(ts_project), ts_project))
    assert "ESCALATE" not in first
    second = context(hook("claude-code", failing(ts_project), ts_project))
    assert "ESCALATE" in second and "do not try the same fix again" in second
    assert "faultlens retry claude-code-4acc1807-7dfa-4179-a7cd-5148e501036c" in second
    third = context(hook("claude-code", failing(ts_project), ts_project))
    assert "ESCALATE" in third  # and it stays escalated
    ledger = Ledger.open(Workspace.at(ts_project))
    rows = ledger.history()
    assert [r.state for r in rows] == ["escalated"]  # one attempt, closed as escalated
    assert rows[0].task == "claude-code-4acc1807-7dfa-4179-a7cd-5148e501036c"


def test_a_clean_run_after_the_agents_fix_records_it_recovered_and_says_nothing(ts_project):
    context(hook("claude-code", failing(ts_project), ts_project))
    res = hook("claude-code", passing(ts_project), ts_project)
    assert (res.returncode, res.stdout) == (0, "")
    (row,) = Ledger.open(Workspace.at(ts_project)).history()
    assert row.state == "recovered"
    events = [
        json.loads(line)["event"]
        for line in (ts_project / ".faultlens" / "events.jsonl").read_text().splitlines()
    ]
    assert events == ["failure.classified", "recovery.attempted", "recovery.succeeded"]


def _applied_in_the_editor(proj: Path, task: str) -> None:
    """The editor's quick fix on tsc's ingested output (no command known):
    applied, not verified (recipes/confirm.py)."""
    from faultlens.classifier import Options, classify_text
    from faultlens.recipes import attempt

    from .conftest import TSC_OUTPUT

    (rec,) = classify_text(TSC_OUTPUT, Options(cwd=str(proj)))
    rec.task = task
    assert attempt(rec, Workspace.at(proj)).result == "applied"


def test_the_agents_clean_run_of_the_tool_decides_an_editor_fix_applied_unverified(ts_project):
    _applied_in_the_editor(ts_project, "claude-code-4acc1807-7dfa-4179-a7cd-5148e501036c")
    res = hook("claude-code", passing(ts_project), ts_project)
    assert (res.returncode, res.stdout) == (0, "")
    (row,) = Ledger.open(Workspace.at(ts_project)).history()
    assert row.state == "recovered"
    assert row.reason.startswith("no longer reported by the next run (`")


def test_the_agents_run_still_reporting_an_editor_fix_escalates_it_without_a_new_attempt(
    ts_project,
):
    _applied_in_the_editor(ts_project, "claude-code-4acc1807-7dfa-4179-a7cd-5148e501036c")
    ctx = context(hook("claude-code", failing(ts_project), ts_project))
    assert "its one attempt was already escalated" in ctx
    (row,) = Ledger.open(Workspace.at(ts_project)).history()
    assert row.state == "escalated"
    assert row.reason.startswith("still reported by the next run after the fix")


def test_events_name_the_agent_and_its_session_and_status_shows_them(ts_project):
    context(hook("claude-code", failing(ts_project), ts_project))
    lines = (ts_project / ".faultlens" / "events.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    assert first["worker"] == "claude-code"
    assert first["session"] == "4acc1807-7dfa-4179-a7cd-5148e501036c"
    status = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "status", "--json"],
        cwd=ts_project,
        capture_output=True,
        text=True,
        check=True,
    )
    (agent,) = json.loads(status.stdout)["agents"]
    assert agent["worker"] == "claude-code" and agent["events"] == 2


def test_the_escalated_failure_can_be_explained_from_the_terminal(ts_project):
    context(hook("claude-code", failing(ts_project), ts_project))
    context(hook("claude-code", failing(ts_project), ts_project))
    (row,) = Ledger.open(Workspace.at(ts_project)).history()
    res = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "explain", row.failure_id[:8]],
        cwd=ts_project,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    assert "escalated" in res.stdout.splitlines()[0]
    assert (
        "ERROR: Compile" in res.stdout
        and "[retry claude-code-4acc1807-7dfa-4179-a7cd-5148e501036c]" in res.stdout
    )


@pytest.mark.parametrize("name", ["codex-PostToolUse-shell", "gemini-AfterTool-tsc"])
def test_codex_and_gemini_payloads_get_the_same_answer_in_their_own_format(ts_project, name):
    agent = name.split("-", 1)[0]
    data = payload(name, cwd=str(ts_project))
    res = hook(agent, data, ts_project)
    out = json.loads(res.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == data["hook_event_name"]
    assert "compile at src/auth/middleware.ts:42" in out["additionalContext"]


def test_a_payload_that_is_not_json_gets_one_line_and_exit_1(ts_project):
    res = hook("claude-code", "{not json", ts_project)
    assert res.returncode == 1 and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1
    assert res.stderr.startswith("faultlens: not a claude-code hook payload")


def test_a_successful_call_without_trigger_words_never_loads_the_classifier(ts_project):
    data = json.dumps(payload("claude-code-PostToolUse-ls", cwd=str(ts_project)))
    probe = (
        "import io, sys\n"
        "from faultlens.cli.main import main\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({data.encode()!r}))\n"
        "code = main(['hook', 'claude-code'])\n"
        "print(code, 'faultlens.classifier.engine' in sys.modules)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", probe], cwd=ts_project, capture_output=True, text=True, timeout=120
    )
    assert res.stdout.split() == ["0", "False"], res.stderr


def test_a_state_folder_linked_out_of_the_workspace_still_gets_the_failure_told(
    ts_project, tmp_path
):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (ts_project / ".faultlens").symlink_to(outside, target_is_directory=True)
    ctx = context(hook("claude-code", failing(ts_project), ts_project))
    assert "compile at src/auth/middleware.ts:42" in ctx
    assert "cannot record attempts here" in ctx
    assert list(outside.iterdir()) == []  # nothing written through the link
