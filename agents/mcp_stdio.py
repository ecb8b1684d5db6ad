"""MCP over stdio, with JSON-RPC's answers to what cannot be read.

The SDK's stdio transport (mcp 2.x `mcp.server.stdio`) drops a line it cannot
read without a word: a line that is no JSON, a JSON value that is no JSON-RPC
message, a request whose `params` is no object.  Worse, a request whose id is
of the wrong type (`{"a": 1}`, `true`, `1.5`, `null`) is read as a
*notification* (the id ignored): the client waits for an answer forever.
JSON-RPC 2.0 says each gets an error answer, Parse error (-32700) or Invalid
Request (-32600), with the request's id when it can be read and null
otherwise; the server goes on serving.

This transport reads the lines itself: `judge` (pure) gives each one either
the SDK's message or the error to answer, which goes out through the same
writer as the server's answers, so frames never interleave.  As the SDK's,
it points fd 0 at the null device and fd 1 at stderr while it serves (a
child's stray output never reaches the wire) and restores both at the end.
A line longer than `MAX_LINE` is read through and answered as a Parse error,
never held whole in memory.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import anyio
import anyio.to_thread
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage

log = logging.getLogger(__name__)

# MCP's classify takes outputs up to 64 MiB (agents/service.py), which JSON
# escaping can make several times longer.
MAX_LINE = 512 * 1024 * 1024
_CHUNK = 1 << 20


@dataclass(frozen=True)
class RejectedLine:
    """The error answer a line gets: its JSON-RPC code and message, and the
    request's id when it could be read (else null)."""

    code: int
    message: str
    id: int | str | None = None

    def answer(self) -> types.JSONRPCError:
        error = types.ErrorData(code=self.code, message=self.message)
        return types.JSONRPCError(jsonrpc="2.0", id=self.id, error=error)


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _invalid(why: str, rid: Any = None) -> RejectedLine:
    return RejectedLine(
        types.INVALID_REQUEST, f"Invalid Request: {why}", rid if _valid_id(rid) else None
    )


def judge(line: bytes) -> types.JSONRPCMessage | RejectedLine | None:
    """What one line of the client's stream is: the message for the server, the
    error to answer, or None for a blank line (nothing to answer)."""
    if not line.strip():
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        return RejectedLine(types.PARSE_ERROR, f"Parse error: {str(exc)[:200]}")
    if not isinstance(value, dict):
        return _invalid(f"a JSON-RPC message is an object, not {type(value).__name__}")
    rid = value.get("id")
    if value.get("jsonrpc") != "2.0":
        return _invalid('"jsonrpc" must be "2.0"', rid)
    if "method" in value:
        if not isinstance(value["method"], str):
            return _invalid('"method" must be a string', rid)
        if "id" in value and not _valid_id(rid):
            # The SDK would read it as a notification and never answer.
            return _invalid('"id" must be a string or an integer')
        params = value.get("params")
        if params is not None and not isinstance(params, dict):
            return _invalid('"params" must be an object', rid)
    elif not ("id" in value and ("result" in value or "error" in value)):
        return _invalid('neither a request ("method") nor a response ("result" or "error")', rid)
    try:
        return types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except (ValueError, RecursionError) as exc:  # pydantic's ValidationError is a ValueError
        return _invalid(_first_error(exc), rid)


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        with contextlib.suppress(Exception):
            first = errors(include_input=False)[-1]
            where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "message"
            return f"{where}: {first.get('msg', 'invalid')}"[:200]
    return type(exc).__name__


def read_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[bytes | None]:
    """The stream's lines (blocking); None in place of a line longer than
    `limit` bytes, which is read through to its end and dropped."""
    while True:
        line = stream.readline(limit)
        if not line:
            return
        if len(line) < limit or line.endswith(b"\n"):
            yield line
            continue
        while (rest := stream.readline(_CHUNK)) and not rest.endswith(b"\n"):
            pass
        yield None


@contextlib.contextmanager
def _claimed(fd: int, diversion: int) -> Iterator[int]:
    """A private copy of `fd` (the wire), with `fd` itself pointed at
    `diversion` meanwhile; `fd` is the wire again afterwards.  The copy is
    never closed: a reader thread may still block on it after the end (as in
    the SDK's transport), and a closed descriptor could be reused under it."""
    private = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    os.dup2(diversion, fd)
    try:
        yield private
    finally:
        os.dup2(private, fd)


@contextlib.asynccontextmanager
async def guarded_stdio() -> AsyncIterator[
    tuple[
        MemoryObjectReceiveStream[SessionMessage | Exception],
        MemoryObjectSendStream[SessionMessage],
    ]
]:
    """The server's read and write streams over this process's stdin and stdout."""
    with contextlib.ExitStack() as stack:
        null = os.open(os.devnull, os.O_RDONLY)
        stack.callback(os.close, null)
        wire_in = stack.enter_context(_claimed(0, null))
        wire_out = stack.enter_context(_claimed(1, 2))
        stdin = stack.enter_context(os.fdopen(wire_in, "rb", closefd=False))
        stdout = stack.enter_context(os.fdopen(wire_out, "wb", closefd=False))
        to_server, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        to_client, from_server = anyio.create_memory_object_stream[SessionMessage](0)
        errors = to_client.clone()  # the reader's own answers, closed when it ends

        async def reader() -> None:
            lines = read_lines(stdin)
            async with to_server, errors:
                while (
                    line := await anyio.to_thread.run_sync(
                        next, lines, None, abandon_on_cancel=True
                    )
                ) is not None:
                    if (message := _judged(line)) is None:
                        continue
                    if isinstance(message, RejectedLine):
                        log.debug("faultlens: unreadable MCP message: %s", message.message)
                        await errors.send(SessionMessage(message.answer()))
                    else:
                        await to_server.send(SessionMessage(message))

        async def writer() -> None:
            async with from_server:
                async for session_message in from_server:
                    data = session_message.message.model_dump_json(
                        by_alias=True, exclude_unset=True
                    )
                    try:
                        await anyio.to_thread.run_sync(_write, stdout, data.encode() + b"\n")
                    except OSError:  # the client is gone: what it was sent is lost
                        log.debug("faultlens: the MCP client closed its end")

        async with anyio.create_task_group() as tg:
            tg.start_soon(reader)
            tg.start_soon(writer)
            yield from_client, to_client


async def serve_stdio(server: MCPServer) -> None:
    """Serve `server` on stdio until the client closes its end (as the SDK's
    `MCPServer.run_stdio_async`, over `guarded_stdio`)."""
    lowlevel = server._lowlevel_server
    async with guarded_stdio() as (read, write):
        await lowlevel.run(read, write, lowlevel.create_initialization_options())


def _judged(line: bytes | None) -> types.JSONRPCMessage | RejectedLine | None:
    if line is None:
        return RejectedLine(types.PARSE_ERROR, f"Parse error: a line longer than {MAX_LINE} bytes")
    return judge(line)


def _write(stream: BinaryIO, data: bytes) -> None:
    stream.write(data)
    stream.flush()
