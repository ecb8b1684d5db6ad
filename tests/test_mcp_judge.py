"""agents/mcp_stdio.py's pure half: what each line of an MCP client's stream
is (the message for the server, or the JSON-RPC error to answer), and a line
too long to hold read through in bounded pieces."""

from __future__ import annotations

import io

import mcp_types as types
import pytest

from faultlens.agents.mcp_stdio import RejectedLine, judge, read_lines


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
        b'{"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "status"}}',
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        b'{"jsonrpc": "2.0", "id": 3, "result": {}}',
        b'{"jsonrpc": "2.0", "id": 4, "error": {"code": -1, "message": "no"}}',
    ],
)
def test_a_json_rpc_message_goes_to_the_server(line):
    assert not isinstance(judge(line), RejectedLine | None)


@pytest.mark.parametrize(
    ("line", "code", "rid"),
    [
        (b"{", types.PARSE_ERROR, None),
        (b"\xc3\x28", types.PARSE_ERROR, None),
        (b"[" * 50_000, types.PARSE_ERROR, None),
        (b"1" * 10_000, types.PARSE_ERROR, None),
        (b"[1]", types.INVALID_REQUEST, None),
        (b'{"jsonrpc": "2.0", "id": 2, "method": null}', types.INVALID_REQUEST, 2),
        (b'{"jsonrpc": "2.0", "id": false, "method": "x"}', types.INVALID_REQUEST, None),
        (b'{"jsonrpc": "2.0", "id": 5, "method": "x", "params": "p"}', types.INVALID_REQUEST, 5),
        (b'{"jsonrpc": "2.0", "id": 6}', types.INVALID_REQUEST, 6),
        (b'{"jsonrpc": "2.0", "id": 7, "error": {"code": "x"}}', types.INVALID_REQUEST, 7),
    ],
)
def test_an_unreadable_line_is_answered_with_its_code_and_readable_id(line, code, rid):
    refused = judge(line)
    assert isinstance(refused, RejectedLine)
    assert (refused.code, refused.id) == (code, rid)
    assert refused.answer().model_dump()["id"] == rid


def test_a_blank_line_is_nothing_to_answer():
    assert judge(b"  \r\n") is None


def test_a_line_longer_than_the_limit_is_read_through_and_dropped():
    stream = io.BytesIO(b"x" * 5000 + b"\n" + b'{"a": 1}\n' + b"y" * 30)
    assert list(read_lines(stream, limit=64)) == [None, b'{"a": 1}\n', b"y" * 30]
