"""Reading LSP messages for the server, asynchronously, from stdio or TCP.

The framing rules (what is accepted, what is reported and skipped) are in
server/framing.py; this module runs them over an asyncio reader and hands
each body to the server (`serve`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import BinaryIO, Protocol

from .framing import MAX_BODY, MAX_LINE, PARSE_ERROR, Headers, SyncSource, Unreadable

log = logging.getLogger(__name__)

_SKIP = 1 << 20


class AsyncSource(Protocol):
    """What the server reads from: a line of at most `limit` bytes (cut there
    when longer), and up to `n` bytes."""

    def readline(self, limit: int) -> Awaitable[bytes]: ...

    def read(self, n: int) -> Awaitable[bytes]: ...


class StdioSource:
    """A blocking binary stream (stdin) read in an executor thread."""

    def __init__(self, stream: BinaryIO | SyncSource, executor: Executor | None = None) -> None:
        self._stream = stream
        self._executor = executor

    def readline(self, limit: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(
            self._executor, self._stream.readline, limit
        )

    def read(self, n: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self._executor, self._read, n)

    def _read(self, n: int) -> bytes:
        parts = []
        while n > 0 and (chunk := self._stream.read(n)):
            parts.append(chunk)
            n -= len(chunk)
        return b"".join(parts)


class StreamSource:
    """An asyncio StreamReader (a TCP connection)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def readline(self, limit: int) -> bytes:
        try:
            return await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            return exc.partial
        except asyncio.LimitOverrunError as exc:  # longer than the reader's limit
            return await self._reader.read(min(exc.consumed, limit) or limit)

    async def read(self, n: int) -> bytes:
        try:
            return await self._reader.readexactly(n)
        except asyncio.IncompleteReadError as exc:
            return exc.partial


async def _skip_line(src: AsyncSource) -> None:
    while (chunk := await src.readline(MAX_LINE)) and not chunk.endswith(b"\n"):
        pass


async def _skip(src: AsyncSource, n: int) -> None:
    while n > 0 and (chunk := await src.read(min(n, _SKIP))):
        n -= len(chunk)


async def read_frame(src: AsyncSource) -> tuple[Headers, bytes | None] | None:
    """The next header block and its body (None for the body when the block
    was unusable), or None at the end of the stream."""
    headers = Headers()
    while True:
        line = await src.readline(MAX_LINE)
        if not line:
            return None
        if not line.endswith(b"\n"):
            await _skip_line(src)
            headers.problems.append(f"header line longer than {MAX_LINE} bytes")
            headers.started = True
            headers.size += len(line)
        elif headers.feed(line):
            break
        if headers.too_long():
            headers.problems.append(f"no LSP header in {headers.size} bytes")
            return headers, None
    length = headers.length
    if length is None:
        if not headers.problems:
            headers.problems.append("no Content-Length header")
        return headers, None
    if length > MAX_BODY:
        await _skip(src, length)
        headers.problems.append(f"message of {length} bytes is larger than {MAX_BODY}")
        return headers, None
    body = await src.read(length)
    return (headers, body) if len(body) == length else None


Dispatch = Callable[[bytes], None]
Report = Callable[[Unreadable], None]


async def serve(
    src: AsyncSource, dispatch: Dispatch, report: Report, stopped: Callable[[], bool]
) -> None:
    """Read messages until the end of the stream (or `stopped()`): each body to
    `dispatch`, each problem of the stream to `report`."""
    while not stopped():
        frame = await read_frame(src)
        if frame is None:
            return
        headers, body = frame
        if headers.problems:  # one answer per header block, however much junk it held
            problem = headers.problems[0]
            if len(headers.problems) > 1:
                problem += f" (and {len(headers.problems) - 1} more problems)"
            log.warning("faultlens: unreadable input: %s", problem)
            report(Unreadable(PARSE_ERROR, f"Parse error: {problem}"))
        if body is not None:
            dispatch(body)
