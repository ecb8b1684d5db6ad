"""Reading a Python traceback, line by line.

Shared by the interpreter rule (python/interpreter.py) and the test runners
(python_test.py: unittest prints interpreter tracebacks inside its failure
blocks, pytest `--tb=native` too).  A chained traceback ("During handling
of the above exception, another exception occurred:", "The above
exception was the direct cause of the following exception:") is one
failure: the last exception is the one reported, with its own frames, and
the exceptions before it are its `chain` (the context a cause may be read
from: a KeyError on os.environ under a ConfigError, a refused connection
under a client library's error).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from ..lazyre import lazy_compile
from .base import LineContext

FRAME = lazy_compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.+))?\s*$')
EXCEPTION = lazy_compile(
    r"^(?P<exc>[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)(?::[ \t]?(?P<message>.*))?$"
)
TRACEBACK_HEAD = "Traceback (most recent call last):"
CHAIN_MARKERS = (
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
)
SYNTAX_ERRORS = frozenset({"SyntaxError", "IndentationError", "TabError"})
LIBRARY_MARKERS = ("site-packages", "dist-packages", "/lib/python", "<frozen ", "<string>")
MAX_CHAIN = 8  # exceptions kept of one chain (the last ones)


def is_pseudo(file: str) -> bool:
    """`<frozen os>`, `<string>`, `<stdin>`: code with no file to point at."""
    return file.startswith("<") and file.endswith(">")


_T = TypeVar("_T")


def innermost_in_project(
    items: Sequence[_T],
    file_of: Callable[[_T], str],
    ctx: LineContext,
    library: tuple[str, ...] = LIBRARY_MARKERS,
) -> _T | None:
    """Of locations listed innermost last: the innermost inside the project;
    else the innermost outside any `library` folder; else the innermost."""
    for item in reversed(items):
        if ctx.in_project(file_of(item)):
            return item
    for item in reversed(items):
        if not any(mark in file_of(item) for mark in library):
            return item
    return items[-1] if items else None


@dataclass(slots=True)
class Frame:
    file: str
    line: int
    func: str | None
    code: str = ""


@dataclass(frozen=True, slots=True)
class Raised:
    """One exception of a report: its type, its message, and the source
    lines its frames showed (what a cause may be read from)."""

    exc: str
    message: str
    code: tuple[str, ...] = ()
    where: tuple[str, int] | None = None  # its innermost frame in the project

    @property
    def short(self) -> str:
        return self.exc.rsplit(".", 1)[-1]

    @property
    def text(self) -> str:
        return f"{self.exc}: {self.message}" if self.message else self.exc


def append_chain(chain: list[Raised], raised: Raised) -> None:
    """Add an exception to a chain, keeping the last MAX_CHAIN."""
    chain.append(raised)
    if len(chain) > MAX_CHAIN:
        del chain[0]


@dataclass(slots=True)
class Traceback:
    """A traceback being read, line by line.

    `feed` returns True while the line belongs to the traceback; the last
    exception of a chain is the one reported (`exc`, `message`, `frames`),
    the ones before it are in `chain` (oldest first).
    """

    ctx: LineContext
    frames: deque[Frame] = field(default_factory=lambda: deque(maxlen=256))
    syntax_at: Frame | None = None  # `File "x", line N` without ", in" (SyntaxError)
    exc: str | None = None
    message: str = ""
    exc_line: int | None = None
    signal: str = ""
    state: str = "frames"  # frames | after | chain
    blank_run: int = 0
    chain: list[Raised] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        if self.state == "frames":
            return self._frames(line, line_no)
        stripped = line.strip()
        if self.state == "after":
            if not stripped:
                self.blank_run += 1
                return self.blank_run <= 2
            if stripped in CHAIN_MARKERS:
                self.state = "chain"
                return True
            # an indented line right after it continues a multi-line message
            return self.blank_run == 0 and line[:1] in (" ", "\t")
        # state == "chain": blank lines, then a new "Traceback" header
        if not stripped:
            return True
        if stripped == TRACEBACK_HEAD:
            if self.exc is not None:
                at = self.location()
                raised = self.raised()
                if at is not None:
                    raised = Raised(raised.exc, raised.message, raised.code, (at.file, at.line))
                append_chain(self.chain, raised)
            self.frames.clear()
            self.syntax_at = None
            self.state = "frames"
            return True
        return False

    def _frames(self, line: str, line_no: int) -> bool:
        m = FRAME.match(line) if 'File "' in line else None
        if m:
            frame = Frame(m.group("file"), int(m.group("line")), m.group("func"))
            if frame.func is None:
                self.syntax_at = frame
            else:
                self.frames.append(frame)
            return True
        if line[:1] in (" ", "\t"):
            if self.frames and not self.frames[-1].code and line.strip():
                self.frames[-1].code = line.strip()
            return True  # source excerpt, caret line, "[Previous line repeated ...]"
        if not line.strip():
            return False
        e = EXCEPTION.match(line)
        if e is None:
            return False
        self.exc = e.group("exc")
        self.message = (e.group("message") or "").strip()
        self.exc_line = line_no
        self.signal = line.strip()
        self.state = "after"
        self.blank_run = 0
        return True

    @property
    def complete(self) -> bool:
        return self.exc is not None

    def raised(self) -> Raised:
        """The reported exception, with the source lines of its frames."""
        return Raised(self.exc or "", self.message, tuple(f.code for f in self.frames if f.code))

    def exceptions(self) -> list[Raised]:
        """The chain and the reported exception, oldest first."""
        return [*self.chain, self.raised()] if self.exc else list(self.chain)

    def location(self) -> Frame | None:
        """The innermost frame inside the project; else the innermost frame
        outside any library folder; else the innermost frame."""
        syntax_at = (
            self.syntax_at if self.syntax_at and not is_pseudo(self.syntax_at.file) else None
        )
        if self.exc and self.exc.rsplit(".", 1)[-1] in SYNTAX_ERRORS and syntax_at:
            return syntax_at
        frames = [f for f in self.frames if not is_pseudo(f.file)]
        found = innermost_in_project(frames, lambda f: f.file, self.ctx)
        return found if found is not None else syntax_at

    def related(self, chosen: Frame | None) -> list[tuple[str, int | None, int | None, str]]:
        return [
            (f.file, f.line, None, f"in {f.func}")
            for f in self.frames
            if f is not chosen and not is_pseudo(f.file)
        ]
