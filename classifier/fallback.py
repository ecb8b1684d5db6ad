"""Nothing unexplained: the record for a failed command that no rule matched.

When a command exits non-zero and no rule recognised its output, faultlens
still reports one failure, classified by what the command is: a test runner
→ test; a compiler, bundler, linter, formatter or type checker → compile; a
security scanner → trust_gate; git → branch_divergence; an agent CLI →
prompt_delivery; a package manager, network, container or deploy tool →
infra.  A command known to none of those is read by its name (`check-*`,
`*-lint` → compile, `*test*` → test, `*audit*` → trust_gate, `deploy*` →
infra), else by its output (a failing assertion → test), else it is the
project's own command failing on its own terms → compile: never infra by
default.  The most error-like lines of the output are the signal, rule
``fallback``, a low confidence.  An authentication or network failure is
infra whatever the command was ("Permission denied (publickey)" on a `git
push`).

Pure functions: the engine hands over the lines it kept.  What a command
is: command_kinds.py (re-exported here for the modules that ask).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .command_kinds import (
    argv_of,
    command_category,
    command_kind,
    command_tool,
    exit_is_a_state,
    output_category,
)
from .lazyre import lazy_compile
from .redact import shown_command
from .taxonomy import FailureType

CONFIDENCE = 0.3
MAX_LINES = 3

# Failures that are infra whatever command printed them.
_INFRA_LINE = lazy_compile(
    r"Permission denied \(publickey|Host key verification failed|Could not read from remote repository"
    r"|Authentication failed|could not resolve host|Could not resolve hostname|Connection refused"
    r"|Connection reset|Connection timed out|Network is unreachable|No space left on device"
    r"|SSL certificate problem|The requested URL returned error: 5\d\d",
    re.IGNORECASE,
)
_ERRORISH = lazy_compile(
    r"\b(?:error|errors|fatal|panic|panicked|exception|traceback|failed|failure|fail"
    r"|segmentation fault|core dumped|denied|refused|not found|no such file|cannot|can't|could not"
    r"|unable to|timed out|timeout|killed|aborted|abort|invalid|missing|unexpected|exit (?:code|status))\b",
    re.IGNORECASE,
)
_STRONG = lazy_compile(
    r"^\s*(?:error|fatal|panic|E|FAIL|FAILED|ERR!?)\b[:\[ ]|Error:|Exception:", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Fallback:
    """What the fallback record says."""

    category: FailureType
    signal: str
    message: str
    log_line: int | None
    lines: tuple[str, ...]
    command: str


def score(line: str) -> int:
    """How error-like a line looks (0: not at all)."""
    text = line.strip()
    if len(text) < 3 or not any(c.isalpha() for c in text):
        return 0
    s = 2 * len(_ERRORISH.findall(text))
    if _STRONG.search(text):
        s += 3
    if _INFRA_LINE.search(text):
        s += 5
    return s


def pick_lines(candidates: Iterable[tuple[int, str]], n: int = MAX_LINES) -> list[tuple[int, str]]:
    """The n most error-like lines, in output order (later lines win ties,
    as a failure is usually told last); the last non-blank line when none
    looks like an error."""
    seen: dict[int, str] = {}
    for no, line in candidates:
        if line.strip():
            seen[no] = line.rstrip()
    if not seen:
        return []
    ranked = sorted(seen.items(), key=lambda it: (score(it[1]), it[0]), reverse=True)
    best = [it for it in ranked[:n] if score(it[1]) > 0]
    if not best:
        last = max(seen)
        best = [(last, seen[last])]
    return sorted(best)


def build(
    command: Sequence[str] | str | None,
    exit_code: int,
    candidates: Iterable[tuple[int, str]],
) -> Fallback:
    """The fallback record's content for a failed command."""
    argv = argv_of(command)
    shown = shown_command(argv) if argv else "the command"
    lines = pick_lines(candidates)
    kind = command_kind(argv) if argv else FailureType.INFRA
    category = kind or output_category(t for _, t in lines) or FailureType.COMPILE
    if any(_INFRA_LINE.search(text) for _, text in lines):
        category = FailureType.INFRA
    head = f"{shown} exited with status {exit_code}"
    if lines:
        top = max(lines, key=lambda it: (score(it[1]), it[0]))
        signal, log_line = top[1].strip(), top[0]
        message = f"{head}; no rule matched. Output: " + " | ".join(t.strip() for _, t in lines)
    else:
        signal, log_line = head, None
        message = f"{head} and printed nothing."
    return Fallback(
        category=category,
        signal=signal,
        message=message,
        log_line=log_line,
        lines=tuple(t.strip() for _, t in lines),
        command=shown,
    )


__all__ = [
    "CONFIDENCE",
    "Fallback",
    "argv_of",
    "build",
    "command_category",
    "command_kind",
    "command_tool",
    "exit_is_a_state",
    "output_category",
    "pick_lines",
    "score",
]
