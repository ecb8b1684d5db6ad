"""`faultlens serve --tcp`: a connected client can run commands, so the TCP
server takes one client, which must send the server's token in
`initializationOptions.token` first, and it listens on loopback addresses only
unless `--allow-remote` is given (with a warning).  Raw sockets and hand-made
frames, so that a test can be the client that no editor would be.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FAULTLENS = [sys.executable, "-m", "faultlens.cli", "serve"]


def frame(obj: Any) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def init(rid: int, root: Path, options: Any = None) -> dict[str, Any]:
    params: dict[str, Any] = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    if options is not None:
        params["initializationOptions"] = options
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize", "params": params}


# One buffered reader per socket: a reader made per message drops what it
# read ahead (two messages in one segment, as a busy machine sends them).
_READERS: weakref.WeakKeyDictionary[socket.socket, Any] = weakref.WeakKeyDictionary()


def read_msg(sock: socket.socket, timeout: float = 30) -> dict[str, Any] | None:
    """The next message, or None when the server closed the connection."""
    sock.settimeout(timeout)
    f = _READERS.get(sock)
    if f is None:
        f = _READERS[sock] = sock.makefile("rb")
    length = None
    while True:
        try:
            line = f.readline()
        except ConnectionResetError:  # closed with our data unread
            return None
        if not line:
            return None
        if not line.strip():
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    assert length is not None
    return dict(json.loads(f.read(length)))


def response(sock: socket.socket, rid: Any) -> dict[str, Any] | None:
    while (msg := read_msg(sock)) is not None:
        if msg.get("id") == rid and "method" not in msg:
            return msg
    return None


class Server:
    def __init__(self, *args: str, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [*FAULTLENS, *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._err: str | None = None
        assert self.proc.stdout is not None
        self.line = self.proc.stdout.readline().decode()
        m = re.search(r"listening on [^ ]+:(\d+), one client; (?:token in |token (\S+))", self.line)
        assert m, self.line + self.stderr()
        self.port = int(m.group(1))
        self.token = m.group(2)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=30)

    def stderr(self) -> str:
        """What it logged, once it has exited."""
        if self.proc.poll() is None:
            return ""
        if self._err is None:
            assert self.proc.stderr is not None
            self._err = self.proc.stderr.read().decode(errors="replace")
        return self._err

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server("--tcp", "127.0.0.1:0", "--log-level", "DEBUG", cwd=tmp_path)
    yield s
    s.stop()


@pytest.mark.parametrize(
    "first",
    [
        "no token",
        "wrong token",
        "token of the wrong type",
        "not initialize",
    ],
)
def test_a_client_without_the_token_is_refused_and_the_next_one_served(server, tmp_path, first):
    bad = {
        "no token": init(1, tmp_path),
        "wrong token": init(1, tmp_path, {"token": "x" * 43}),
        "token of the wrong type": init(1, tmp_path, {"token": ["a"]}),
        "not initialize": {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "workspace/executeCommand",
            "params": {"command": "faultlens.run", "arguments": [{"command": ["touch", "pwned"]}]},
        },
    }[first]
    with server.connect() as sock:
        sock.sendall(frame(bad))
        answer = response(sock, 1)
        assert answer is not None and answer["error"]["code"] == -32600, answer
        assert "unauthorized" in answer["error"]["message"]
        assert read_msg(sock) is None  # closed
    assert not (tmp_path / "pwned").exists()
    with server.connect() as sock:  # the refused client took no slot
        sock.sendall(frame(init(2, tmp_path, {"token": server.token})))
        answer = response(sock, 2)
        assert answer is not None and answer["result"]["serverInfo"]["name"] == "faultlens"


def test_one_client_at_a_time_and_the_server_ends_with_its_session(server, tmp_path):
    with server.connect() as sock:
        sock.sendall(frame(init(1, tmp_path, {"faultlens": {"token": server.token}})))
        assert "result" in (response(sock, 1) or {})
        sock.sendall(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        with server.connect() as second:  # a second client while the first is connected
            second.sendall(frame(init(7, tmp_path, {"token": server.token})))
            assert read_msg(second, timeout=10) is None
        sock.sendall(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        assert "result" in (response(sock, 2) or {})
        sock.sendall(frame({"jsonrpc": "2.0", "method": "exit"}))
    assert server.proc.wait(30) == 0
    assert server.token not in server.stderr()  # not logged, even at DEBUG


def test_a_client_that_says_nothing_is_dropped_and_does_not_block_the_next(server, tmp_path):
    with server.connect() as silent:
        time.sleep(0.5)
        with server.connect() as second:
            assert read_msg(second, timeout=10) is None  # the silent one holds the slot
        dropped = read_msg(silent, timeout=30)  # until it is dropped (10 s)
        assert dropped is not None and "no initialize within" in dropped["error"]["message"]
        assert read_msg(silent, timeout=10) is None
    with server.connect() as sock:
        sock.sendall(frame(init(1, tmp_path, {"token": server.token})))
        assert "result" in (response(sock, 1) or {})


def _serve(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FAULTLENS, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1"])
def test_a_non_loopback_address_needs_allow_remote(tmp_path, host):
    done = _serve("--tcp", f"[{host}]:0", cwd=tmp_path)
    assert done.returncode == 2 and "--allow-remote" in done.stderr, done.stderr
    assert done.stdout == ""


def test_allow_remote_listens_with_a_loud_warning(tmp_path):
    s = Server("--tcp", "0.0.0.0:0", "--allow-remote", cwd=tmp_path)
    try:
        assert s.port > 0
    finally:
        s.stop()
    assert "WARNING" in s.stderr() and "non-loopback" in s.stderr()


def test_a_token_file_is_used_when_only_its_owner_can_read_it(tmp_path):
    token_file = tmp_path / "token"
    s = Server("--tcp", "127.0.0.1:0", "--token-file", str(token_file), cwd=tmp_path)
    try:
        assert f"token in {token_file}" in s.line and s.token is None
        assert token_file.stat().st_mode & 0o777 == 0o600  # created with a new token
        token = token_file.read_text().strip()
        assert len(token) >= 32 and token not in s.line
        with s.connect() as sock:
            sock.sendall(frame(init(1, tmp_path, {"token": token})))
            assert "result" in (response(sock, 1) or {})
    finally:
        s.stop()


@pytest.mark.parametrize(
    ("mode", "content"), [(0o644, "t" * 40), (0o600, "short"), (0o620, "t" * 40)]
)
def test_a_token_file_others_can_read_or_a_weak_token_is_refused(tmp_path, mode, content):
    token_file = tmp_path / "token"
    token_file.write_text(content)
    os.chmod(token_file, mode)
    done = _serve("--tcp", "127.0.0.1:0", "--token-file", str(token_file), cwd=tmp_path)
    assert done.returncode == 2 and "--token-file" in done.stderr, done.stderr


def test_a_token_file_that_is_a_symlink_or_a_fifo_is_refused(tmp_path):
    real = tmp_path / "real"
    real.write_text("t" * 40)
    os.chmod(real, 0o600)
    link = tmp_path / "link"
    link.symlink_to(real)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o600)
    for path in (link, fifo):
        done = _serve("--tcp", "127.0.0.1:0", "--token-file", str(path), cwd=tmp_path)
        assert done.returncode == 2 and "--token-file" in done.stderr, done.stderr


def _session(server: Server, root: Path, initialize: dict[str, Any], *, shutdown: bool) -> int:
    """initialize, initialized, [shutdown,] exit over TCP: the exit status."""
    with server.connect() as sock:
        sock.sendall(frame(initialize))
        assert response(sock, 1) is not None
        sock.sendall(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        if shutdown:
            sock.sendall(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
            assert "result" in (response(sock, 2) or {})
        sock.sendall(frame({"jsonrpc": "2.0", "method": "exit"}))
        return server.proc.wait(30)


def test_shutdown_and_exit_end_the_tcp_server_quietly_with_status_0(server, tmp_path):
    """Issue 27, item 16: pygls' `exit` handler calls sys.exit inside asyncio's
    connection callback, which logged `SystemExit: 0` with its traceback."""
    assert (
        _session(server, tmp_path, init(1, tmp_path, {"token": server.token}), shutdown=True) == 0
    )
    assert "Traceback" not in server.stderr() and "SystemExit" not in server.stderr()


def test_exit_without_shutdown_ends_the_tcp_server_with_status_1(server, tmp_path):
    assert (
        _session(server, tmp_path, init(1, tmp_path, {"token": server.token}), shutdown=False) == 1
    )
    assert "Traceback" not in server.stderr()


def test_a_failed_initialize_then_initialized_is_a_few_lines_not_a_traceback(server, tmp_path):
    """Issue 27, items 11 and 16 over TCP: a wrong-typed capability gets the
    error as the initialize answer, naming where; the `initialized` after it
    and the exit log no traceback (pygls logged pages of cattrs' one)."""
    bad = init(1, tmp_path, {"token": server.token})
    bad["params"]["capabilities"] = {"textDocument": {"hover": True}}
    with server.connect() as sock:
        sock.sendall(frame(bad))
        answer = response(sock, 1) or {}
        assert answer["error"]["code"] == -32602, answer
        assert "capabilities.text_document.hover" in answer["error"]["message"]
        sock.sendall(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        sock.sendall(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        assert "result" in (response(sock, 2) or {})
        sock.sendall(frame({"jsonrpc": "2.0", "method": "exit"}))
    assert server.proc.wait(30) == 0
    err = server.stderr()
    assert "Traceback" not in err and "AttributeError" not in err, err
    loud = [line for line in err.splitlines() if " WARNING " in line or " ERROR " in line]
    assert len(loud) <= 2, loud
