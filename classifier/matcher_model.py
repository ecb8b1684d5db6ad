"""What a VS Code problem matcher is, once read: its line patterns, the
background task's begin/end patterns, a built-in name standing for
faultlens' own rules, and the one-line error for a matcher VS Code would
refuse."""

from __future__ import annotations

from dataclasses import dataclass

import regex


class MatcherError(ValueError):
    """A problem matcher VS Code would refuse; one line."""


@dataclass(frozen=True)
class LinePattern:
    """One pattern of a matcher."""

    source: str
    regex: regex.Pattern[str]
    groups: dict[str, int]  # field -> group number
    kind: str = "location"  # or "file"
    loop: bool = False


@dataclass(frozen=True)
class WatchPattern:
    regex: regex.Pattern[str]
    file: int | None = None

    def matches(self, line: str) -> bool:
        try:
            return self.regex.search(line, timeout=0.1) is not None
        except TimeoutError:
            return False


@dataclass(frozen=True)
class Background:
    """What a watcher needs of a background task's matcher: where a build
    cycle begins and ends in the task's output."""

    begins: WatchPattern
    ends: WatchPattern
    active_on_start: bool = False

    def begins_at(self, line: str) -> bool:
        return self.begins.matches(line)

    def ends_at(self, line: str) -> bool:
        return self.ends.matches(line)


@dataclass(frozen=True)
class ProblemMatcher:
    owner: str
    patterns: tuple[LinePattern, ...]
    file_location: str = "relative"  # relative | absolute | autodetect
    file_prefix: str | None = None  # the base path of relative / autodetect
    severity: str = "error"
    source: str | None = None
    background: Background | None = None


@dataclass(frozen=True)
class BuiltinRef:
    """A built-in name that stands for faultlens' own built-in rules."""

    name: str
    rules: tuple[str, ...]  # rule ids or globs
    background: Background | None = None
