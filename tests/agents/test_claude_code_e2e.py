"""The real Claude Code CLI with faultlens' plugin bundle, against a local
stand-in for the model API (tests/agents/model_standin.py): one Bash tool call
whose output is a compile failure, and what reaches the next model request.

Claude Code is installed by scripts/setup.d/60-agents.sh (npm
@anthropic-ai/claude-code into tools/agents/)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, tool
from .model_standin import ModelStandIn

CLAUDE = ROOT / "tools" / "agents" / "node_modules" / ".bin" / "claude"
PLUGIN = ROOT / "editors" / "claude-code"

pytestmark = [pytest.mark.real_tool, pytest.mark.slow]


def _claude(proj: Path, home: Path, api: ModelStandIn) -> subprocess.CompletedProcess[str]:
    home.mkdir(exist_ok=True)
    # Headless -p in a folder never opened interactively: mark it trusted.
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(proj): {"hasTrustDialogAccepted": True}}})
    )
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": api.url,
        "ANTHROPIC_API_KEY": "sk-ant-standin",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "XDG_STATE_HOME": os.environ.get("XDG_STATE_HOME", str(home / ".local" / "state")),
    }
    return subprocess.run(
        [
            str(CLAUDE),
            "-p",
            "build it",
            "--output-format",
            "json",
            "--allowedTools",
            "Bash",
            "--plugin-dir",
            str(PLUGIN),
        ],
        cwd=proj,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_the_hooks_context_reaches_the_next_model_request_and_the_plugin_loads(
    ts_project, tmp_path
):
    if not CLAUDE.exists():
        pytest.skip("Claude Code not installed (scripts/setup.d/60-agents.sh)")
    tsc = tool("tsc")
    if tsc is None:
        pytest.skip("tsc not installed (scripts/install-tools.sh node)")
    with ModelStandIn(f"{tsc} -p .") as api:
        res = _claude(ts_project, tmp_path / "home", api)
    assert res.returncode == 0, res.stdout + res.stderr
    assert json.loads(res.stdout)["subtype"] == "success"
    requests = api.model_requests()
    assert len(requests) >= 2
    last = requests[-1]["messages"][-1]["content"]
    result = next(c for c in last if c.get("type") == "tool_result")
    assert "error TS2304" in str(result["content"]) and result["is_error"] is True
    added = "\n".join(c.get("text", "") for c in last if c.get("type") == "text")
    assert "PostToolUseFailure:Bash hook additional context" in added
    assert "compile at src/auth/middleware.ts:42: error TS2304" in added
    assert "recipes/compile.md" in added
    # The bundle's MCP server started too: its tools are offered to the model.
    offered = {t.get("name") for r in requests for t in r.get("tools", [])}
    assert {
        f"mcp__plugin_faultlens_faultlens__{n}" for n in ("classify", "run", "recover")
    } <= offered
    # And the lifecycle log knows who ran it.
    events = (ts_project / ".faultlens" / "events.jsonl").read_text().splitlines()
    assert json.loads(events[0])["worker"] == "claude-code"


def test_the_plugin_installs_from_the_repositorys_marketplace_and_loads(tmp_path):
    if not CLAUDE.exists():
        pytest.skip("Claude Code not installed (scripts/setup.d/60-agents.sh)")
    env = {**os.environ, "HOME": str(tmp_path), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}

    def claude(*args: str) -> str:
        res = subprocess.run(
            [str(CLAUDE), "plugin", *args], env=env, capture_output=True, text=True, timeout=120
        )
        assert res.returncode == 0, res.stdout + res.stderr
        return res.stdout

    assert "Validation passed" in claude("validate", str(ROOT))
    assert "Validation passed" in claude("validate", str(PLUGIN))
    claude("marketplace", "add", str(ROOT))
    claude("install", "faultlens@faultlens")
    listed = claude("list")
    assert "faultlens@faultlens" in listed and "enabled" in listed and "failed" not in listed
