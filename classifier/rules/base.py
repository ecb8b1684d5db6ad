"""The building blocks of a detection rule.

A rule is a plain function decorated with :func:`rule`.  The decorator holds
what the engine needs (a line pattern, the literal *triggers* that any
matching line must contain, the category) and the function's docstring is the
rule's documentation, with the fixed headings "What it detects", "Example
output", "Recipe" and "References" (checked by the test suite).

The function receives the regex match and a :class:`LineContext`, and returns

* a :class:`Hit` (one failure found on this line),
* a :class:`Block` (a multi-line report has started: the block is fed the
  following lines until it says it is done, then yields its hits), or
* ``None`` (the line looked right but is not a failure; the next rule is tried).

Rules never do I/O except through the context (`ctx.resolve`, `ctx.exists`),
so the registry stays pure and fast.

A rule's pattern is compiled on its first search (:class:`LazyPattern`): the
prefilter keeps most rules off most outputs, and compiling all ~220 patterns
at start-up was a sixth of what a run on a short output did.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..lazyre import lazy_compile
from ..recache import compile_pattern
from ..taxonomy import FailureType

FALLBACK = "fallback"  # Hit.key[0] of a summary that stands only when nothing else was found
# Hit.key[0] of an output line saying warnings failed the run ("ESLint found too
# many warnings"): it keeps the run's warnings (classifier/warnings_policy.py) and,
# like a FALLBACK summary, stands as a record only when nothing else was found.
WARNINGS_FAILED = "warnings-failed"
# A line of carets only: what compilers and runtimes print under the source
# line they quote (dart's diagnostics, Ruby 3.4's error highlight).
CARET_LINE = lazy_compile(r"^\s*\^+\s*$")


@dataclass(slots=True)
class Hit:
    """One failure as a rule sees it, before it becomes a record."""

    signal: str
    message: str = ""
    file: str | None = None
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    code: str | None = None
    tool: str | None = None
    category: FailureType | None = None  # None: the rule's own category
    log_line: int | None = None
    task: str | None = None
    confidence: float = 1.0
    hint: dict[str, Any] = field(default_factory=dict)
    related: list[tuple[str, int | None, int | None, str]] = field(default_factory=list)
    # Two hits with the same key are one failure (a summary repeating a detail).
    # A key whose first item is FALLBACK marks a summary line ("could not
    # compile", "make: *** Error 1"): its record is dropped at close() when any
    # more specific record was found (postprocess.drop_redundant_fallbacks).
    key: tuple[Any, ...] | None = None
    rule_id: str = ""
    # A finding that does not fail the tool's run by its defaults (gcc's
    # `warning:`, eslint's `warning`): a record only when the run failed
    # because of warnings (classifier/warnings_policy.py decides, at close).
    warning: bool = False
    # Set by the engine: the file was already resolved against the cwd.
    resolved: bool = False


class Block(Protocol):
    """A multi-line report being read.

    `feed` is called with each following line; it returns True when the line
    belongs to the report (consumed), False when the report ended before
    this line (the engine then gives the line to the other rules), and None
    when the report goes on but the line is not its own (the other rules see
    it too: an errorformat's ignored lines inside a multi-line entry).
    `finish` returns the hits; it is called once, when `feed` returned False,
    when the block reached its line limit, or at the end of the output.
    """

    max_lines: int

    def feed(self, line: str, line_no: int) -> bool | None: ...

    def finish(self) -> Iterable[Hit]: ...


class LineContext(Protocol):
    """What a rule may know besides its match."""

    line: str
    line_no: int  # 1-based line number in the output

    @property
    def cwd(self) -> str:
        """The directory the output was produced in."""
        ...

    @property
    def state(self) -> dict[str, Any]:
        """Scratch space for stateful rules, kept for one output, by rule id
        (an errorformat's directory and file stacks)."""
        ...

    def before(self, n: int) -> list[str]:
        """Up to n lines preceding this one, oldest first."""
        ...

    def exists(self, path: str) -> bool:
        """Whether the path (as printed) names a file in the working tree."""
        ...

    def in_project(self, path: str) -> bool:
        """Whether the path is inside the working tree and not in a vendored or
        installed library folder (site-packages, node_modules, ...)."""
        ...

    def resolve(self, path: str) -> str:
        """The path as a record reports it: relative to the working directory
        when inside it (CI-runner paths mapped), else absolute or as printed.
        For paths a rule puts in a hint (the engine resolves source files)."""
        ...


RuleFunc = Callable[[re.Match[str], LineContext], "Hit | Block | None"]


class LinePattern(Protocol):
    """What the engine needs of a rule's pattern: its text and `search`
    over one line (a compiled `re` pattern, a :class:`LazyPattern`, a
    project rule's time-limited pattern)."""

    @property
    def pattern(self) -> str: ...

    def search(self, string: str, /) -> re.Match[str] | None: ...


class LazyPattern:
    """A regex compiled on first use.

    The first call of a method compiles the pattern (its program stored
    between runs: classifier/recache.py) and puts the compiled pattern's own
    bound methods on the instance, so every later call is the compiled
    pattern's, at its cost: the engine's hot path pays nothing for the
    laziness.  Equal, like compiled patterns, when the text and flags are.
    :meth:`compile` compiles at once (the tests prove every built-in pattern
    compiles)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def compile(self) -> re.Pattern[str]:
        """The compiled pattern; later method calls go straight to it."""
        compiled: re.Pattern[str] = compile_pattern(self.pattern, self.flags)
        self.__dict__.update(search=compiled.search, match=compiled.match)
        return compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compile().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compile().match(string, pos, endpos)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LazyPattern):
            return NotImplemented
        return (self.pattern, self.flags) == (other.pattern, other.flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags))

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self.flags!r})"


@dataclass(frozen=True, slots=True)
class Rule:
    """A registered detection rule."""

    id: str
    category: FailureType
    tool: str
    pattern: LinePattern
    triggers: tuple[str, ...]
    func: RuleFunc
    family: str
    url: str = ""
    priority: int = 0  # higher runs first when several rules see one line
    enabled: bool = True

    @property
    def doc(self) -> str:
        return (self.func.__doc__ or "").strip()

    @property
    def summary(self) -> str:
        return self.doc.splitlines()[0] if self.doc else self.id


def match_above(
    ctx: LineContext, pattern: re.Pattern[str], n: int, *, search: bool = False
) -> re.Match[str] | None:
    """The match of `pattern` (anchored at the line's start; anywhere in it
    with `search`) on the nearest of the `n` lines above this one that it
    matches, else None."""
    find = pattern.search if search else pattern.match
    for line in lines_above(ctx, n):
        if m := find(line):
            return m
    return None


def lines_above(ctx: LineContext, n: int) -> Iterator[str]:
    """`reversed(ctx.before(n))`: the n lines above this one, nearest first,
    taken a few more at a time.  What a rule looks back for is most often
    close by, and `n` is its farthest (2,000 lines for an rspec section's
    header), so a loop that stops at what it found never has the lines
    beyond it decoded."""
    for lines, fresh in _growing_before(ctx, n):
        yield from reversed(lines[:fresh])


def find_above(
    ctx: LineContext, n: int, accept: Callable[[str], bool]
) -> tuple[list[str], int] | None:
    """The nearest of the `n` lines above this one that `accept` takes, as
    (lines, i): lines[i] is that line and lines[i + 1 :] are the ones below
    it, oldest first, as `ctx.before` gives them (fewer above it than
    `ctx.before(n)` would hold: they are taken as `lines_above` takes
    them); None when no line is taken."""
    for lines, fresh in _growing_before(ctx, n):
        for i in range(fresh - 1, -1, -1):
            if accept(lines[i]):
                return lines, i
    return None


def _growing_before(ctx: LineContext, n: int) -> Iterator[tuple[list[str], int]]:
    """`ctx.before(k)` for k growing up to n (16, 128, 1,024, ...), each with
    how many of its lines, counted from the oldest, the earlier ones lacked."""
    done = 0  # lines already given, counted from the nearest
    k = min(n, _FIRST_LOOK)
    while True:
        lines = ctx.before(k)
        yield lines, len(lines) - done
        if k >= n or len(lines) < k:  # all n given, or the output starts there
            return
        done = len(lines)
        k = min(n, k * 8)


_FIRST_LOOK = 16  # lines lines_above and find_above take first


MAX_DIGITS = 18  # more is no line or column number (and int() refuses 4300)


def positive_int(value: str | None) -> int | None:
    """A printed line or column number: a positive int, else None (ASCII
    digits only: `²` is a digit to str.isdigit and no number to int)."""
    if not value or not (value.isascii() and value.isdigit()):
        return None
    digits = value.lstrip("0")
    return int(digits) if digits and len(digits) <= MAX_DIGITS else None


def hit_from_match(m: re.Match[str], ctx: LineContext, **overrides: Any) -> Hit:
    """A Hit from a match's named groups: file, line, column, end_line,
    end_column, code, message (any of them may be absent)."""
    g = m.groupdict()

    def num(name: str) -> int | None:
        return positive_int(g.get(name))

    values: dict[str, Any] = {
        "signal": ctx.line.strip(),
        "message": (g.get("message") or ctx.line).strip(),
        "file": (g.get("file") or "").strip() or None,
        "line": num("line"),
        "column": num("column"),
        "end_line": num("end_line"),
        "end_column": num("end_column"),
        "code": g.get("code") or None,
    }
    values.update(overrides)
    return Hit(**values)
