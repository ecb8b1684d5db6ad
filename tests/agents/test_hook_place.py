"""The hook's workspace is the agent's project, never the payload's `cwd`
taken blindly (issue 27, items 3 and 9).

`"cwd": "/"` once made `/.faultlens/`, any folder outside a work tree got
state, and a pre-created `.faultlens.toml` there was read as the project's
configuration.  Now the workspace is `$CLAUDE_PROJECT_DIR` /
`$GEMINI_PROJECT_DIR`, else the folder the session started in, and its git
work tree; outside a work tree the hook answers but writes nothing and reads
no project config.  A payload it cannot serve (a cwd that no longer exists,
JSON nested too deeply, an exit code no process can have) gets one line on
stderr and exit 1 (2 is a blocking error to the agents), never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import payload


def _failing(cwd: str) -> dict[str, Any]:
    return payload("claude-code-PostToolUseFailure-tsc", cwd=cwd)


def _hook(agent: str, data: Any, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_PROJECT_DIR")}
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "hook", agent],
        input=data if isinstance(data, str) else json.dumps(data),
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_line_error(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 1, (res.returncode, res.stderr)
    assert res.stdout == ""
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    return res.stderr


def _listing(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_a_payload_cwd_of_the_filesystem_root_makes_no_state_there(tmp_path):
    outside = tmp_path / "not-a-work-tree"
    outside.mkdir()
    before = _listing(Path("/"))
    res = _hook("claude-code", _failing("/"), outside)
    assert res.returncode == 0, res.stderr
    assert "compile" in json.loads(res.stdout)["hookSpecificOutput"]["additionalContext"]
    assert _listing(Path("/")) == before
    assert not (outside / ".faultlens").exists()


def test_a_config_outside_any_work_tree_is_not_read(tmp_path):
    outside = tmp_path / "tmpdir"
    outside.mkdir()
    (outside / ".faultlens.toml").write_text('disable = ["*"]\n')  # would silence every rule
    res = _hook("claude-code", _failing(str(outside)), outside)
    assert res.returncode == 0, res.stderr
    assert "error TS2304" in json.loads(res.stdout)["hookSpecificOutput"]["additionalContext"]
    assert _listing(outside) == {".faultlens.toml"}


def test_the_agent_s_project_dir_is_the_workspace_whatever_the_payload_says(ts_project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for agent, var in (("claude-code", "CLAUDE_PROJECT_DIR"), ("gemini", "GEMINI_PROJECT_DIR")):
        data = _failing("/") if agent == "claude-code" else payload("gemini-AfterTool-tsc")
        data["cwd"] = "/"
        res = _hook(agent, data, elsewhere, **{var: str(ts_project)})
        assert res.returncode == 0, res.stderr
    assert (ts_project / ".faultlens" / "ledger.sqlite3").is_file()
    assert not (elsewhere / ".faultlens").exists()


def test_a_payload_whose_cwd_is_gone_exits_1_with_one_line(ts_project):
    res = _hook("claude-code", _failing(str(ts_project / "removed")), ts_project)
    assert "is not a directory" in _one_line_error(res)


def test_a_deeply_nested_payload_exits_1_with_one_line(ts_project):
    res = _hook("codex", "[" * 200_000 + "]" * 200_000, ts_project)
    assert "nested too deeply" in _one_line_error(res)


@pytest.mark.parametrize("code", [10**30, 2**40, -(2**40)])
def test_an_exit_code_no_process_can_have_exits_1_with_one_line(ts_project, code):
    data = {
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "npx tsc -p ."},
        "tool_response": {"stdout": "FAILED tests/t.py::x - assert 1", "exit_code": code},
        "cwd": str(ts_project),
    }
    assert "out of range" in _one_line_error(_hook("codex", data, ts_project))
    text = _failing(str(ts_project))
    text["error"] = "Exit code " + "9" * 5000 + "\nsrc/a.ts(1,1): error TS2304: x"
    assert "out of range" in _one_line_error(_hook("claude-code", text, ts_project))


def test_the_place_of_a_call(tmp_path):
    from faultlens.agents.hook_root import PlaceError, place

    tree = tmp_path / "tree"
    (tree / ".git").mkdir(parents=True)
    (tree / "sub").mkdir()
    loose = tmp_path / "loose"
    loose.mkdir()
    assert place("codex", str(tree / "sub"), {}, tree).cwd == tree / "sub"
    assert place("codex", "/", {}, tree).cwd == tree  # outside the workspace: ignored
    assert place("codex", None, {}, loose).opened is False
    got = place("claude-code", "/", {"CLAUDE_PROJECT_DIR": str(tree / "sub")}, loose)
    assert (got.root, got.opened) == (tree, True)
    got = place("claude-code", None, {"CLAUDE_PROJECT_DIR": "relative/dir"}, loose)
    assert got.opened is False  # only an absolute, existing folder counts
    with pytest.raises(PlaceError):
        place("codex", str(tmp_path / "gone"), {}, tree)
