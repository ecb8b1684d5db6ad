"""A bare line client for `faultlens mcp` over stdio (MCP's framing: one JSON
message a line), so tests can send what the SDK's client never would:
broken JSON, wrong-typed ids and methods, random bytes."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "faultlens.cli", "mcp", "--agent", "raw-test"]
PROTOCOL = "2025-06-18"


class RawMCP:
    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [*SERVER, "--cwd", str(cwd)],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.err: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_err, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def _drain_err(self) -> None:
        assert self.proc.stderr is not None
        for chunk in self.proc.stderr:
            self.err.append(chunk)

    def send_line(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data if data.endswith(b"\n") else data + b"\n")
        self.proc.stdin.flush()

    def send(self, obj: Any) -> None:
        self.send_line(json.dumps(obj).encode())

    def next(self, timeout: float = 30) -> dict[str, Any] | None:
        """The next message the server wrote, or None when none came in time."""
        try:
            return dict(json.loads(self.lines.get(timeout=timeout)))
        except queue.Empty:
            return None

    def answer(self, rid: Any, timeout: float = 60) -> dict[str, Any]:
        """The answer to request `rid` (messages before it are skipped)."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            msg = self.next(left)
            if msg is not None and msg.get("id") == rid and "method" not in msg:
                return msg
        raise AssertionError(f"no answer to {rid!r} in {timeout} s; stderr: {self.stderr()}")

    def request(self, rid: Any, method: str, params: Any = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.answer(rid)

    def initialize(self) -> dict[str, Any]:
        info = {"name": "raw", "version": "1"}
        res = self.request(
            0,
            "initialize",
            {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": info},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return res

    def stderr(self) -> str:
        return b"".join(self.err).decode(errors="replace")

    def close(self, timeout: float = 30) -> int:
        """Close stdin (the client's end) and wait for the server to exit."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            raise
