"""Where a watcher's cycles begin and end, read from its own output.  Pure.

A watcher (`tsc --watch`, `vitest --watch`, `nodemon`, ...) never exits: it
builds or tests, says so, waits for a file change, and does it again.  Each
of those rounds is a *cycle*.  Its failures replace the previous cycle's
(a clean cycle clears them), so the one thing to know is where a cycle ends,
and where the next one begins.  Every watcher says it in its own words; this
module knows them (`WATCHERS`, each proved on real captured output in
tests/samples/watch/), recognises which watcher a command starts
(`watcher_for`), and splits the output stream into cycles (`CycleReader`).

The rules of the split, the same for every watcher:

* the process starts inside cycle 1;
* an *end* line (tsc's "Found 1 error. Watching for file changes.") belongs
  to the cycle it closes; after it, output is between cycles;
* a *begin* line (tsc's "File change detected. Starting incremental
  compilation...") opens the next cycle; one that arrives while a cycle with
  output is still open closes that cycle first (nodemon restarting a server
  that never exited); one that arrives in a cycle that has printed nothing
  yet (tsc's first "Starting compilation in watch mode...") just continues
  it;
* between cycles, the first line that is neither blank nor another end line
  opens the next cycle (jest and webpack print no begin banner);
* when the process exits, a cycle with output is closed.

Watchers without a begin or end banner of their own (a plain command under a
watcher the user configures) are given one with `generic(begin, end)`, the
way VS Code's `background` problem matchers are (beginsPattern /
endsPattern); `quiet` then also ends a cycle after that many seconds without
output, for tools that print no end banner at all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .lazyre import lazy_compile

__all__ = [
    "AUTO",
    "WATCHERS",
    "Begin",
    "CycleReader",
    "Data",
    "End",
    "Piece",
    "Watcher",
    "generic",
    "watcher_for",
]

Match = Callable[[str], bool]

# ESC c (reset: vitest's clear screen), CSI sequences (colours, cursor,
# erase), OSC sequences (titles, links), and other control characters
# (pytest-watch rings the bell after a failed run).
_ANSI = lazy_compile(
    r"\x1b(?:c|\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\))|[\x00-\x08\x0b-\x1f\x7f]"
)


def plain(line: str) -> str:
    """A line without terminal escapes or its line break."""
    return _ANSI.sub("", line).rstrip("\r\n")


def _lazy(pattern: str) -> Callable[[], re.Pattern[str]]:
    """The pattern, compiled on first use: `faultlens run` imports this module
    before the command starts, and most commands are no watcher."""
    compiled: list[re.Pattern[str]] = []

    def get() -> re.Pattern[str]:
        if not compiled:
            compiled.append(re.compile(pattern))
        return compiled[0]

    return get


def _any(*patterns: str) -> Match:
    compiled = _lazy("|".join(f"(?:{p})" for p in patterns))
    return lambda line: compiled().search(line) is not None


def _never(_line: str) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Watcher:
    """One watcher's banners.

    `begins` / `ends` are tested on each line without its terminal escapes;
    `chatter` lines (the watcher's own notices, "[nodemon] watching path(s):
    *.*") neither open a cycle nor count as its output.
    `failures` reads the watcher's own count of failures from an end line
    (tsc's "Found 2 errors"), when it prints one."""

    name: str
    begins: Match = _never
    ends: Match = _never
    chatter: Match = _never  # the watcher's own notices: never a cycle's content
    quiet: float | None = None  # seconds of silence that also end a cycle
    failures: Callable[[str], int | None] = field(default=lambda _line: None)


def _count(pattern: str) -> Callable[[str], int | None]:
    compiled = _lazy(pattern)

    def read(line: str) -> int | None:
        m = compiled().search(line)
        return int(m.group(1)) if m else None

    return read


# Each watcher's banners, as its real output prints them (samples in
# tests/samples/watch/<case>/, captured by scripts/capture-watch.py unless
# the case's cmd.txt says it is built from the documented format).
TSC = Watcher(
    "tsc",
    # "8:56:02 AM - Starting compilation in watch mode..." (also in project
    # build mode, `tsc -b -w`), "File change detected. Starting incremental
    # compilation..."
    begins=_any(r"Starting compilation in watch mode", r"File change detected\. Starting"),
    # "8:56:12 AM - Found 1 error. Watching for file changes."
    ends=_any(r"Found \d+ errors?\b.*Watching for file changes"),
    failures=_count(r"Found (\d+) errors?\b"),
)
VITEST = Watcher(
    "vitest",
    # " DEV  v4.1.12 /path/to/project" (first run), " RERUN  cart.js x1"
    begins=_any(r"^\s*(?:DEV|RERUN)\s+\S"),
    # " FAIL  Tests failed. Watching for file changes..." /
    # " PASS  Waiting for file changes..."
    ends=_any(r"^\s*(?:FAIL|PASS)\s+(?:Tests failed\. )?(?:Watching|Waiting) for file changes"),
    # "       press h to show help, press q to quit"
    chatter=_any(r"^\s*press h to show help"),
)
JEST = Watcher(
    "jest",
    # No begin banner when stdout is no terminal; the summary closes a run:
    # "Ran all test suites.", "Ran all test suites related to changed files.",
    # "Ran all test suites matching /cart/i."
    ends=_any(
        r"^Ran all test suites\b", r"^No tests found related to files changed since last commit"
    ),
)
WEBPACK = Watcher(
    "webpack",
    # "webpack 5.113.0 compiled with 1 error in 250 ms",
    # "webpack 5.113.0 compiled successfully in 108 ms"
    ends=_any(r"^webpack \d[\w.-]* compiled\b"),
    failures=_count(r"compiled with (\d+) errors?"),
)
VITE = Watcher(
    "vite",
    # vite build --watch: "build started..." opens a build; a good one ends
    # with "built in 145ms.", a failed one with the error and then nothing
    # (rollup prints no end banner for it): a quiet spell ends that one.
    begins=_any(r"^build started\.\.\."),
    ends=_any(r"^(?:✓ )?built in \d"),
    chatter=_any(r"^vite v\d\S* building\b", r"^watching for file changes\.\.\."),
    quiet=1.5,
)
NODEMON = Watcher(
    "nodemon",
    # "[nodemon] starting `node server.js`", "[nodemon] restarting due to changes..."
    begins=_any(r"^\[nodemon\] (?:starting|restarting)\b"),
    # "[nodemon] app crashed - waiting for file changes before starting...",
    # "[nodemon] clean exit - waiting for changes before restart"
    ends=_any(r"^\[nodemon\] .*\bwaiting for (?:file )?changes\b"),
    chatter=_any(r"^\[nodemon\] "),
)
CARGO_WATCH = Watcher(
    "cargo-watch",
    # "[Running 'cargo check']" ... "[Finished running. Exit status: 101]"
    begins=_any(r"^\[Running '.*'\]$"),
    ends=_any(r"^\[Finished running\b.*\]$"),
)
WATCHEXEC = Watcher(
    "watchexec",
    # "[Running: cargo test]" ... "[Command was successful]" /
    # "[Command exited with 101]"
    begins=_any(r"^\[Running: .*\]$"),
    ends=_any(r"^\[Command (?:was successful|exited with \d+|was killed by signal .*)\]$"),
)
PYTEST = Watcher(
    "pytest",
    # pytest-watcher and pytest-watch re-run pytest: pytest's header opens a
    # run ("===== test session starts =====", after pytest-watch's "[Tue Dec  1
    # 09:05:15 2026] Running: python -m pytest"), its last line closes it:
    # "===== 1 failed in 0.09s =====", "=== 1 passed in 0.03s ===".
    begins=_any(r"^=+ test session starts =+$", r"^\[[^\]]*\] Running: "),
    ends=_any(
        r"^=+ .*\b(?:passed|failed|errors?|no tests ran|deselected|skipped)\b.* in [\d.]+s\b.*=+$"
    ),
    # "[ptw] Detected modified: ./cart.py -> ", "Waiting for file changes in
    # /path", "Runner command: pytest", "Change detected: cart.py"
    chatter=_any(
        r"^\[ptw\] ",
        r"^pytest-watcher version\b",
        r"^Runner command: ",
        r"^Waiting for file changes in ",
        r"^Change detected: ",
    ),
)
DOTNET = Watcher(
    "dotnet-watch",
    # "dotnet watch ⌚ File changed: ./Program.cs.", "dotnet watch 🔧 Building...",
    # (.NET 5 and earlier: "watch : File changed: ...", "watch : Started")
    begins=_any(
        r"^dotnet watch\b.*\b(?:File changed:|Building\.\.\.)",
        r"^watch : (?:File changed:|Started)",
    ),
    # "dotnet watch ❌ Exited with error code 1", "dotnet watch ⏳ Waiting for a
    # file to change before restarting dotnet...", "watch : Exited"
    ends=_any(
        r"^(?:dotnet watch\b.*|watch : )(?:Exited\b|Waiting for a file to change)",
    ),
    # its other notices ("dotnet watch 🚀 Started", "🔥 Hot reload enabled", "💡 Press ...")
    chatter=_any(r"^dotnet watch\b", r"^watch : ", r"^\s*💡"),
)

WATCHERS: tuple[Watcher, ...] = (
    TSC,
    VITEST,
    JEST,
    WEBPACK,
    VITE,
    NODEMON,
    CARGO_WATCH,
    WATCHEXEC,
    PYTEST,
    DOTNET,
)

# Every known banner: for a command faultlens was told is a watcher but
# cannot name (a script, `make watch`).
AUTO = Watcher(
    "auto",
    begins=lambda line: any(w.begins(line) for w in WATCHERS),
    ends=lambda line: any(w.ends(line) for w in WATCHERS),
    chatter=lambda line: any(w.chatter(line) for w in WATCHERS),
    failures=lambda line: next((n for w in WATCHERS if (n := w.failures(line)) is not None), None),
)


def generic(
    begin: str | None, end: str | None, *, quiet: float | None = None, name: str = "custom"
) -> Watcher:
    """A watcher from a begin / end regular expression (either may be None)
    and an optional quiet period.  Raises re.error for a bad pattern."""
    begins = re.compile(begin).search if begin else None
    ends = re.compile(end).search if end else None
    return Watcher(
        name,
        begins=(lambda line: begins(line) is not None) if begins else _never,
        ends=(lambda line: ends(line) is not None) if ends else _never,
        quiet=quiet,
    )


# -- which watcher a command starts ---------------------------------------------------
_ENV = lazy_compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_RUNNERS = {"npx", "bunx", "pnpx"}  # run the next word as a package's binary
_EXEC = {"npm": {"exec", "x"}, "pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"}, "bun": {"x"}}
_PYTHON = lazy_compile(r"^python(?:\d+(?:\.\d+)?)?$")


def _program(argv: Sequence[str]) -> list[str]:
    """`argv` from the program that does the work: past `env X=1`, `npx`,
    `npm exec --`, `yarn`, `python -m`, `node path/to/bin/tsc`."""
    words = list(argv)
    while words:
        name = os.path.basename(words[0])
        if _ENV.match(words[0]) or name == "env":
            words = words[1:]
        elif name in _RUNNERS or (name in _EXEC and words[1:2] and words[1] in _EXEC[name]):
            words = words[1 if name in _RUNNERS else 2 :]
            while words and words[0].startswith("-"):  # npx --yes, npm exec --
                words = words[1:]
        elif name == "yarn" and words[1:2] and not words[1].startswith("-"):
            words = words[1:]  # yarn tsc --watch
        elif _PYTHON.match(name) and words[1:2] == ["-m"]:
            words = words[2:]
        elif name in ("node", "nodejs") and words[1:2] and not words[1].startswith("-"):
            words = words[1:]
        else:
            break
    return words


def _has(words: Sequence[str], *flags: str) -> bool:
    return any(w in flags or any(w.startswith(f + "=") for f in flags) for w in words)


def watcher_for(argv: Sequence[str]) -> Watcher | None:
    """The watcher `argv` starts, or None when it is no (known) watcher."""
    words = _program(argv)
    if not words:
        return None
    name = os.path.basename(words[0])
    rest = words[1:]
    if name in ("tsc", "tsgo") and _has(rest, "-w", "--watch"):
        return TSC
    if name == "vitest":
        sub = next((w for w in rest if not w.startswith("-")), "")
        if sub in ("watch", "dev") or (_has(rest, "-w", "--watch") and sub != "run"):
            return VITEST
        return None
    if name == "jest" and _has(rest, "--watch", "--watchAll"):
        return JEST
    if name in ("webpack", "webpack-cli"):
        if rest[:1] in (["watch"], ["serve"]) or _has(rest, "-w", "--watch"):
            return WEBPACK
        return None
    if name == "vite" and rest[:1] == ["build"] and _has(rest, "-w", "--watch"):
        return VITE
    if name == "nodemon":
        return NODEMON
    if name == "cargo-watch" or (name == "cargo" and rest[:1] == ["watch"]):
        return CARGO_WATCH
    if name == "watchexec":
        return WATCHEXEC
    if name in ("ptw", "pytest-watch", "pytest-watcher", "pytest_watcher"):
        return PYTEST
    if name == "dotnet" and "watch" in rest[:2]:
        return DOTNET
    return None


# -- splitting the stream ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Data:
    """Output of the current cycle (whole lines, or the unfinished last one)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Begin:
    """A cycle begins (its number counts from 1)."""

    cycle: int


@dataclass(frozen=True, slots=True)
class End:
    """The current cycle ended; `failures` is the watcher's own count, if it printed one."""

    cycle: int
    failures: int | None = None


Piece = Data | Begin | End


class CycleReader:
    """Splits a watcher's output into cycles.

    `feed(chunk)` returns what the chunk holds, in order: `Data` for the
    current cycle, `Begin` and `End` at the boundaries.  `quiet()` is called
    when no output came for the watcher's quiet period; `close()` when the
    process exited.  Lines are decided when complete; an unfinished last
    line waits for its end (up to MAX_LINE bytes)."""

    MAX_LINE = 64 * 1024

    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher
        self.cycle = 1
        self.open = True
        self.content = False  # the open cycle printed something besides banners
        self._partial = b""

    def feed(self, chunk: bytes) -> list[Piece]:
        out: list[Piece] = []
        lines = (self._partial + chunk).split(b"\n")
        self._partial = lines.pop()  # the unfinished last line
        for line in lines:
            self._line(line + b"\n", out)
        if len(self._partial) > self.MAX_LINE:  # a line with no end: hand it over as it is
            if self.open:
                self.content = True
                self._data(out, self._partial)
            self._partial = b""
        return out

    def quiet(self) -> list[Piece]:
        """No output for the watcher's quiet period: a cycle with output ends."""
        out: list[Piece] = []
        if self.open and self.content:
            self._end(out, None)
        return out

    def close(self) -> list[Piece]:
        """The process exited: its unfinished last line, and the open cycle's end."""
        out: list[Piece] = []
        if self._partial:
            self._line(self._partial, out)
            self._partial = b""
        if self.open and self.content:
            self._end(out, None)
        return out

    # -- the rules ----------------------------------------------------------------------
    def _line(self, line: bytes, out: list[Piece]) -> None:
        text = plain(line.decode("utf-8", "replace"))
        if self.watcher.ends(text):
            if self.open:  # else a second end banner (dotnet's "Exited", then "Waiting")
                self._data(out, line)
                self._end(out, self.watcher.failures(text))
        elif self.watcher.begins(text):
            if self.open and self.content:
                self._end(out, None)
            if not self.open:
                self._begin(out)
            self._data(out, line)
        elif not text.strip() or self.watcher.chatter(text):
            if self.open:
                self._data(out, line)
        else:
            if not self.open:
                self._begin(out)
            self.content = True
            self._data(out, line)

    def _begin(self, out: list[Piece]) -> None:
        self.open = True
        self.content = False
        out.append(Begin(self.cycle))

    def _end(self, out: list[Piece], failures: int | None) -> None:
        out.append(End(self.cycle, failures))
        self.open = False
        self.content = False
        self.cycle += 1

    @staticmethod
    def _data(out: list[Piece], data: bytes) -> None:
        if out and isinstance(out[-1], Data):
            out[-1] = Data(out[-1].data + data)
        else:
            out.append(Data(data))
