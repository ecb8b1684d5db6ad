"""`faultlens mcp`, driven by the official MCP SDK's own client over stdio."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from faultlens.agents.compact import MAX_ESCALATION

from .conftest import TSC_OUTPUT, tool

TOOLS = {"classify", "run", "recover", "status", "explain", "ci"}


@asynccontextmanager
async def session(root: Path) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "faultlens.cli", "mcp", "--cwd", str(root), "--agent", "test-agent"],
        cwd=str(root),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        yield s


async def call(s: ClientSession, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A tool's structured content, checked against the tool's output schema."""
    listed = {t.name: t for t in (await s.list_tools()).tools}
    res = await s.call_tool(name, args)
    assert not res.is_error, res.content
    assert res.structured_content is not None
    jsonschema.validate(res.structured_content, listed[name].output_schema)
    return res.structured_content


async def error_of(s: ClientSession, name: str, args: dict[str, Any]) -> str:
    res = await s.call_tool(name, args)
    assert res.is_error
    text = "".join(getattr(c, "text", "") for c in res.content)
    assert "\n" not in text and "Traceback" not in text
    return text


async def test_lists_six_tools_with_schemas_and_honest_annotations(ts_project):
    async with session(ts_project) as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
    assert set(tools) == TOOLS
    for t in tools.values():
        assert t.input_schema["type"] == "object"
        assert t.output_schema and t.output_schema["type"] == "object"
    for name in ("classify", "status", "explain"):
        a = tools[name].annotations
        assert a.read_only_hint is True and a.destructive_hint is False and a.idempotent_hint
    for name in ("run", "recover"):
        a = tools[name].annotations
        assert a.read_only_hint is False and a.destructive_hint is True
        assert a.idempotent_hint is False
    failure = tools["classify"].output_schema["$defs"]["AgentFailure"]["properties"]
    seed = {"failure_type", "severity", "signal", "source_file", "source_line"}
    assert seed | {"auto_recoverable", "recipe", "recovery_attempted", "recovery_result"} <= set(
        failure
    )


async def test_classify_gives_the_compile_record_of_real_tsc_output(ts_project):
    async with session(ts_project) as s:
        out = await call(s, "classify", {"output": TSC_OUTPUT, "exit_code": 2})
    (f,) = out["failures"]
    assert (f["failure_type"], f["source_file"], f["source_line"]) == (
        "compile",
        "src/auth/middleware.ts",
        42,
    )
    assert f["code"] == "TS2304" and f["recipe"] == "recipes/compile.md"
    assert f["attempt"] == {"allowed": True, "reason": None}
    assert out["truncated"] is False and out["total"] == 1


async def test_classify_reads_a_file_inside_the_workspace_only(ts_project):
    (ts_project / "build.log").write_text(TSC_OUTPUT)
    async with session(ts_project) as s:
        out = await call(s, "classify", {"path": "build.log"})
        assert out["failures"][0]["source_line"] == 42
        outside = await error_of(s, "classify", {"path": "../../../etc/passwd"})
        both = await error_of(s, "classify", {"output": "x", "path": "build.log"})
    assert "outside the workspace" in outside
    assert "exactly one of output or path" in both


async def test_a_long_output_is_cut_to_a_bounded_answer_that_says_so(ts_project):
    lines = "".join(
        f"src/auth/f{i}.ts({i},1): error TS2304: Cannot find name 'N{i}'.\n" for i in range(1, 200)
    )
    async with session(ts_project) as s:
        out = await call(s, "classify", {"output": lines})
    assert out["total"] == 199 and len(out["failures"]) == 25 and out["truncated"] is True
    assert len(json.dumps(out)) < 20_000


async def test_status_is_empty_before_anything_ran_and_recover_says_why_it_cannot(ts_project):
    async with session(ts_project) as s:
        status = await call(s, "status", {})
        missing = await error_of(s, "recover", {"failure_id": "abc"})
        recipe = await s.read_resource("faultlens://recipes/compile")
    assert status == {
        "tasks": [],
        "escalations": [],
        "agents": [],
        "team": [],  # no team history database configured
        "team_unavailable": None,
    }
    assert "no failures stored yet" in missing
    assert "compile" in recipe.contents[0].text.lower()
    assert not (ts_project / ".faultlens").exists()  # read-only tools wrote nothing


