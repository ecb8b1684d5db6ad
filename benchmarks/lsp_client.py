"""A small raw LSP client over stdio, for timing language servers.

No LSP library on purpose: the timings must not include a client framework's
work.  A reader thread parses the server's messages as they arrive and stamps
each with `time.perf_counter()`; requests from the server are answered with
an empty result (an editor that supports nothing optional).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any


@dataclass(slots=True)
class Message:
    at: float  # perf_counter() when the whole message had arrived
    body: dict[str, Any]


@dataclass
class LspClient:
    """Start a server (argv) and talk to it."""

    argv: Sequence[str]
    cwd: str | None = None
    env: dict[str, str] | None = None
    proc: subprocess.Popen[bytes] = field(init=False)
    notifications: list[Message] = field(default_factory=list)
    _responses: dict[int, Message] = field(default_factory=dict)
    _cond: threading.Condition = field(default_factory=threading.Condition)
    _next_id: int = 0
    _write_lock: threading.Lock = field(default_factory=threading.Lock)
    started: float = 0.0
    rusage: Any = None

    def __post_init__(self) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            list(self.argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=self.cwd,
            env=self.env,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- wire ------------------------------------------------------------------------
    @staticmethod
    def encode(body: dict[str, Any]) -> bytes:
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return b"Content-Length: %d\r\n\r\n" % len(data) + data

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def _read(self) -> None:
        out: IO[bytes] | None = self.proc.stdout
        assert out is not None
        while True:
            length = -1
            while True:
                header = out.readline()
                if not header:
                    with self._cond:
                        self._cond.notify_all()
                    return
                header = header.strip()
                if not header:
                    break
                name, _, value = header.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = json.loads(out.read(length))
            msg = Message(time.perf_counter(), body)
            if "id" in body and "method" in body:  # a request from the server
                result: Any = None
                if body["method"] == "workspace/configuration":
                    result = [None] * len(body.get("params", {}).get("items", []))
                self.send_raw(self.encode({"jsonrpc": "2.0", "id": body["id"], "result": result}))
                continue
            with self._cond:
                if "id" in body:
                    self._responses[body["id"]] = msg
                else:
                    self.notifications.append(msg)
                self._cond.notify_all()

    # -- API ---------------------------------------------------------------------------
    def request_bytes(self, method: str, params: Any) -> tuple[int, bytes]:
        self._next_id += 1
        rid = self._next_id
        return rid, self.encode({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})

    def wait_response(self, rid: int, timeout: float = 60.0) -> Message:
        deadline = time.perf_counter() + timeout
        with self._cond:
            while rid not in self._responses:
                left = deadline - time.perf_counter()
                if left <= 0 or self.proc.poll() is not None:
                    raise TimeoutError(f"no response to request {rid}")
                self._cond.wait(left)
            return self._responses.pop(rid)

    def request(self, method: str, params: Any, timeout: float = 60.0) -> tuple[float, Message]:
        """Send a request; (seconds until its response, the response)."""
        rid, data = self.request_bytes(method, params)
        t0 = time.perf_counter()
        self.send_raw(data)
        msg = self.wait_response(rid, timeout)
        return msg.at - t0, msg

    def notify(self, method: str, params: Any) -> None:
        self.send_raw(self.encode({"jsonrpc": "2.0", "method": method, "params": params}))

    def wait_for(
        self, pred: Callable[[Message], bool], after: int = 0, timeout: float = 60.0
    ) -> Message:
        """The first notification (from index `after`) matching pred."""
        deadline = time.perf_counter() + timeout
        with self._cond:
            i = after
            while True:
                while i < len(self.notifications):
                    if pred(self.notifications[i]):
                        return self.notifications[i]
                    i += 1
                left = deadline - time.perf_counter()
                if left <= 0 or self.proc.poll() is not None:
                    raise TimeoutError("notification not received")
                self._cond.wait(left)

    def wait_quiet(self, method: str, after: int, quiet: float, timeout: float = 60.0) -> float:
        """Wait until no `method` notification came for `quiet` seconds after
        the first one; return the arrival time of the last one."""
        self.wait_for(lambda m: m.body.get("method") == method, after, timeout)
        while True:
            with self._cond:
                n = len(self.notifications)
            time.sleep(quiet)
            with self._cond:
                if len(self.notifications) == n:
                    last = [
                        m.at for m in self.notifications[after:] if m.body.get("method") == method
                    ]
                    return last[-1]

    def initialize(self, root: Path, options: Any = None) -> float:
        """initialize + initialized; seconds from process start to the response."""
        _, msg = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {
                    "textDocument": {
                        "publishDiagnostics": {"relatedInformation": True},
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "codeAction": {},
                    },
                    "general": {"positionEncodings": ["utf-16"]},
                },
                "initializationOptions": options,
            },
        )
        self.notify("initialized", {})
        return msg.at - self.started

    def close(self) -> None:
        """shutdown + exit, then reap (keeping the server's rusage)."""
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
        except (TimeoutError, BrokenPipeError, OSError):
            pass
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass
        deadline = time.perf_counter() + 10
        while self.proc.returncode is None and time.perf_counter() < deadline:
            try:
                pid, status, ru = os.wait4(self.proc.pid, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                self.rusage = ru
                self.proc.returncode = os.waitstatus_to_exitcode(status)
            else:
                time.sleep(0.02)
        if self.proc.returncode is None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
