"""Protocol robustness of `faultlens serve`, over raw JSON-RPC on stdio (hand-
made frames, see lsp_raw.py): malformed JSON, wrong parameter types,
unknown methods, huge messages, requests cancelled mid-flight and
notifications about documents the server never saw.  Every request gets a
response (an error where it is malformed), and after each abuse the server
still answers a hover on a real failure.

Fixture: tests/samples/typescript/tsc-plain-ts2304 (real `tsc` output,
ingested with `faultlens/ingest`).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import SAMPLES
from .lsp_raw import RawClient

SAMPLE = SAMPLES / "typescript" / "tsc-plain-ts2304"
INVALID_PARAMS = -32602
METHOD_NOT_FOUND = -32601
REQUEST_CANCELLED = -32800


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RawClient, str, Any]]:
    ws = tmp_path_factory.mktemp("proto") / "ws"
    shutil.copytree(SAMPLE, ws)
    c = RawClient(ws)
    assert "result" in c.initialize()
    c.notify("faultlens/ingest", {"output": (ws / "output.txt").read_text()})
    uri = (ws / "src" / "auth" / "middleware.ts").as_uri()
    diags = c.diagnostics_for(uri)
    yield c, uri, diags[0]["range"]["start"]
    assert c.close() == 0


def _still_serving(server: tuple[RawClient, str, Any]) -> None:
    c, uri, pos = server
    res = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
    assert "TS2304" in res["result"]["contents"]["value"]
    assert c.proc.poll() is None


@pytest.mark.parametrize(
    "body",
    [
        b'{"jsonrpc": "2.0", "id": 990, "method": "textDocument/hover", "params": {',
        b"\xff\xfe not json",
        b"42",
        b"[]",
        b"null",
        b'"a string"',
        b'{"jsonrpc": "2.0"}',
        b'{"jsonrpc": "1.0", "id": 991, "method": "shutdown"}',
        b'{"id": 992, "method": "shutdown"}',
        b'{"jsonrpc": "2.0", "id": 993, "result": {"unexpected": "response"}}',
    ],
)
def test_unreadable_messages_are_survived(server, body: bytes):
    server[0].send_bytes(body)
    _still_serving(server)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"jsonrpc": "2.0", "id": 994, "method": "textDocument/hover", "params": {', -32700),
        (b"\xff\xfe x", -32700),
        (b"[]", -32600),
        (b'"a string"', -32600),
        (b'{"id": 995, "method": "shutdown"}', -32600),
    ],
)
def test_an_unreadable_message_gets_its_json_rpc_error_and_no_pop_up(server, body, code):
    c = server[0]
    with c.cv:  # an earlier test's answer to its own unreadable message (also id null)
        c.responses.pop("null", None)
    c.send_bytes(body)
    res = c.wait(None)
    assert res["error"]["code"] == code and "id" in res and res["id"] is None
    _still_serving(server)
    shown = [m for m in list(c.all) if m.get("method") == "window/showMessage"]
    assert not any("Error in server" in m["params"]["message"] for m in shown)


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("textDocument/hover", {"textDocument": {"uri": 5}, "position": "x"}),
        ("textDocument/hover", {"textDocument": None, "position": {"line": -1, "character": []}}),
        ("textDocument/hover", [1, 2, 3]),
        ("textDocument/codeAction", {"textDocument": {"uri": "file:///x"}, "range": "everything"}),
        ("workspace/executeCommand", {"command": ["not", "a", "string"]}),
        ("workspace/executeCommand", {"command": "faultlens.applyRecipe", "arguments": [42]}),
        ("workspace/executeCommand", {"command": "faultlens.acceptConflict", "arguments": [{}]}),
        ("workspace/executeCommand", {"command": "faultlens.retryTask", "arguments": "x"}),
        ("faultlens/failures", {"task": {"nested": True}}),
    ],
)
def test_wrong_parameter_types_get_an_error_response(server, method: str, params: Any):
    res = server[0].request(method, params)
    assert "error" in res, res
    assert isinstance(res["error"]["code"], int) and res["error"]["message"]
    _still_serving(server)


def test_a_request_with_an_object_as_id_is_answered_with_that_id(server):
    c = server[0]
    c.send({"jsonrpc": "2.0", "id": {"x": 1}, "method": "textDocument/hover", "params": {}})
    assert "error" in c.wait({"x": 1})
    _still_serving(server)


def test_an_unknown_method_is_method_not_found_and_an_unknown_notification_is_ignored(server):
    c = server[0]
    assert c.request("faultlens/noSuchThing", {})["error"]["code"] == METHOD_NOT_FOUND
    assert c.request("$/noSuchThing", None)["error"]["code"] == METHOD_NOT_FOUND
    c.notify("faultlens/noSuchNotification", {"x": 1})
    c.notify("$/noSuchNotification", None)
    _still_serving(server)


def test_notifications_for_documents_never_opened_are_harmless(server, tmp_path):
    c = server[0]
    ghost = (tmp_path / "never-opened.ts").as_uri()
    c.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": ghost, "version": 7}, "contentChanges": [{"text": "x"}]},
    )
    c.notify("textDocument/didClose", {"textDocument": {"uri": ghost}})
    c.notify("textDocument/didSave", {"textDocument": {"uri": ghost}})
    c.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": "not a uri at all", "version": 1},
            "contentChanges": [{"range": {"start": {"line": 99, "character": 0}}, "text": "x"}],
        },
    )
    res = c.request(
        "textDocument/hover",
        {"textDocument": {"uri": ghost}, "position": {"line": 0, "character": 0}},
    )
    assert res.get("result") is None and "error" not in res
    res = c.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": ghost},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": []},
        },
    )
    assert "error" not in res
    _still_serving(server)


def test_huge_messages_are_answered_and_do_not_stop_the_server(server, tmp_path):
    c = server[0]
    big = "x" * (20 * 1024 * 1024)
    # a 20 MB parameter of the wrong type: an error, not a crash
    res = c.request("textDocument/hover", {"textDocument": {"uri": big}, "position": big}, 120)
    assert "error" in res
    # a 20 MB document opened and closed
    doc = (tmp_path / "huge.ts").as_uri()
    c.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": doc, "languageId": "typescript", "version": 1, "text": big}},
    )
    c.notify("textDocument/didClose", {"textDocument": {"uri": doc}})
    # a 20 MB ingest of build noise
    noise = ("npm info building module " + "y" * 70 + "\n") * 200_000
    c.notify("faultlens/ingest", {"output": noise, "task": "huge"})
    _still_serving(server)


def test_a_request_cancelled_mid_flight_is_answered_and_the_server_goes_on(server):
    c, _, _ = server
    script = "import time; print('started', flush=True); time.sleep(30)"
    msg_id = "slow-run"
    c.send(
        {
            "jsonrpc": "2.0",
            "id": msg_id,
            "method": "workspace/executeCommand",
            "params": {
                "command": "faultlens.run",
                "arguments": [{"command": [sys.executable, "-c", script], "task": "cancel-me"}],
            },
        }
    )
    time.sleep(2.0)  # the command is running
    t0 = time.monotonic()
    c.notify("$/cancelRequest", {"id": msg_id})
    res = c.wait(msg_id, timeout=20)
    assert time.monotonic() - t0 < 15, "the cancelled run was not stopped"
    assert "error" in res or "result" in res
    if "error" in res:
        assert res["error"]["code"] == REQUEST_CANCELLED
    # cancelling ids that are unknown or already answered is harmless
    c.notify("$/cancelRequest", {"id": msg_id})
    c.notify("$/cancelRequest", {"id": 123456789})
    c.notify("$/cancelRequest", {"id": {"weird": []}})
    _still_serving(server)


def test_many_requests_cancelled_at_once_each_get_one_response(server):
    c, uri, pos = server
    ids = [f"burst-{i}" for i in range(50)]
    for i in ids:
        c.send(
            {
                "jsonrpc": "2.0",
                "id": i,
                "method": "textDocument/hover",
                "params": {"textDocument": {"uri": uri}, "position": pos},
            }
        )
        c.notify("$/cancelRequest", {"id": i})
    for i in ids:
        res = c.wait(i, timeout=30)
        assert ("result" in res) != ("error" in res)
    _still_serving(server)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "conflict", "uri": "file:///x.ts", "line": "not a number", "choice": "both"},
        {"kind": "conflict", "uri": ["not", "a", "uri"], "line": 0, "choice": "both"},
        {"kind": "conflict", "uri": "file:///x.ts", "line": -4, "choice": "mine"},
        {"kind": "conflict", "line": {"nested": 1}},
        {"kind": "recipe", "failureId": {"forged": True}},
        {"kind": "recipe"},
        {"kind": "review", "failureId": ["a", "b"]},
        {"kind": "recipe", "failureId": "no-such-failure"},
        {"kind": "review", "failureId": "no-such-failure"},
    ],
)
def test_forged_code_action_data_is_invalid_params_not_an_internal_error(server, data):
    action = {"title": "faultlens: forged", "kind": "quickfix", "data": data}
    res = server[0].request("codeAction/resolve", action)
    assert res.get("error", {}).get("code") == INVALID_PARAMS, res
    _still_serving(server)


def test_an_action_with_data_of_no_faultlens_kind_is_resolved_unchanged(server):
    action = {"title": "someone else's", "kind": "quickfix", "data": {"kind": "other", "x": 1}}
    res = server[0].request("codeAction/resolve", action)
    assert res["result"]["title"] == "someone else's"


# -- framing: the reader (server/transport.py, server/framing.py) ---------------------------
def _hover_body(rid: str, uri: str, pos: Any) -> bytes:
    params = {"textDocument": {"uri": uri}, "position": pos}
    return json.dumps(
        {"jsonrpc": "2.0", "id": rid, "method": "textDocument/hover", "params": params}
    ).encode()


@pytest.mark.parametrize(
    "header",
    [
        b"content-length: %d\r\n\r\n",
        b"CONTENT-LENGTH:%d\r\n\r\n",
        b"Content-Length:  %d  \n\n",  # LF only, spaces around the value
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: %d\r\n\r\n",
    ],
)
def test_a_header_in_any_case_is_read_and_the_stream_goes_on(server, header):
    c, uri, pos = server
    body = _hover_body("lower", uri, pos)
    c.send_bytes(body, header % len(body))
    assert "TS2304" in c.wait("lower")["result"]["contents"]["value"]
    _still_serving(server)


@pytest.mark.parametrize(
    "junk",
    [
        b"garbage",  # a child wrote to the server's stdout... of the client, here: no newline
        b"garbage\r\n",
        b"Content-Length: x\r\n\r\n",
        b"Content-Length: -5\r\n\r\n",
        b"Content-Length: 99999999999999999999999\r\n\r\n",
        b"X-Nothing: 1\r\n\r\n",  # a header block without a length
        b"x" * 20000 + b"\r\n\r\n",  # a header line past the limit
    ],
)
def test_junk_in_the_stream_is_answered_and_the_next_message_is_read(server, junk):
    c, uri, pos = server
    with c.cv:
        c.responses.pop("null", None)
    body = _hover_body("after-junk", uri, pos)
    c.send_bytes(body, junk + b"Content-Length: %d\r\n\r\n" % len(body))
    assert c.wait(None)["error"]["code"] == -32700
    assert "TS2304" in c.wait("after-junk")["result"]["contents"]["value"]
    _still_serving(server)


def test_a_message_nested_too_deeply_is_a_parse_error(server):
    c = server[0]
    with c.cv:
        c.responses.pop("null", None)
    c.send_bytes(b"[" * 100_000)
    assert "too deeply" in c.wait(None)["error"]["message"]
    c.send_bytes(b'{"a":' * 50_000 + b"1" + b"}" * 50_000)
    assert c.wait(None)["error"]["code"] == -32700
    _still_serving(server)


def _first_message_client(tmp_path: Path, fast: str = "1") -> RawClient:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws)
    return RawClient(ws, env={**os.environ, "FAULTLENS_FAST_INIT": fast})


@pytest.mark.parametrize("fast", ["1", "0"])
def test_a_first_message_of_100000_brackets_is_a_parse_error_and_the_server_lives(tmp_path, fast):
    c = _first_message_client(tmp_path, fast)
    try:
        c.send_bytes(b"[" * 100_000)
        assert c.wait(None)["error"]["code"] == -32700
        assert "result" in c.initialize()
        assert c.request("faultlens/failures", {})["result"] == {"failures": []}
    finally:
        assert c.close() == 0


@pytest.mark.parametrize("fast", ["1", "0"])
def test_a_first_message_with_a_lower_case_header_is_answered(tmp_path, fast):
    c = _first_message_client(tmp_path, fast)
    try:
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": c.root.as_uri(), "capabilities": {}},
            }
        ).encode()
        c.send_bytes(body, b"content-length: %d\r\n\r\n" % len(body))
        assert c.wait(1)["result"]["serverInfo"]["name"] == "faultlens"
        c.notify("initialized", {})
        assert c.request("faultlens/failures", {})["result"] == {"failures": []}
    finally:
        assert c.close() == 0


def _init_with(c: RawClient, caps: dict[str, Any]) -> dict[str, Any]:
    return c.request(
        "initialize",
        {
            "processId": None,
            "rootUri": c.root.as_uri(),
            "workspaceFolders": [{"uri": c.root.as_uri(), "name": "ws"}],
            "capabilities": caps,
        },
    )


NEWER_CLIENT = {
    "workspace": {"symbol": {"symbolKind": {"valueSet": list(range(1, 30))}}},
    "textDocument": {
        "completion": {"completionItemKind": {"valueSet": list(range(1, 40))}},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["x.y"]}}},
    },
}


@pytest.mark.parametrize("fast", ["1", "0"])
def test_a_client_knowing_more_symbol_kinds_than_lsprotocol_is_served(tmp_path, fast):
    c = _first_message_client(tmp_path, fast)
    try:
        assert "result" in _init_with(c, NEWER_CLIENT)
        c.notify("initialized", {})
        c.notify("faultlens/ingest", {"output": (c.root / "output.txt").read_text()})
        uri = (c.root / "src" / "auth" / "middleware.ts").as_uri()
        pos = c.diagnostics_for(uri)[0]["range"]["start"]
        res = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
        assert "TS2304" in res["result"]["contents"]["value"]
    finally:
        assert c.close() == 0


def test_when_the_server_rejects_what_the_early_answer_accepted_the_client_is_told(tmp_path):
    c = _first_message_client(tmp_path, "1")
    caps = {"textDocument": {"hover": {"contentFormat": 5}}}  # plausible, but not LSP
    assert "result" in _init_with(c, caps)  # answered early, before pygls could look
    assert c.proc.wait(30) == 1  # the server stops ...
    shown = [m["params"] for m in c.all if m.get("method") == "window/showMessage"]
    assert shown and shown[-1]["type"] == 1 and "could not start" in shown[-1]["message"]


def test_without_the_early_answer_the_rejection_is_the_answer(tmp_path):
    c = _first_message_client(tmp_path, "0")
    try:
        res = _init_with(c, {"textDocument": {"hover": {"contentFormat": 5}}})
        assert res["error"]["code"] == INVALID_PARAMS
    finally:
        c.close()


def test_wrong_typed_capabilities_get_the_error_as_the_initialize_answer(tmp_path):
    """Issue 27, items 11 and 16: `"hover": true` (an object in LSP) once got a
    success answer from the early reader, then the server stopped; and an
    `initialized` after the failed initialize logged an AttributeError."""
    import json
    import subprocess
    import sys

    def frame(obj: dict) -> bytes:  # type: ignore[type-arg]
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    caps = {"textDocument": {"hover": True}}
    data = (
        frame(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": caps},
            }
        )
        + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    )
    (tmp_path / ".git").mkdir()
    res = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "serve"],
        input=data,
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    out = res.stdout.decode()
    first = json.loads(
        out[
            out.index("{") : out.index("Content-Length", 1)
            if out.count("Content-Length") > 1
            else None
        ]
    )
    assert first["id"] == 1 and first["error"]["code"] == -32602
    assert b"AttributeError" not in res.stderr
    assert res.returncode == 0