@pytest.mark.real_tool
async def test_recover_twice_makes_one_attempt_then_answers_its_settled_state(ts_project):
    tsc = tool("tsc")
    if tsc is None:
        pytest.skip("tsc not installed (scripts/install-tools.sh node)")
    async with session(ts_project) as s:
        ran = await call(s, "run", {"command": [tsc, "-p", "."], "task": "T-1"})
        (f,) = ran["failures"]
        assert ran["exit_code"] == 2 and f["source_line"] == 42 and ran["attempts"] == []
        first = await call(s, "recover", {"failure_id": f["id"], "task": "T-1"})
        second = await call(s, "recover", {"failure_id": f["id"], "task": "T-1"})
        status = await call(s, "status", {})
        explained = await call(s, "explain", {"failure_id": f["id"]})
    assert first["result"] == "recovered", first
    text = (ts_project / "src" / "auth" / "middleware.ts").read_text()
    assert text.count("import { UserProfile } from '../models/user'") == 1
    # Asked again about a fixed failure: it is recovered, as explain says; no box,
    # no retry/skip/stop for the agent to act on, and no second attempt.
    assert second["result"] == "recovered" and second["reason"].startswith("already recovered")
    assert second["escalation"] is None and second["options"] == []
    (task,) = [t for t in status["tasks"] if t["task"] == "T-1"]
    assert task["attempts"].get("recovered") == 1
    assert explained["state"] == "recovered" and "compile" in explained["recipe"].lower()
    events = [
        json.loads(line)
        for line in (ts_project / ".faultlens" / "events.jsonl").read_text().splitlines()
    ]
    assert {e["worker"] for e in events} == {"test-agent"}
    assert [e["event"] for e in events].count("recovery.attempted") == 1


SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SARIF = SAMPLES / "structured" / "ruff-sarif"
# Real scanner outputs whose findings are trust_gate (escalated at once, never
# automatic): 14 findings, one escalation note for the task.
SCANS = ["sast/gosec", "security/eslint-plugin-security", "security/bandit-hardcoded-password",
         "security/semgrep-local-rules", "sast/brakeman"]  # fmt: skip


async def test_classify_takes_a_json_report_as_the_output_text(tmp_path):
    """The SDK parses a string argument as JSON unless it is typed exactly `str`."""
    case = shutil.copytree(SARIF, tmp_path / "case")
    report = (case / "output.sarif").read_text()
    async with session(case) as s:
        out = await call(s, "classify", {"output": report, "exit_code": 1})
    assert {(f["failure_type"], f["source_file"], f["source_line"]) for f in out["failures"]} == {
        ("compile", "report.py", 1),
        ("compile", "report.py", 5),
        ("compile", "report.py", 9),
    }


async def test_the_escalation_note_is_given_once_and_bounded_and_says_it_was_cut(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    scans = "".join((SAMPLES / name / "output.txt").read_text() for name in SCANS)
    (root / "scans.txt").write_text(scans)
    show = "import sys; sys.stdout.write(open('scans.txt').read()); sys.exit(1)"
    async with session(root) as s:
        ran = await call(s, "run", {"command": [sys.executable, "-c", show], "recover": True})
        status = await call(s, "status", {})
    assert len(ran["attempts"]) >= 11
    assert {a["result"] for a in ran["attempts"]} == {"escalated"}
    note = ran["escalation"]
    assert note is not None and len(note) <= MAX_ESCALATION
    assert note.count("ERROR: ") <= 1  # the task's one box, not one copy per failure
    assert "faultlens explain" in note and ran["truncated"] is True
    assert len(json.dumps(ran)) < 40_000
    # the agent named with --agent is seen, without a session id of its own
    assert [(a["worker"], a["session"]) for a in status["agents"]] == [("test-agent", None)]


@pytest.mark.real_tool
async def test_recover_brings_back_every_lost_standard_library_name_in_one_edit(tmp_path):
    """The compile planner's batch through MCP: the module that lost
    `from decimal import ROUND_HALF_UP, Decimal` gets the one statement back."""
    import shutil
    import subprocess

    sample = Path(__file__).parents[1] / "samples" / "python" / "name-error-stdlib-names-lost"
    proj = tmp_path / "proj"
    shutil.copytree(sample / "pkg", proj / "pkg")
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    cmd = [sys.executable, "-B", "-m", "pkg.money"]
    async with session(proj) as s:
        ran = await call(s, "run", {"command": cmd, "task": "T-2"})
        (f,) = ran["failures"]
        fixed = await call(s, "recover", {"failure_id": f["id"], "task": "T-2"})
    assert fixed["result"] == "recovered", fixed
    lines = (proj / "pkg" / "money.py").read_text().splitlines()
    assert lines[2:5] == [
        "import re",
        "from decimal import ROUND_HALF_UP, Decimal",
        "from pathlib import Path",
    ]
