"""What every test-runner family shares: the types a re-run is built from
(`SingleTest`, `Selection`, `Runner`, `Refused`) and the argv helpers (the
runner's word found, ids escaped, path-like values checked against the
workspace, the original selection dropped).  Pure, like the families
(recipes/fixes/test_runners.py puts them in one table).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# Whether a path (relative to the run's cwd, or absolute) lies inside the workspace.
Inside = Callable[[str], bool]


@dataclass(slots=True, frozen=True)
class SingleTest:
    """One failing test, as a runner can be told to run it."""

    framework: str  # a Runner.name
    test_id: str  # pytest node id / unittest dotted id / full title / Go or Rust name
    package: str | None = None  # Go: the package's directory (./pkg)
    file: str | None = None  # the test file (JS runners), relative to the run's cwd
    path: tuple[str, ...] = ()  # JS: suite names then the test name


@dataclass(slots=True)
class Selection:
    """One command re-running some tests of one runner."""

    runner: str
    argv: list[str]
    tests: list[SingleTest]
    cwd: str = "."  # relative to the run's cwd


class Refused(ValueError):
    """The tests cannot be re-run safely (the message says why)."""


@dataclass(slots=True, frozen=True)
class Runner:
    name: str
    detect: Callable[[Sequence[str]], int | None]  # index of the runner's word in argv
    select: Callable[[list[str], int, list[SingleTest], Inside], list[Selection]]
    # Flags the runner takes with a separate value (so the value is not a path).
    value_flags: frozenset[str] = field(default_factory=frozenset)


def base_name(arg: str) -> str:
    name = os.path.basename(arg)
    return name[:-4] if name.endswith((".cmd", ".exe")) else name


def regex_escape(text: str) -> str:
    """Escape a title for a JavaScript RegExp (jest/vitest `-t`, mocha `--grep`,
    node `--test-name-pattern`), like the spec's RegExp.escape for what matters."""
    escaped = re.sub(r"([\\^$.*+?()\[\]{}|/-])", r"\\\1", text)
    # A control character (a NUL in a title) cannot be an argv byte: \xNN in the pattern.
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", escaped)


def check_path(value: str, inside: Inside, what: str) -> None:
    if not value or "\x00" in value:
        raise Refused(f"empty or NUL {what} from output")
    if not inside(value):
        raise Refused(f"{what} {value!r} lies outside the workspace")


def no_option(value: str, what: str) -> None:
    if value.startswith("-"):
        raise Refused(f"{what} {value!r} would be read as an option")


def drop_positionals(
    args: list[str], value_flags: frozenset[str], is_path: Callable[[str], bool]
) -> list[str]:
    """The arguments without the path-like positionals (the original selection)."""
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            out.append(arg)
            skip = False
            continue
        if arg.startswith("-"):
            out.append(arg)
            if arg in value_flags:
                skip = True
            continue
        if is_path(arg):
            continue
        out.append(arg)
    return out


def find_word(argv: Sequence[str], names: tuple[str, ...]) -> int | None:
    for i, arg in enumerate(argv):
        if base_name(arg) in names:
            return i
    return None


def without_flags(args: list[str], flags: tuple[str, ...]) -> list[str]:
    """`args` without the given flags (and their separate or `=` values)."""
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in flags:
            skip = True
            continue
        if any(arg.startswith(f + "=") for f in flags):
            continue
        out.append(arg)
    return out
