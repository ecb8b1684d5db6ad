"""MCP `run` never leaves its command running (issue 27, items 2 and 8).

The command (a script that starts a child of its own, writes both pids and
sleeps) must be stopped, with its whole process group, when the call's
timeout passes (the answer then says so), when the client cancels the call
(`notifications/cancelled`), when the client closes the server's stdin, when
the server gets SIGTERM, and, after a kill -9 of the server, at the server's
next start.  The server is spoken to in raw JSON-RPC over its pipes, so its
own pid is known.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from faultlens.recipes import proctree

SLEEPER = (
    "import os, subprocess, sys, time\n"
    "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
    "with open(sys.argv[1] + '.tmp', 'w') as f: f.write(f'{os.getpid()} {c.pid}')\n"
    "os.replace(sys.argv[1] + '.tmp', sys.argv[1])\n"
    "print('started', flush=True)\n"
    "time.sleep(600)\n"
)


class Server:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "faultlens.cli", "mcp", "--cwd", str(root)],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.next_id = 0

    def send(self, obj: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(obj).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def answer(self, rid: int) -> dict[str, Any]:
        assert self.proc.stdout is not None
        while True:  # a server that never answers fails the test instead of hanging it
            ready, _, _ = select.select([self.proc.stdout], [], [], 300)
            assert ready, "the server did not answer"
            line = self.proc.stdout.readline()
            assert line, "the server closed its output"
            msg = json.loads(line)
            if msg.get("id") == rid:
                return dict(msg)

    def initialize(self) -> None:
        rid = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "probe", "version": "1"},
            },
        )
        assert "result" in self.answer(rid)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def run(self, pids: Path, **extra: Any) -> int:
        cmd = [sys.executable, "-c", SLEEPER, str(pids)]
        return self.request("tools/call", {"name": "run", "arguments": {"command": cmd, **extra}})

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=60)
        for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if s is not None:
                s.close()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    return tmp_path


def _started(pids: Path) -> list[int]:
    for _ in range(1200):  # the command is started once its pids are written
        if pids.exists():
            return [int(p) for p in pids.read_text().split()]
        time.sleep(0.05)
    raise AssertionError("the command never started")


def _gone(pids: list[int]) -> bool:
    """Wait for the processes to end (SIGKILL is delivered at once; a busy
    machine may take its time to reap); then kill what is left, so that no
    test leaves it behind."""
    for _ in range(1200):
        if not any(proctree.exists(p) for p in pids):
            return True
        time.sleep(0.05)
    for p in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGKILL)
    return False


def test_run_stops_the_command_s_group_when_its_timeout_passes(workspace, tmp_path):
    s = Server(workspace)
    try:
        s.initialize()
        rid = s.run(tmp_path / "pids", timeout=3)
        pids = _started(tmp_path / "pids")
        got = s.answer(rid)
        assert got["result"]["structuredContent"]["timed_out"] is True
        assert "started" in got["result"]["structuredContent"]["output_tail"]
        assert _gone(pids)
    finally:
        s.close()


def test_run_stops_the_command_when_the_client_cancels_the_call(workspace, tmp_path):
    s = Server(workspace)
    try:
        s.initialize()
        rid = s.run(tmp_path / "pids")
        pids = _started(tmp_path / "pids")
        s.send(
            {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": rid, "reason": "user"},
            }
        )
        assert _gone(pids)
        ping = s.request("ping", {})
        assert "result" in s.answer(ping)  # and the server goes on serving
    finally:
        s.close()


def test_run_stops_the_command_when_the_client_closes_the_stream(workspace, tmp_path):
    s = Server(workspace)
    try:
        s.initialize()
        s.run(tmp_path / "pids")
        pids = _started(tmp_path / "pids")
        assert s.proc.stdin is not None
        s.proc.stdin.close()
        s.proc.stdin = None
        assert _gone(pids)
    finally:
        s.close()


def test_run_stops_the_command_when_the_server_is_terminated(workspace, tmp_path):
    s = Server(workspace)
    try:
        s.initialize()
        s.run(tmp_path / "pids")
        pids = _started(tmp_path / "pids")
        s.proc.send_signal(signal.SIGTERM)
        s.proc.wait(timeout=120)
        assert _gone(pids)
    finally:
        s.close()


def test_the_next_start_stops_what_a_killed_server_left_running(workspace, tmp_path):
    s = Server(workspace)
    try:
        s.initialize()
        s.run(tmp_path / "pids")
        pids = _started(tmp_path / "pids")
        s.proc.kill()
        s.proc.wait(timeout=60)
        assert all(proctree.exists(p) for p in pids)  # kill -9 leaves them: nothing ran
    finally:
        s.close()
    again = Server(workspace)
    try:
        again.initialize()
        assert _gone(pids)
        events = (workspace / ".faultlens" / "events.jsonl").read_text()
        assert "killed faultlens left running" in events
    finally:
        again.close()


def test_a_killed_faultlens_run_s_watcher_is_stopped_at_the_next_start(workspace, tmp_path):
    pids_file = tmp_path / "pids"
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "faultlens.cli",
            "run",
            "--",
            sys.executable,
            "-c",
            SLEEPER,
            str(pids_file),
        ],
        cwd=workspace,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        pids = _started(pids_file)
        run.kill()
        run.wait(timeout=60)
        assert all(proctree.exists(p) for p in pids)
    finally:
        if run.poll() is None:
            run.kill()
    subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "run", "--", sys.executable, "-c", "pass"],
        cwd=workspace,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert _gone(pids)
