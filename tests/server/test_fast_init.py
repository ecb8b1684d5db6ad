"""The early `initialize` answer (server/fast_init.py): the same answer the full
server gives, for every kind of client, and nothing else changes."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from faultlens.server import fast_init
from faultlens.server.fast_init import Prefixed, answer, load_snapshot, read_message

from ..security.lsp_raw import RawClient


def frame(obj: Any) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def init_msg(params: dict[str, Any], rid: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize", "params": params}


def base_params(root: Path, **extra: Any) -> dict[str, Any]:
    return {
        "processId": os.getpid(),
        "rootUri": root.as_uri(),
        "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}],
        "capabilities": {},
        **extra,
    }


CLIENTS: dict[str, dict[str, Any]] = {
    "bare": {"capabilities": {}},
    "neovim-like": {
        "capabilities": {
            "general": {"positionEncodings": ["utf-8", "utf-16", "utf-32"]},
            "textDocument": {
                "publishDiagnostics": {"relatedInformation": True},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "codeAction": {"resolveSupport": {"properties": ["edit"]}},
                "diagnostic": {"dynamicRegistration": False},
            },
            "workspace": {"applyEdit": True, "configuration": True, "workspaceFolders": True},
            "window": {"workDoneProgress": True},
        },
        "clientInfo": {"name": "Neovim", "version": "0.12.0"},
        "trace": "off",
    },
    "utf-32 first": {"capabilities": {"general": {"positionEncodings": ["utf-32", "utf-16"]}}},
    "unknown encodings": {"capabilities": {"general": {"positionEncodings": ["ebcdic"]}}},
    "pull wanted, can pull": {
        "capabilities": {"textDocument": {"diagnostic": {}}},
        "initializationOptions": {"diagnosticMode": "pull"},
    },
    "pull wanted under faultlens": {
        "capabilities": {"textDocument": {"diagnostic": {}}},
        "initializationOptions": {"faultlens": {"diagnosticMode": "pull"}},
    },
    "pull wanted, cannot pull": {
        "capabilities": {"textDocument": {"hover": {}}},
        "initializationOptions": {"diagnosticMode": "pull"},
    },
    "bad settings": {
        "capabilities": {"textDocument": {"diagnostic": {}}},
        "initializationOptions": {"diagnosticMode": 5, "maxTaskRetries": "x"},
    },
    "options not an object": {"capabilities": {}, "initializationOptions": [1, 2]},
    "experimental": {"capabilities": {"experimental": {"anything": [1, "two"]}}},
    "declares will-save": {
        "capabilities": {"textDocument": {"synchronization": {"willSave": True}}}
    },
    "declares no will-save": {
        "capabilities": {"textDocument": {"synchronization": {"willSaveWaitUntil": False}}}
    },
}
# Real editors' capabilities, captured (tests/server/clients/README.md says how).
CLIENTS.update(
    {
        f"captured {path.stem}": {"capabilities": json.loads(path.read_text())}
        for path in sorted((Path(__file__).parent / "clients").glob("*.json"))
    }
)


def _initialize(root: Path, params: dict[str, Any], fast: bool) -> tuple[dict[str, Any], str]:
    env = {**os.environ, fast_init.DISABLE_ENV: "1" if fast else "0"}
    c = RawClient(root, env=env)
    try:
        res = c.request("initialize", {**base_params(root), **params})
        c.notify("initialized", {})
        assert c.request("faultlens/failures", {})["result"] == {"failures": []}  # serving normally
        answers = [m for m in c.all if m.get("id") == 1 and "method" not in m]
    finally:
        c.close()
    assert len(answers) == 1  # the full server's own answer was not sent again
    return res, b"".join(c.stderr).decode("utf-8", "replace")


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_early_answer_is_the_full_servers_answer(tmp_path: Path, client: str) -> None:
    params = CLIENTS[client]
    early, log = _initialize(tmp_path, params, fast=True)
    full, _ = _initialize(tmp_path, params, fast=False)
    assert early == full
    assert "differs" not in log


def test_the_snapshot_is_current() -> None:
    """`python -m faultlens.server.fast_init` rewrites it after a capability change."""
    committed = json.loads(fast_init.SNAPSHOT.read_text())
    assert committed == fast_init.take_snapshot()
    assert load_snapshot() is not None  # taken with the installed pygls and lsprotocol


def test_messages_sent_before_the_server_has_loaded_are_all_answered(tmp_path: Path) -> None:
    c = RawClient(tmp_path)
    try:
        c.send(init_msg(base_params(tmp_path)))
        c.notify("initialized", {})
        ids = [
            c.request_raw({"jsonrpc": "2.0", "id": 10 + i, "method": "faultlens/failures"})
            for i in range(5)
        ]
        assert c.wait(1)["result"]["serverInfo"]["name"] == "faultlens"
        assert all(c.wait(i)["result"] == {"failures": []} for i in ids)
    finally:
        assert c.close() == 0


def test_a_first_message_other_than_initialize_goes_to_the_full_server(tmp_path: Path) -> None:
    c = RawClient(tmp_path)
    try:
        res = c.request("faultlens/failures", {})
        assert "error" in res or res.get("result") == {"failures": []}
        assert c.request("initialize", base_params(tmp_path))["result"]["capabilities"]
    finally:
        c.close()


def test_a_broken_first_frame_is_handled_as_before(tmp_path: Path) -> None:
    c = RawClient(tmp_path)
    try:
        c.send_bytes(b"{not json", header=b"Content-Length: 9\r\n\r\n")
        res = c.request("initialize", base_params(tmp_path))
        assert res["result"]["capabilities"]["hoverProvider"]
    finally:
        c.close()


# -- pure parts ----------------------------------------------------------------------
SNAP = {
    "versions": None,
    "results": {
        "push": {"capabilities": {"hoverProvider": True}, "serverInfo": {"name": "faultlens"}},
        "pull": {"capabilities": {"diagnosticProvider": {}}, "serverInfo": {"name": "faultlens"}},
    },
}


def test_read_message_reads_exactly_one_frame() -> None:
    data = frame(init_msg({"capabilities": {}})) + frame({"jsonrpc": "2.0", "method": "x"})
    stream = io.BytesIO(data)
    raw, msg = read_message(stream)
    assert msg is not None and msg["method"] == "initialize"
    assert raw + stream.read() == data


@pytest.mark.parametrize(
    "data",
    [
        b"Content-Length: 10\r\n\r\n{}",  # the stream ends early
        b"Content-Length: 5\r\n\r\n[1,2]",  # not an object
        b"x" * 5000,  # no header at all
        b"junk Content-Length: 2\r\n\r\n{}",  # the full server reports the junk first
        b"Content-Length: 100000\r\n\r\n" + b"[" * 100000,  # too deep: Parse error there
        b"Content-Length: 2\r\n\r\n\xff\xfe",  # not UTF-8
        b"",
    ],
)
def test_a_frame_the_server_would_not_take_as_it_is_is_not_parsed(data: bytes) -> None:
    stream = io.BytesIO(data)
    raw, msg = read_message(stream)
    assert msg is None
    assert raw + stream.read() == data  # nothing lost: it all goes to the full server


@pytest.mark.parametrize(
    "header", [b"content-length: 2", b"CONTENT-LENGTH:2", b"Content-Length:   2  "]
)
def test_header_names_are_read_in_any_case_as_the_full_server_reads_them(header: bytes) -> None:
    _, msg = read_message(io.BytesIO(header + b"\r\n\r\n{}"))
    assert msg == {}


def test_prefixed_reads_lines_up_to_a_size_across_the_prefix() -> None:
    p = Prefixed(b"abc", io.BytesIO(b"defgh\nrest\n"))
    assert p.readline(2) == b"ab"
    assert p.readline(4) == b"cdef"
    assert p.readline(-1) == b"gh\n"
    assert p.readline(100) == b"rest\n"


def test_prefixed_gives_back_what_was_read_then_the_stream() -> None:
    p = Prefixed(b"Content-Length: 2\r\n\r\n{", io.BytesIO(b"}\r\nrest"))
    assert p.readline() == b"Content-Length: 2\r\n"
    assert p.readline() == b"\r\n"
    assert p.read(2) == b"{}"
    assert p.readline() == b"\r\n"
    assert p.read(-1) == b"rest"


@pytest.mark.parametrize(
    "msg",
    [
        {"jsonrpc": "2.0", "id": 1, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "initialize", "params": {"capabilities": {}}},  # no id
        {"jsonrpc": "2.0", "id": True, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "1.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        init_msg({"capabilities": {"textDocument": {"hover": 5}}}),
        init_msg({"capabilities": {"general": {"positionEncodings": "utf-8"}}}),
        init_msg({"capabilities": {}, "processId": "12"}),
        init_msg({"capabilities": {}, "workspaceFolders": [{"uri": 1}]}),
        init_msg({"capabilities": {}, "trace": "loud"}),
        init_msg({"capabilities": []}),
        init_msg({}),
    ],
)
def test_anything_but_a_plain_initialize_is_left_to_the_full_server(msg: dict[str, Any]) -> None:
    assert answer(msg, SNAP) is None


def test_the_answer_takes_the_clients_encoding_and_diagnostic_mode() -> None:
    msg = init_msg(
        {
            "capabilities": {
                "general": {"positionEncodings": ["utf-32"]},
                "textDocument": {"diagnostic": {}},
            },
            "initializationOptions": {"faultlens": {"diagnosticMode": "pull"}},
        },
        rid="a",
    )
    got = answer(msg, SNAP)
    assert got == {
        "jsonrpc": "2.0",
        "id": "a",
        "result": {
            "capabilities": {"diagnosticProvider": {}, "positionEncoding": "utf-32"},
            "serverInfo": {"name": "faultlens"},
        },
    }
    assert "positionEncoding" not in SNAP["results"]["pull"]["capabilities"]  # not mutated


def test_a_snapshot_of_other_pygls_versions_is_not_used(tmp_path: Path) -> None:
    snap = json.loads(fast_init.SNAPSHOT.read_text())
    snap["versions"]["pygls"] = "1.0.0"
    path = tmp_path / "capabilities.json"
    path.write_text(json.dumps(snap))
    assert load_snapshot(path) is None
    assert load_snapshot(tmp_path / "missing.json") is None
