"""A binary stream with its already-read head put back in front."""

from __future__ import annotations

import io
from typing import IO


class Rejoined(io.RawIOBase):
    """Reads `head` first, then the rest of `stream` (no copy of the rest)."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer)
        if self._head.nbytes:
            n = min(len(view), self._head.nbytes)
            view[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._stream.read(len(view))
        if not data:
            return 0
        view[: len(data)] = data
        return len(data)
