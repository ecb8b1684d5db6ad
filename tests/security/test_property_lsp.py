"""Property tests (hypothesis) of the real server over stdio: whatever a client
sends — odd frames and headers, junk between messages, JSON of any shape and
depth, JSON-RPC messages with ids and params of every type, for the methods a
client may call — the server answers the next request, and it writes nothing
outside its workspace.

What is left out is what no server could survive or what would change the
test's own state: `shutdown`/`exit`, a second `initialize`, commands that run
programs or clear failures, and a Content-Length larger than its body (the
server would rightly wait for the missing bytes).  The server answers a
`faultlens/failures` probe after every example, and a hover on a real
failure at the end.

Fixture: tests/samples/typescript/tsc-plain-ts2304 (real tsc output), ingested.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import SAMPLES
from .lsp_raw import RawClient

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
SAMPLE = SAMPLES / "typescript" / "tsc-plain-ts2304"
TS_FILE = "src/auth/middleware.ts"

METHODS = [
    "textDocument/hover",
    "textDocument/codeAction",
    "codeAction/resolve",
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/didClose",
    "textDocument/didSave",
    "textDocument/diagnostic",
    "workspace/diagnostic",
    "workspace/didChangeWatchedFiles",
    "workspace/executeCommand",
    "faultlens/failures",
    "faultlens/ingest",
    "$/cancelRequest",
    "$/setTrace",
    "initialized",
    "faultlens/noSuchThing",
    "",
]
SAFE_COMMANDS = ["faultlens.acceptConflict", "faultlens.noSuchCommand", 42, None]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def params_for(draw: st.DrawFn, method: str, uri: str) -> Any:
    """Params of the right shape with hostile values, or of any shape."""
    position = {"line": draw(st.integers(-5, 10**9)), "character": draw(st.integers(-5, 10**9))}
    doc_uri = draw(st.sampled_from([uri, "file:///etc/passwd", "not a uri", "file:///nope.log"]))
    shaped = {
        "textDocument/hover": {"textDocument": {"uri": doc_uri}, "position": position},
        "textDocument/codeAction": {
            "textDocument": {"uri": doc_uri},
            "range": {"start": position, "end": position},
            "context": {"diagnostics": draw(st.lists(json_values, max_size=2))},
        },
        "codeAction/resolve": {
            "title": "x",
            "data": draw(
                st.sampled_from(
                    [
                        {"kind": "recipe", "failureId": draw(json_values)},
                        {"kind": "conflict", "uri": doc_uri, "line": draw(json_values)},
                        {"kind": "review", "failureId": "nope"},
                        draw(json_values),
                    ]
                )
            ),
        },
        "textDocument/didOpen": {
            "textDocument": {
                "uri": doc_uri,
                "languageId": "log",
                "version": draw(st.integers(-1, 10)),
                "text": draw(st.text(max_size=200)),
            }
        },
        "textDocument/didChange": {
            "textDocument": {"uri": doc_uri, "version": draw(st.integers(-1, 10))},
            "contentChanges": [{"text": draw(st.text(max_size=100))}],
        },
        "workspace/didChangeWatchedFiles": {
            "changes": [{"uri": doc_uri, "type": draw(st.integers(0, 5))}]
        },
        "workspace/executeCommand": {
            "command": draw(st.sampled_from(SAFE_COMMANDS)),
            "arguments": draw(st.lists(json_values, max_size=2)),
        },
        "faultlens/ingest": {"output": draw(st.text(max_size=300)), "task": "hostile"},
        "$/cancelRequest": {"id": draw(json_values)},
    }
    if method in shaped and draw(st.booleans()):
        return shaped[method]
    return draw(json_values)


IDS = st.one_of(
    st.text(max_size=10).map(lambda t: "h" + t),  # never one of the probe's integer ids
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def message(draw: st.DrawFn, uri: str) -> bytes:
    method = draw(st.sampled_from(METHODS))
    msg: dict[str, Any] = {"jsonrpc": draw(st.sampled_from(["2.0", "2.0", "1.0", 2]))}
    if draw(st.booleans()):
        msg["id"] = draw(IDS)
    msg["method"] = method
    if draw(st.integers(0, 5)):
        msg["params"] = draw(params_for(method, uri))
    return json.dumps(msg).encode()


def _frame(body: bytes, header: str) -> bytes:
    return header.replace("%d", str(len(body))).encode() + body


HEADERS = st.sampled_from(
    [
        "Content-Length: %d\r\n\r\n",
        "content-length: %d\r\n\r\n",
        "CONTENT-LENGTH:%d\n\n",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %d\r\n\r\n",
        "X-Junk\r\nContent-Length: %d\r\n\r\n",
    ]
)
JUNK = st.binary(max_size=200).filter(lambda b: b"ength" not in b.lower())


@st.composite
def pieces(draw: st.DrawFn, uri: str) -> bytes:
    """What a hostile client writes before the probe."""
    out = b""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 7))
        if kind <= 2:
            out += _frame(draw(message(uri)), draw(HEADERS))
        elif kind == 3:
            out += _frame(json.dumps(draw(json_values)).encode(), draw(HEADERS))
        elif kind == 4:
            depth = draw(st.integers(500, 200_000))
            out += _frame(
                draw(st.sampled_from([b"[", b'{"a":'])) * depth, "Content-Length: %d\r\n\r\n"
            )
        elif kind == 5:
            body = draw(message(uri))
            short = draw(st.integers(0, max(0, len(body) - 1)))  # too short: the rest is junk
            out += f"Content-Length: {short}\r\n\r\n".encode() + body
        elif kind == 6:
            out += draw(JUNK)
        else:
            out += _frame(draw(st.binary(max_size=100)), "Content-Length: %d\r\n\r\n")
    return out


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RawClient, Path, str, Any]]:
    base = tmp_path_factory.mktemp("lspprop")
    ws = base / "ws"
    shutil.copytree(SAMPLE, ws)
    c = RawClient(ws)
    assert "result" in c.initialize()
    c.notify("faultlens/ingest", {"output": (ws / "output.txt").read_text()})
    uri = (ws / TS_FILE).as_uri()
    pos = c.diagnostics_for(uri)[0]["range"]["start"]
    yield c, base, uri, pos
    assert c.close() == 0
    assert sorted(p.name for p in base.iterdir()) == ["ws"]  # nothing written beside it


@given(data=st.data())
@SETTINGS
def test_the_server_answers_after_any_input(served, data):
    c, _, uri, _ = served
    c.send_bytes(b"", data.draw(pieces(uri)))
    res = c.request("faultlens/failures", {"task": "nothing"}, timeout=60)
    assert res.get("result") == {"failures": []}, res
    assert c.proc.poll() is None


def test_after_all_of_it_the_failure_is_still_explained(served):
    c, _, uri, pos = served
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    c.notify("faultlens/ingest", {"output": (c.root / "output.txt").read_text()})
    c.diagnostics_for(uri)
    res = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
    assert "TS2304" in res["result"]["contents"]["value"]
