"""LSP message framing, defensively: header blocks and bodies.

pygls' reader accepts exactly `Content-Length: N\\r\\n`: a header in other case
(`content-length:`, which HTTP-style header names allow), a stray line before
a header, or a body that is not JSON wedged or killed the stream.  faultlens
frames messages itself (server/transport.py reads them for the server,
server/fast_init.py the first one before pygls is loaded):

* header names are case-insensitive; whitespace around a value and LF-only
  line ends are accepted; other headers (`Content-Type`) are ignored;
* junk before a header (`garbageContent-Length: 52`, what a child writing to
  the server's stdout leaves) is reported and skipped: the header after it
  is read, so the stream resynchronises on the next message;
* a header block without a usable `Content-Length`, a line or block longer
  than the limits, a body larger than `MAX_BODY` (read and dropped) are
  reported and skipped;
* a body is parsed with a bounded depth: invalid JSON, invalid UTF-8 or
  nesting deeper than the interpreter's recursion limit is a *Parse error*.

Every problem is answered with JSON-RPC's error response with id null
(`Unreadable`, sent by the caller) and the next message is read as usual.

Standard library only, and no asyncio (it is imported before the early
`initialize` answer).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

MAX_LINE = 8192  # a header line longer than this is junk
MAX_HEADERS = 65536  # a header block longer than this is junk
MAX_BODY = 512 * 1024 * 1024  # a message larger than this is read and dropped
PARSE_ERROR = -32700
_NAME = b"content-length:"


class Unreadable:
    """A problem with the stream, answered with an error response (id null)."""

    __slots__ = ("code", "message")

    def __init__(self, code: int, message: str) -> None:
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"Unreadable({self.code}, {self.message!r})"


class Headers:
    """One header block, fed line by line (`feed` returns True at its end).

    (Plain classes, no dataclasses: importing that module, and the inspect
    module it pulls in, would delay the early `initialize` answer.)"""

    __slots__ = ("length", "problems", "size", "started")

    def __init__(self) -> None:
        self.length: int | None = None
        self.problems: list[str] = []
        self.size = 0
        self.started = False

    def feed(self, line: bytes) -> bool:
        self.size += len(line)
        text = line.strip()
        if not text:
            return self.started  # blank lines between messages are skipped
        at = text.lower().rfind(_NAME)
        if at > 0:  # junk, then a header: the block starts at the header
            self.problems.append(f"junk before a header: {_show(text[:at])}")
            self.length, text = None, text[at:]
        self.started = True
        name, sep, value = text.partition(b":")
        if not sep:
            self.problems.append(f"not a header: {_show(text)}")
        elif name.strip().lower() == _NAME[:-1]:
            number = value.strip()
            if number.isdigit() and len(number) < 19:
                self.length = int(number)
            else:
                self.length = None
                self.problems.append(f"bad Content-Length: {_show(number)}")
        return False

    def too_long(self) -> bool:
        return self.size > MAX_HEADERS


def _show(raw: bytes) -> str:
    return repr(raw[:60].decode("utf-8", "replace")) + ("..." if len(raw) > 60 else "")


class SyncSource(Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...

    def read(self, n: int = -1, /) -> bytes: ...


def read_frame_sync(stream: SyncSource) -> tuple[bytes, Headers, bytes | None]:
    """Read one header block and its body from a blocking stream: (the raw bytes
    read, the headers, the body or None).  The body is None at the end of the
    stream, or when the headers give no usable length."""
    raw = bytearray()
    headers = Headers()
    while True:
        line = stream.readline(MAX_LINE)
        raw += line
        if not line:
            return bytes(raw), headers, None
        if not line.endswith(b"\n") or headers.feed(line) or headers.too_long():
            break
    if headers.problems or headers.length is None or headers.length > MAX_BODY:
        return bytes(raw), headers, None
    body = stream.read(headers.length)
    raw += body
    return bytes(raw), headers, body if len(body) == headers.length else None


def parse_body(body: bytes, object_hook: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """The JSON of a message body; Unreadable (Parse error) for anything that is
    not JSON, not UTF-8, or nested too deeply to parse."""
    try:
        return json.loads(body, object_hook=object_hook)
    except RecursionError:
        return Unreadable(PARSE_ERROR, "Parse error: the message is nested too deeply")
    except UnicodeDecodeError as exc:
        return Unreadable(PARSE_ERROR, f"Parse error: not UTF-8 ({exc.reason})")
    except json.JSONDecodeError as exc:
        return Unreadable(PARSE_ERROR, f"Parse error: {exc}")
