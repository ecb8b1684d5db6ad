"""`faultlens mcp` answers what it cannot read as JSON-RPC 2.0 says (issue 27,
item 16): a line that is no JSON gets Parse error (-32700), a JSON value that
is no request or a request with a wrong-typed id, method or params gets
Invalid Request (-32600), with the request's id when it can be read, else
null; and the server goes on serving.  The SDK's own stdio transport dropped
each of them without a word, and read a request with an id of the wrong type
as a notification, so the client waited forever.  Real stdio framing against
the real server process (mcp_raw.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from .mcp_raw import RawMCP

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


@pytest.fixture(scope="module")
def mcp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawMCP]:
    ws = tmp_path_factory.mktemp("mcp-jsonrpc")
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    client = RawMCP(ws)
    assert "result" in client.initialize()
    yield client
    assert client.close() == 0
    assert "Traceback" not in client.stderr(), client.stderr()


def _still_serving(mcp: RawMCP, rid: int) -> None:
    tools = mcp.request(rid, "tools/list")["result"]["tools"]
    assert {t["name"] for t in tools} >= {"classify", "run", "status"}


@pytest.mark.parametrize(
    ("line", "code", "rid"),
    [
        (b"not json", PARSE_ERROR, None),
        (b'{"jsonrpc": "2.0", "id": 3, "method": "tools/list"', PARSE_ERROR, None),
        (b"\xff\xfe\x00garbage", PARSE_ERROR, None),
        (b"[" * 100_000, PARSE_ERROR, None),
        (b"42", INVALID_REQUEST, None),
        (b"[]", INVALID_REQUEST, None),
        (b'[{"jsonrpc": "2.0", "id": 4, "method": "tools/list"}]', INVALID_REQUEST, None),
        (b'"a string"', INVALID_REQUEST, None),
        (b"null", INVALID_REQUEST, None),
        (b'{"jsonrpc": "2.0"}', INVALID_REQUEST, None),
        (b'{"id": 11, "method": "tools/list"}', INVALID_REQUEST, 11),
        (b'{"jsonrpc": "1.0", "id": 12, "method": "tools/list"}', INVALID_REQUEST, 12),
        (b'{"jsonrpc": "2.0", "id": 13, "method": 7}', INVALID_REQUEST, 13),
        (b'{"jsonrpc": "2.0", "id": "s", "method": ["tools/list"]}', INVALID_REQUEST, "s"),
        (b'{"jsonrpc": "2.0", "id": 14, "method": "tools/list", "params": 5}', INVALID_REQUEST, 14),
        (
            b'{"jsonrpc": "2.0", "id": 15, "method": "tools/list", "params": []}',
            INVALID_REQUEST,
            15,
        ),
        (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', INVALID_REQUEST, None),
        (b'{"jsonrpc": "2.0", "id": true, "method": "tools/list"}', INVALID_REQUEST, None),
        (b'{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}', INVALID_REQUEST, None),
        (b'{"jsonrpc": "2.0", "id": null, "method": "tools/list"}', INVALID_REQUEST, None),
        (b'{"jsonrpc": "2.0", "id": [16], "method": "tools/list"}', INVALID_REQUEST, None),
    ],
)
def test_an_unreadable_line_gets_its_json_rpc_error_and_the_server_goes_on(mcp, line, code, rid):
    mcp.send_line(line)
    answer = mcp.next(timeout=30)
    assert answer is not None, f"no answer to {line[:60]!r}; stderr: {mcp.stderr()}"
    assert answer["jsonrpc"] == "2.0" and answer["id"] == rid, answer
    assert answer["error"]["code"] == code and answer["error"]["message"], answer
    _still_serving(mcp, 100)


def test_a_blank_line_is_skipped_without_an_answer(mcp):
    mcp.send_line(b"   ")
    assert mcp.request(101, "tools/list")["id"] == 101  # the next message is the answer


def test_a_tool_call_with_a_wrong_typed_id_is_refused_not_run_as_a_notification(mcp, tmp_path):
    pwned = tmp_path / "pwned"
    call = {"name": "run", "arguments": {"command": ["touch", str(pwned)]}}
    mcp.send({"jsonrpc": "2.0", "id": {"x": 1}, "method": "tools/call", "params": call})
    answer = mcp.next(timeout=30)
    assert answer is not None and answer["error"]["code"] == INVALID_REQUEST, answer
    _still_serving(mcp, 102)
    assert not pwned.exists()


def test_a_good_request_after_a_burst_of_junk_is_answered_once(mcp):
    for junk in (b"}{", b"\x00\x01\x02", b'{"jsonrpc": 2}', b"true"):
        mcp.send_line(junk)
    errors = [mcp.next(timeout=30) for _ in range(4)]
    assert all(e is not None and "error" in e for e in errors), errors
    res = mcp.request(103, "tools/call", {"name": "status", "arguments": {}})
    assert res["result"]["isError"] is False, res


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        ("explain", {}, "invalid arguments for explain: failure_id: Field required"),
        ("run", {"command": 5}, "invalid arguments for run: command"),
        ("run", {"command": ["true"], "timeout": -1}, "timeout: Input should be greater than 0"),
        ("classify", {"exit_code": "x" * 5000}, "invalid arguments for classify: exit_code"),
    ],
)
def test_arguments_that_fail_a_tool_s_schema_are_a_one_line_error(mcp, tool, arguments, said):
    """The SDK answered with pydantic's report: several lines, the rejected
    values, a link to pydantic's documentation."""
    res = mcp.request(104, "tools/call", {"name": tool, "arguments": arguments})["result"]
    text = "".join(c.get("text", "") for c in res["content"])
    assert res["isError"] is True and said in text, text
    assert "\n" not in text and "pydantic" not in text and "x" * 100 not in text, text
