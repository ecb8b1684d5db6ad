"""The C# rule for an unhandled exception and its stack trace."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..registry import rule
from ..stack import Frame, innermost_in_project, related_frames
from .common import AT_NO_FILE, EXCEPTION, LIBRARY, read_frame

_INFRA_EXCEPTIONS = frozenset(
    {
        "System.Net.Http.HttpRequestException",
        "System.Net.Sockets.SocketException",
        "System.TimeoutException",
        "System.IO.IOException",
        "System.UnauthorizedAccessException",
        "System.OutOfMemoryException",
    }
)


class _Unhandled:
    """The exception line(s) and the `at ... in file:line` frames."""

    max_lines = 400

    def __init__(self, ctx: LineContext, first: str) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.exc: str | None = None
        self.message = ""
        self.frames: list[Frame] = []
        self._exception(first)

    def _exception(self, text: str) -> None:
        if self.exc is None and (m := EXCEPTION.match(text)):
            self.exc, self.message = m.group("exc"), m.group("message").strip()

    def feed(self, line: str, line_no: int) -> bool:
        if frame := read_frame(line):
            self.frames.append(frame)
            return True
        if AT_NO_FILE.match(line) or line.strip().startswith("--- End of"):
            return True
        if line.startswith("[ERROR] FATAL UNHANDLED EXCEPTION:"):
            return True  # mono repeats the report; the frames that follow too
        if not self.frames and line.strip():
            self._exception(line)
            return True
        return not line.strip() and not self.frames

    def finish(self) -> Iterable[Hit]:
        if self.exc is None:
            return []
        frames = list(dict.fromkeys(self.frames))  # mono prints them twice
        chosen = innermost_in_project(frames, self.ctx, LIBRARY)
        category = FailureType.INFRA if self.exc in _INFRA_EXCEPTIONS else FailureType.COMPILE
        return [
            Hit(
                signal=self.signal
                if self.signal.endswith(self.message)
                else f"{self.exc}: {self.message}",
                message=f"{self.exc}: {self.message}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                category=category,
                log_line=self.log_line,
                hint={"exception": self.exc},
                related=related_frames(frames, chosen),
                key=("dotnet-unhandled", self.exc, self.message, chosen),
            )
        ]


@rule(
    id="csharp.unhandled_exception",
    category=FailureType.COMPILE,
    tool="dotnet",
    pattern=r"^Unhandled (?:Exception:|exception\. )\s*(?P<rest>.*)$",
    triggers=("Unhandled Exception:", "Unhandled exception. "),
    url="https://learn.microsoft.com/en-us/dotnet/standard/exceptions/",
)
def csharp_unhandled_exception(m: re.Match[str], ctx: LineContext) -> Block:
    """An unhandled .NET exception (the .NET runtime, or mono).

    What it detects: `Unhandled exception. System.NullReferenceException:
    Object reference not set to an instance of an object.` (.NET) or mono's
    `Unhandled Exception:` followed by the exception line, then the stack
    frames, `   at Shop.Cart.Total() in /src/Shop/Cart.cs:line 26` (.NET)
    or `  at Shop.Cart.Total () [0x00028] in /src/Cart.cs:26` (mono with
    `--debug`).  The location is the innermost frame in the project; mono's
    `[ERROR] FATAL UNHANDLED EXCEPTION:` repeat is the same record.
    hint["exception"]; network, I/O and permission exceptions are infra,
    the rest compile.

    Example output (`mono --debug shop.exe`, Mono 6.8.0.105):
        Unhandled Exception:
        System.NullReferenceException: Object reference not set to an instance of an object
          at Shop.Cart.Total () [0x00028] in /src/Cart.cs:26
          at Program.Main (System.String[] args) [0x0003c] in /src/Program.cs:9

    Recipe: compile, escalated with the throwing location.

    References: https://learn.microsoft.com/en-us/dotnet/standard/exceptions/,
    https://www.mono-project.com/docs/debug+profile/debug/
    """
    return _Unhandled(ctx, m.group("rest") or "")
