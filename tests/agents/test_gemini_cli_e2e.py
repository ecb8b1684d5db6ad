"""The real Gemini CLI with `faultlens hook gemini` as its AfterTool hook, against
a local stand-in for the Gemini API (tests/agents/model_standin.py): one
`run_shell_command` whose output is a compile failure, and what reaches the
next model request.

Gemini CLI is installed by scripts/setup.d/60-agents.sh (npm
@google/gemini-cli into tools/agents/)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import ROOT, tool
from .model_standin import GeminiStandIn

GEMINI = ROOT / "tools" / "agents" / "node_modules" / ".bin" / "gemini"

pytestmark = [pytest.mark.real_tool, pytest.mark.slow]


def test_the_hooks_context_reaches_the_next_gemini_request(ts_project, tmp_path):
    if not GEMINI.exists():
        pytest.skip("Gemini CLI not installed (scripts/setup.d/60-agents.sh)")
    tsc = tool("tsc")
    if tsc is None:
        pytest.skip("tsc not installed (scripts/install-tools.sh node)")
    hooks = {
        "hooks": {
            "AfterTool": [
                {
                    "matcher": "run_shell_command",
                    "hooks": [
                        {"type": "command", "name": "faultlens", "command": "faultlens hook gemini"}
                    ],
                }
            ]
        }
    }
    (ts_project / ".gemini").mkdir()
    (ts_project / ".gemini" / "settings.json").write_text(json.dumps(hooks))
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "general": {"disableAutoUpdate": True},
                "privacy": {"usageStatisticsEnabled": False},
            }
        )
    )
    with GeminiStandIn(f"{tsc} -p .") as api:
        env = {
            "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(home),
            "GEMINI_API_KEY": "standin",
            "GOOGLE_GEMINI_BASE_URL": api.url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "XDG_STATE_HOME": os.environ.get("XDG_STATE_HOME", str(home / ".local" / "state")),
        }
        res = subprocess.run(
            [str(GEMINI), "-p", "build it", "--yolo", "-m", "gemini-2.5-pro"],
            cwd=ts_project,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
    assert res.returncode == 0, res.stdout + res.stderr
    requests = api.model_requests()
    assert len(requests) >= 2, requests
    last = requests[-1]["contents"][-1]["parts"]
    answer = next(
        p["functionResponse"]["response"]["output"] for p in last if "functionResponse" in p
    )
    assert "error TS2304" in answer
    assert "<hook_context>" in answer
    assert "compile at src/auth/middleware.ts:42: error TS2304" in answer
    events = (ts_project / ".faultlens" / "events.jsonl").read_text().splitlines()
    assert json.loads(events[0])["worker"] == "gemini"
