"""A bare JSON-RPC client for `faultlens serve` over stdio: hand-made frames,
so tests can send what no LSP library would (broken JSON, wrong types,
huge bodies).  Requests from the server to the client get plain answers."""

from __future__ import annotations

import itertools
import json
import queue
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "faultlens.cli", "serve", "--stdio"]


def _limit_memory(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


class RawClient:
    def __init__(
        self,
        cwd: Path,
        env: dict[str, str] | None = None,
        *,
        memory_limit: int | None = None,
        argv: list[str] | None = None,
    ) -> None:
        """`memory_limit`: the server's address space in bytes (a test that
        could make it read without bound keeps the machine safe)."""
        self.proc = subprocess.Popen(
            argv or SERVER,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            preexec_fn=_limit_memory(memory_limit) if memory_limit else None,
        )
        self.root = cwd
        self.ids = itertools.count(1)
        self.responses: dict[str, dict[str, Any]] = {}  # by the id's JSON
        self.notifications: queue.Queue[dict[str, Any]] = queue.Queue()
        self.all: list[dict[str, Any]] = []
        self.cv = threading.Condition()
        self.lock = threading.Lock()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_err, daemon=True).start()

    # -- framing ---------------------------------------------------------------
    def send_bytes(self, body: bytes, header: bytes | None = None) -> None:
        assert self.proc.stdin is not None
        head = header if header is not None else b"Content-Length: %d\r\n\r\n" % len(body)
        with self.lock:
            self.proc.stdin.write(head + body)
            self.proc.stdin.flush()

    def send(self, obj: Any) -> None:
        self.send_bytes(json.dumps(obj).encode())

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            msg = json.loads(out.read(length))
            self._dispatch(msg)

    def _drain_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line)

    def _dispatch(self, msg: dict[str, Any]) -> None:
        with self.cv:
            self.all.append(msg)
        if "method" in msg and "id" in msg:  # a request from the server
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": self._answer(msg)})
        elif "method" in msg:
            self.notifications.put(msg)
        else:
            with self.cv:
                self.responses[json.dumps(msg.get("id"))] = msg
                self.cv.notify_all()

    @staticmethod
    def _answer(msg: dict[str, Any]) -> Any:
        if msg["method"] == "workspace/configuration":
            return [{} for _ in msg.get("params", {}).get("items", [])]
        if msg["method"] == "workspace/applyEdit":
            return {"applied": False, "failureReason": "test client"}
        return None

    # -- requests ---------------------------------------------------------------
    def request_raw(self, body: dict[str, Any]) -> Any:
        self.send(body)
        return body["id"]

    def wait(self, msg_id: Any, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        key = json.dumps(msg_id)
        with self.cv:
            while key not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise TimeoutError(
                        f"no response to {msg_id!r}; stderr: "
                        + b"".join(self.stderr[-20:]).decode("utf-8", "replace")
                    )
                self.cv.wait(min(left, 0.2))
            return self.responses.pop(key)

    def request(self, method: str, params: Any, timeout: float = 30.0) -> dict[str, Any]:
        msg_id = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return self.wait(msg_id, timeout)

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        if capabilities is None:
            capabilities = {"workspace": {"applyEdit": False, "configuration": True}}
        res = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": self.root.as_uri(),
                "workspaceFolders": [{"uri": self.root.as_uri(), "name": "ws"}],
                "capabilities": capabilities,
            },
        )
        self.notify("initialized", {})
        return res

    def diagnostics_for(self, uri: str, timeout: float = 30.0) -> list[dict[str, Any]]:
        """The next non-empty publishDiagnostics for `uri`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.notifications.get(timeout=0.2)
            except queue.Empty:
                continue
            if msg["method"] == "textDocument/publishDiagnostics":
                p = msg["params"]
                if p["uri"] == uri and p["diagnostics"]:
                    return list(p["diagnostics"])
        raise TimeoutError(f"no diagnostics for {uri}")

    def close(self) -> int:
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
            return self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            return self.proc.wait(timeout=10)
