"""Property tests (hypothesis) of the real MCP server over stdio (issue 27:
the new fronts).  Whatever an agent sends — each tool called with arguments
of any JSON shape and type, and any line at all on the server's stdin (bytes
that are no JSON, JSON values that are no JSON-RPC message, messages with
ids, methods and params of every type) — the server answers a probe after
it, never with a traceback; a tool's error is one line; and it writes
nothing beside its workspace.

What is left out is what would do real work outside the test: a `run`
command is one of a few harmless ones (`false`, `true`, a program that does
not exist) whatever the draw says, and a `ci` URL never names a host.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .mcp_raw import RawMCP

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
TOOLS = {
    "classify": ["output", "path", "cwd", "command", "exit_code"],
    "run": ["command", "cwd", "task", "recover", "timeout"],
    "recover": ["failure_id", "task"],
    "status": [],
    "explain": ["failure_id"],
    "ci": ["url"],
}
HARMLESS = [["false"], ["true"], "false", ["/nonexistent/faultlens-probe", "x"]]
_ids = count(1)

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=15,
)


def _harmless(tool: str, args: Any) -> Any:
    """The draw, with what would do real work replaced (module doc)."""
    if not isinstance(args, dict):
        return args
    args = dict(args)
    cmd = args.get("command")
    if tool == "run" and (
        isinstance(cmd, str) or (isinstance(cmd, list) and all(isinstance(w, str) for w in cmd))
    ):
        args["command"] = HARMLESS[len(json.dumps(cmd)) % len(HARMLESS)]
    if tool == "run" and isinstance(args.get("timeout"), int | float):
        args["timeout"] = min(max(args["timeout"], 0), 30)  # wrong values stay wrong, short
    url = args.get("url")
    if tool == "ci" and isinstance(url, str) and ("/" in url or "." in url):
        args["url"] = "no url"
    return args


@st.composite
def tool_calls(draw: st.DrawFn) -> tuple[str, Any]:
    tool = draw(st.sampled_from(sorted(TOOLS)))
    if draw(st.integers(0, 9)) == 0:
        return tool, draw(_json)  # arguments that are no object at all
    names = st.sampled_from(TOOLS[tool]) if TOOLS[tool] else st.text(max_size=8)
    args = draw(st.dictionaries(names | st.text(max_size=8), _json, max_size=5))
    return tool, _harmless(tool, args)


@pytest.fixture(scope="module")
def mcp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RawMCP, Path]]:
    base = tmp_path_factory.mktemp("mcpprop")
    ws = base / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / "out.log").write_text("src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n")
    client = RawMCP(ws)
    assert "result" in client.initialize()
    yield client, base
    assert client.close() == 0
    assert "Traceback" not in client.stderr(), client.stderr()[-3000:]
    assert sorted(p.name for p in base.iterdir()) == ["ws"]  # nothing written beside it


def _probe(client: RawMCP) -> None:
    rid = f"probe-{next(_ids)}"
    assert client.request(rid, "ping", {}).get("result") == {}
    assert client.proc.poll() is None


@given(call=tool_calls())
@SETTINGS
def test_any_tool_arguments_get_a_one_line_error_or_a_result_never_a_traceback(mcp, call):
    client, _ = mcp
    tool, args = call
    rid = next(_ids)
    answer = client.request(rid, "tools/call", {"name": tool, "arguments": args})
    if "error" in answer:  # the SDK's own check of the request
        assert answer["error"]["code"] == -32602, answer
        assert "Traceback" not in json.dumps(answer)
    else:
        result = answer["result"]
        text = "".join(c.get("text", "") for c in result.get("content", []))
        assert "Traceback" not in text, text
        if result.get("isError"):
            assert "\n" not in text.strip() and text.strip(), text
    _probe(client)


_METHODS = [
    "tools/list",
    "tools/call",
    "ping",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "completion/complete",
    "logging/setLevel",
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/progress",
    "no/such/method",
]


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    msg: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        msg["jsonrpc"] = "2.0"
    else:
        msg["jsonrpc"] = draw(_json)
    if draw(st.booleans()):
        msg["id"] = draw(st.integers(10**6, 10**7) | st.text(min_size=1, max_size=8) | _json)
    method = draw(st.sampled_from(_METHODS) | _json)
    if draw(st.integers(0, 9)):
        msg["method"] = method
    if method == "tools/call":  # a call names a harmless tool
        params = {"name": draw(st.sampled_from(["status", "classify"])), "arguments": draw(_json)}
        msg["params"] = _harmless("classify", params)
    elif draw(st.booleans()):
        msg["params"] = draw(_json)
    if draw(st.integers(0, 4)) == 0:
        msg[draw(st.sampled_from(["result", "error"]))] = draw(_json)
    return msg


_lines = st.one_of(
    st.binary(max_size=200).map(lambda b: b.replace(b"\n", b" ")),
    _json.map(lambda v: json.dumps(v).encode()),
    messages().map(lambda m: json.dumps(m).encode()),
    st.just(b"[" * 60_000),
)


def _kind(line: bytes) -> int | None:
    """The JSON-RPC error a line must get when it is plainly no message: -32700
    for no JSON, -32600 for a JSON value that is no object; else None (the
    server decides)."""
    if not line.strip():
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return -32700
    return None if isinstance(value, dict) else -32600


@given(lines=st.lists(_lines, min_size=1, max_size=6))
@SETTINGS
def test_any_lines_on_stdin_are_answered_as_json_rpc_says_and_the_server_goes_on(mcp, lines):
    client, _ = mcp
    for line in lines:
        client.send_line(line)
    rid = f"probe-{next(_ids)}"
    client.send({"jsonrpc": "2.0", "id": rid, "method": "ping"})
    seen: list[dict[str, Any]] = []
    while (msg := client.next(timeout=60)) is not None and msg.get("id") != rid:
        seen.append(msg)
    assert msg is not None and msg.get("result") == {}, (msg, client.stderr()[-2000:])
    codes = [m["error"]["code"] for m in seen if m.get("id") is None and "error" in m]
    for code in (-32700, -32600):  # each plainly unreadable line got its own answer
        wanted = sum(1 for line in lines if _kind(line) == code)
        assert codes.count(code) >= wanted, (code, lines, seen)
