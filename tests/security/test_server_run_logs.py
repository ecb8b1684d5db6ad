"""The server's own files (run logs) are never written through what a checkout
can bring: a `.faultlens` linked out of the workspace, a `runs` folder linked
to another place, a run log that is a symlink to a file of the user's.

Driven over stdio (tests/security/lsp_raw.py); the command is a tiny Python
script printing one tsc error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from faultlens.server.app import run_log_name
from faultlens.server.runlog import default_key

from .lsp_raw import RawClient

SCRIPT = "print(\"src/a.ts(1,9): error TS2304: Cannot find name 'x'.\")\nraise SystemExit(2)\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.ts").write_text("let a = x;\n")
    (root / "fail.py").write_text(SCRIPT)
    return root


def _run(ws: Path) -> dict[str, Any]:
    c = RawClient(ws)
    try:
        assert "result" in c.initialize()
        argv = [sys.executable, "fail.py"]
        res = c.request(
            "workspace/executeCommand",
            {"command": "faultlens.run", "arguments": [{"command": argv}]},
            timeout=60,
        )
        assert res["result"]["failures"] == 1, res
        return dict(res["result"])
    finally:
        c.close()


def test_a_run_log_that_is_a_symlink_to_a_users_file_leaves_that_file_alone(ws, tmp_path):
    victim = tmp_path / "bashrc"
    victim.write_text("export PATH=/usr/bin\n")
    runs = ws / ".faultlens" / "runs"
    runs.mkdir(parents=True)
    key = default_key([sys.executable, "fail.py"], None)
    (runs / run_log_name(key)).symlink_to(victim)
    result = _run(ws)
    assert victim.read_text() == "export PATH=/usr/bin\n"
    log = Path(result["log"])
    assert not log.is_symlink() and "TS2304" in log.read_text()


@pytest.mark.parametrize("linked", [".faultlens", ".faultlens/runs"])
def test_a_state_folder_linked_out_of_the_workspace_is_not_written(ws, tmp_path, linked):
    outside = tmp_path / "outside"
    outside.mkdir()
    link = ws / linked
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside, target_is_directory=True)
    result = _run(ws)
    assert list(outside.iterdir()) == [], sorted(os.listdir(outside))
    assert not Path(result["log"]).resolve().is_relative_to(outside.resolve())
