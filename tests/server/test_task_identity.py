"""Which failures a run replaces: the same command in another folder is another
task, and a run that did not finish clears nothing it did not re-check.

Driven over stdio with the bare JSON-RPC client (tests/security/lsp_raw.py).
The command is one small Python script whose output depends on the folder
it runs in and on a `mode` file, so that every run has the same argv.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..security.lsp_raw import RawClient

SCRIPT = """\
import os, sys, time
here = os.path.basename(os.getcwd())
mode = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "mode")).read().strip()
if mode == "fail":
    print(f"src/{here}.ts(1,9): error TS2304: Cannot find name 'first'.", flush=True)
    sys.exit(1)
if mode == "partial":
    print(f"src/{here}.ts(2,9): error TS2304: Cannot find name 'second'.", flush=True)
    time.sleep(60)
sys.exit(0)
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for sub in ("api", "web"):
        (root / sub / "src").mkdir(parents=True)
        (root / sub / "src" / f"{sub}.ts").write_text("let a = first;\nlet b = second;\n")
    (root / "check.py").write_text(SCRIPT)
    return root


@pytest.fixture
def client(ws: Path) -> Iterator[RawClient]:
    c = RawClient(ws)
    assert "result" in c.initialize()
    yield c
    c.close()


def _run(c: RawClient, ws: Path, cwd: str, **extra: Any) -> dict[str, Any]:
    args = {"command": [sys.executable, str(ws / "check.py")], "cwd": cwd, **extra}
    res = c.request(
        "workspace/executeCommand",
        {"command": "faultlens.run", "arguments": [args]},
        timeout=60,
    )
    assert "result" in res, res
    return dict(res["result"])


def _messages(c: RawClient) -> list[str]:
    res = c.request("faultlens/failures", {})
    return sorted(
        f["record"]["message"] + " @" + Path(f["uri"]).name for f in res["result"]["failures"]
    )


def test_a_clean_run_in_one_folder_keeps_the_same_commands_failures_in_another(client, ws):
    (ws / "mode").write_text("fail")
    assert _run(client, ws, "web")["failures"] == 1
    (ws / "mode").write_text("clean")
    assert _run(client, ws, "api")["exitCode"] == 0
    assert _messages(client) == ["Cannot find name 'first'. @web.ts"]
    assert _run(client, ws, "web")["failures"] == 0  # the same folder again: cleared
    assert _messages(client) == []


def test_the_same_named_task_in_two_folders_keeps_both(client, ws):
    (ws / "mode").write_text("fail")
    _run(client, ws, "web", task="TASK-7")
    (ws / "mode").write_text("clean")
    _run(client, ws, "api", task="TASK-7")
    assert _messages(client) == ["Cannot find name 'first'. @web.ts"]


@pytest.mark.parametrize("how", ["stopTask", "cancelRequest"])
def test_a_stopped_run_adds_what_it_found_and_clears_nothing_it_did_not_recheck(client, ws, how):
    (ws / "mode").write_text("fail")
    first = _run(client, ws, "web")
    assert first["failures"] == 1
    (ws / "mode").write_text("partial")
    answer: list[dict[str, Any]] = []
    msg_id = f"partial-{how}"

    def start() -> None:
        client.send(
            {
                "jsonrpc": "2.0",
                "id": msg_id,
                "method": "workspace/executeCommand",
                "params": {
                    "command": "faultlens.run",
                    "arguments": [
                        {"command": [sys.executable, str(ws / "check.py")], "cwd": "web"}
                    ],
                },
            }
        )
        answer.append(client.wait(msg_id, timeout=60))

    t = threading.Thread(target=start)
    t.start()
    time.sleep(3)  # it has printed its one failure and sleeps
    if how == "stopTask":
        stop = client.request(
            "workspace/executeCommand",
            {"command": "faultlens.stopTask", "arguments": [{"task": "default"}]},
        )
        assert "result" in stop, stop
    else:
        client.notify("$/cancelRequest", {"id": msg_id})
    t.join(60)
    assert answer, "no answer to the stopped run"
    found = _messages(client)
    assert "Cannot find name 'first'. @web.ts" in found  # not re-checked: kept
    if how == "stopTask":  # the run ends normally, with what it read
        assert answer[0]["result"]["cancelled"] is True
        assert found == [
            "Cannot find name 'first'. @web.ts",
            "Cannot find name 'second'. @web.ts",
        ]
    else:  # the request itself is cancelled: its answer is that error, nothing is taken
        assert answer[0]["error"]["code"] == -32800


def test_a_root_that_does_not_exist_is_never_created(tmp_path):
    ghost = tmp_path / "no" / "such" / "project"
    c = RawClient(tmp_path)
    try:
        res = c.request(
            "initialize",
            {
                "processId": None,
                "rootUri": ghost.as_uri(),
                "workspaceFolders": [{"uri": ghost.as_uri(), "name": "ghost"}],
                "capabilities": {},
            },
        )
        assert "result" in res
        c.notify("initialized", {})
        out = "src/x.ts(1,9): error TS2304: Cannot find name 'y'.\n"
        c.notify("faultlens/ingest", {"output": out, "command": "tsc", "task": "T-1"})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            listed = c.request("faultlens/failures", {})["result"]["failures"]
            if listed:
                break
            time.sleep(0.2)
        assert listed and listed[0]["record"]["code"] == "TS2304"
        time.sleep(1)  # the run log and the ledger are written after publishing
        assert not (tmp_path / "no").exists()
        shown = [
            m["params"]["message"] for m in list(c.all) if m.get("method") == "window/showMessage"
        ]
        assert any("does not exist" in m for m in shown), shown
    finally:
        c.close()
    assert not (tmp_path / "no").exists()
