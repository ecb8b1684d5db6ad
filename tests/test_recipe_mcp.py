"""The mcp_startup recipe: the server's entry found in the project's MCP config,
its command spawned once (from the config, validated) and taken through the real
MCP initialize handshake (the `mcp` Python SDK) with a timeout; a server that
answers is recovered, one that still crashes is skipped with a warning naming its
entry, and the configuration is never written.

The failure itself is the real SDK output captured in
tests/samples/mcp/py-sdk-server-crash (a server that dies before the handshake)."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Plan, Refusal, attempt, plan
from faultlens.recipes.fixes.mcp_probe import BadEntry, load_spec

from .helpers import faultlens_run_recover
from .helpers import workspace_beside as ws_of

pytest.importorskip("mcp")

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "samples" / "mcp" / "py-sdk-server-crash"

HEALTHY = """\
try:
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

mcp = Server("notes")


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b


if __name__ == "__main__":
    mcp.run()
"""


def project(tmp_path: Path, server_code: str | None = None) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLE, proj)
    config = {"mcpServers": {"notes": {"command": sys.executable, "args": ["crash_server.py"]}}}
    (proj / ".mcp.json").write_text(json.dumps(config, indent=2) + "\n")
    if server_code is not None:
        (proj / "crash_server.py").write_text(server_code)
    return proj


def mcp_record(proj: Path) -> FailureRecord:
    output = (SAMPLE / "output.txt").read_text()
    recs = classify_text(output, Options(cwd=str(proj)))
    [rec] = [r for r in recs if r.failure_type == "mcp_startup"]
    return rec


@pytest.mark.real_tool
def test_a_server_that_answers_on_the_retry_is_recovered(tmp_path):
    proj = project(tmp_path, HEALTHY)
    rec = mcp_record(proj)
    assert (rec.source_file, rec.source_line, rec.hint["server"]) == (".mcp.json", 3, "notes")
    before = (proj / ".mcp.json").read_bytes()
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Plan)
    assert p.on_failure == "skipped" and p.verify_by == "check"
    assert f"Command (from .mcp.json): {sys.executable} crash_server.py" in p.details
    out = attempt(rec, ws_of(proj))
    assert out.result == "recovered", out.reason
    assert "completed initialize" in out.reason
    assert (proj / ".mcp.json").read_bytes() == before


@pytest.mark.real_tool
def test_a_server_that_still_crashes_is_skipped_with_a_warning_at_its_entry(tmp_path):
    proj = project(tmp_path)
    rec = mcp_record(proj)
    before = (proj / ".mcp.json").read_bytes()
    out = attempt(rec, ws_of(proj))
    assert out.result == "skipped", out.reason
    assert "retried once" in out.reason
    assert "KeyError: 'NOTES_DB'" in out.reason  # the server's own stderr
    assert "fix its entry at .mcp.json:3:5" in out.reason
    assert "did not disable or change it" in out.reason
    assert (proj / ".mcp.json").read_bytes() == before
    events = (proj.parent / "state" / "events.jsonl").read_text().splitlines()
    assert json.loads(events[-1])["event"] == "recovery.skipped"


def test_the_command_comes_from_the_config_never_from_the_output(tmp_path):
    proj = project(tmp_path, HEALTHY)
    rec = mcp_record(proj)
    rec.hint["command"] = ["touch", str(tmp_path / "pwned")]  # what output could claim
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Plan)
    assert not any("touch" in d for d in p.details)


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ({"command": "-c", "args": []}, "starts with '-'"),
        ({"command": "node\x00x"}, "control character"),
        ({"command": "node", "args": ["a\nb"]}, "control character"),
        ({"command": "node", "args": "x.js"}, "not a list"),
        ({"command": "node", "env": {"A B": "1"}}, "not a variable name"),
        ({"command": "node", "args": ["${input:token}"]}, "only a human"),
        ({"command": "node", "args": ["${FAULTLENS_UNSET_VAR_X}"]}, "is not set"),
        ({"url": "http://127.0.0.1:9/mcp"}, "remote"),
        ({"args": ["x"]}, "not a string"),
    ],
)
def test_unusable_entries_are_refused(entry, why):
    text = json.dumps({"mcpServers": {"s": entry}})
    with pytest.raises(BadEntry, match=why):
        load_spec(text, "s", {}, Path("/p"))


def test_variables_in_the_entry_are_expanded_from_the_environment():
    text = json.dumps(
        {
            "servers": {
                "s": {
                    "command": "${HOMEDIR}/bin/srv",
                    "args": ["--root", "${workspaceFolder}", "${env:MODE}", "${LEVEL:-info}"],
                    "env": {"TOKEN": "${TOKEN}"},
                }
            }
        }
    )
    spec = load_spec(text, "s", {"HOMEDIR": "/h", "MODE": "m", "TOKEN": "t"}, Path("/p"))
    assert spec.command == "/h/bin/srv"
    assert spec.args == ["--root", "/p", "m", "info"]
    assert spec.env == {"TOKEN": "t"}


def test_an_unknown_server_is_skipped_not_escalated(tmp_path):
    proj = project(tmp_path)
    rec = mcp_record(proj)
    rec.hint["server"] = "elsewhere"
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Refusal) and p.result == "skipped"
    out = attempt(rec, ws_of(proj))
    assert out.result == "skipped"


@pytest.mark.real_tool
@pytest.mark.slow
def test_faultlens_run_recover_skips_a_crashing_server_and_reports_its_entry(tmp_path):
    proj = project(tmp_path)
    res = faultlens_run_recover([sys.executable, "client.py", "notes", "20"], proj, timeout=300)
    # one record: the server's own KeyError is its cause, not a failure of its own
    assert re.search(r"^skipped +mcp_startup  \.mcp\.json:3 ", res.stderr, re.M), res.stderr
    assert "faultlens: 1 mcp_startup failure:" in res.stderr
    assert "fix its entry at .mcp.json:3:5" in res.stderr
    assert json.loads((proj / ".mcp.json").read_text())["mcpServers"]["notes"] == {
        "command": sys.executable,
        "args": ["crash_server.py"],
    }
