"""Precedence between categories when several rules saw one failure.

Cause over symptom comes first and is not here: each test-runner rule asks
rules/causes.py (python_causes.py, js_causes.py) whether the error a test
printed names a cause (a missing name or module: compile; a refused
connection or an unset variable: infra) and gives its record that category
at the throwing frame.  What the rules could not decide alone is decided
here, after the whole output is read; then classifier/grouping.py folds the
failing tests of one cause into one record.

The table (docs/precedence.md explains each row):

1. compile over test: a test run that failed because code did not import or
   compile (ModuleNotFoundError, ImportError, NameError, ReferenceError "is
   not defined", SyntaxError, a TS/rustc error inside jest/cargo test) is a
   compile failure.  The test record is merged into the compile record that
   names the same failure, or re-categorised when there is none.
1a. compile or infra over test: a test file that did not run at all
   (node:test's `✖ /dir/a.test.js 'test failed'`, hint file_failed) is
   merged into the compile or infra record printed just before it.
2. mcp_startup over infra: "connection refused" or a timeout while an MCP
   server starts is the server's start-up failure.  The infra record is
   merged into a nearby mcp_startup record, or re-categorised when it names
   an MCP server itself.
3. branch_divergence over infra: a push rejected as non-fast-forward (or
   "fetch first", "stale info") is a divergence, not a CI/infra failure.
4. infra over branch_divergence: an authentication or network failure
   during a git command ("Permission denied (publickey)", "Could not read
   from remote repository", "Could not resolve host") is infra.
5. trust_gate over compile: a linter finding from a security plugin
   (eslint-plugin-security's `security/detect-*` rules) is a trust gate.
6. anything specific over a CI step summary: GitHub Actions' "Process
   completed with exit code N." only says which step failed; when the log
   shows why (a conflict, a test, a leaked key), those records stand alone.
7. the runner's verdict over what stopping the job printed: a time limit
   or a lost runner is followed by the runner's cancel (`The operation was
   canceled.`), and a stopped step's process reports its interrupt (the
   runner sends SIGINT first: Python's KeyboardInterrupt traceback,
   pytest's `!!! KeyboardInterrupt !!!`): one failure, the verdict's.

Pure: records in, records out.  Two records are "the same failure" when
they name the same thing (one's message is contained in the other's text)
or when they sit within WINDOW lines of each other in the output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .fingerprint import fingerprint
from .grouping import test_location
from .lazyre import lazy_compile
from .record import FailureRecord, Location
from .taxonomy import FailureType, category

WINDOW = 30

_COMPILE_IN_TEST = lazy_compile(
    r"\b(?:ModuleNotFoundError|ImportError|NameError|SyntaxError|IndentationError|TabError):"
    r"|\bReferenceError: [\w$]+ is not defined"
    r"|\bCannot find module '|\berror TS\d{3,5}\b|\berror\[E\d{4}\]|\bcannot find symbol\b"
    r"|\bcould not compile\b|\bFailed to compile\b|\bcompilation failed\b|\bbuild failed\b",
    re.IGNORECASE,
)
_MCP = lazy_compile(r"\bMCP\b|\bmcp[ _-]?server|modelcontextprotocol", re.IGNORECASE)
_PUSH_DIVERGENCE = lazy_compile(
    r"\((?:non-fast-forward|fetch first|stale info)\)|Updates were rejected because the"
    r"|tip of your current branch is behind",
    re.IGNORECASE,
)
_PUSH_GENERIC = lazy_compile(r"failed to push some refs|\[rejected\]", re.IGNORECASE)
_AUTH_OR_NETWORK = lazy_compile(
    r"Permission denied \(publickey|Host key verification failed|Could not read from remote repository"
    r"|Authentication failed|could not resolve host|Could not resolve hostname|Connection refused"
    r"|Connection reset|Connection timed out|Network is unreachable|SSL certificate problem"
    r"|The requested URL returned error: [45]\d\d",
    re.IGNORECASE,
)
_MCP_CAUSE = lazy_compile(
    r"connection refused|ECONNREFUSED|ECONNRESET|connection reset|timed out|timeout|ENOENT"
    r"|spawn|exited|EPIPE|broken pipe|connection closed|handshake|initiali[sz]e",
    re.IGNORECASE,
)
_SECURITY_LINT = lazy_compile(r"\bsecurity(?:-node)?/detect-[\w-]+|\bno-unsanitized/[\w-]+")

# Text (lowercase) that every match of each case-insensitive regex above
# contains: on ASCII text (where ignoring case is lowercasing) the regex runs
# only when one is there, as these long alternations are tried at every
# position.  Text with other characters (`ſ` matches `s` when ignoring case)
# always goes to the regex.
_NEEDLES: dict[re.Pattern[str], tuple[str, ...]] = {
    _COMPILE_IN_TEST: (
        "error:",
        "referenceerror: ",
        "cannot find",
        "error ts",
        "error[e",
        "could not compile",
        "failed to compile",
        "compilation failed",
        "build failed",
    ),
    _MCP: ("mcp", "modelcontextprotocol"),
    _PUSH_DIVERGENCE: (
        "non-fast-forward",
        "fetch first",
        "stale info",
        "updates were rejected because the",
        "tip of your current branch is behind",
    ),
    _PUSH_GENERIC: ("failed to push some refs", "[rejected]"),
    _AUTH_OR_NETWORK: (
        "permission denied (publickey",
        "host key verification failed",
        "could not read from remote repository",
        "authentication failed",
        "could not resolve host",
        "connection refused",
        "connection reset",
        "connection timed out",
        "network is unreachable",
        "ssl certificate problem",
        "the requested url returned error: ",
    ),
    _MCP_CAUSE: (
        "connection ",
        "econnre",
        "timed out",
        "timeout",
        "enoent",
        "spawn",
        "exited",
        "epipe",
        "broken pipe",
        "handshake",
        "initiali",
    ),
}


def _found(pattern: re.Pattern[str], text: str) -> bool:
    """bool(pattern.search(text)), skipping the search where it cannot match."""
    if text.isascii():
        low = text.lower()
        if not any(n in low for n in _NEEDLES[pattern]):
            return False
    return pattern.search(text) is not None


def _text(r: FailureRecord) -> str:
    return f"{r.signal}\n{r.message}"


def near(a: FailureRecord, b: FailureRecord, window: int = WINDOW) -> bool:
    """Within `window` lines of each other in the same output."""
    if a.log_file != b.log_file or a.log_line is None or b.log_line is None:
        return False
    return abs(a.log_line - b.log_line) <= window


def names_same(a: FailureRecord, b: FailureRecord) -> bool:
    """One record's message is part of the other's text (e.g. both say
    "No module named 'requests'")."""
    for x, y in ((a, b), (b, a)):
        m = x.message.strip().lower()
        if len(m) >= 12 and m in _text(y).lower():
            return True
    if a.source_file and a.source_file == b.source_file and a.source_line == b.source_line:
        return a.source_line is not None
    return False


def same_failure(a: FailureRecord, b: FailureRecord) -> bool:
    return names_same(a, b) or near(a, b)


def recategorise(r: FailureRecord, ft: FailureType, why: str) -> None:
    """Move a record to another category (severity, recipe, id follow)."""
    if r.failure_type == ft:
        return
    cat = category(ft)
    r.hint.setdefault("recategorised", f"{r.failure_type.value} → {ft.value}: {why}")
    r.failure_type = ft
    r.severity = cat.severity
    r.auto_recoverable = cat.auto_recoverable
    r.recipe = cat.recipe
    r.id = fingerprint(ft.value, r.code or r.tool, r.source_file, r.message or r.signal)


def absorb(winner: FailureRecord, loser: FailureRecord, why: str) -> None:
    """Fold what the losing record knew into the winner."""
    for k, v in loser.hint.items():
        if k != "file_failed":  # the loser's own state, not the winner's
            winner.hint.setdefault(k, v)
    seen = winner.hint.setdefault("also_seen_as", [])
    if isinstance(seen, list):
        seen.append({"failure_type": loser.failure_type.value, "rule": loser.rule, "why": why})
    if isinstance(loser.hint.get("runner"), str):
        # a failing test: it counts among the tests the winner's cause failed
        loc = test_location(loser)
        winner.related.append(loc)
        if loc.test is not None:
            winner.keep_raw_test(loc.test, loser.raw_hint("test_id"))
    elif loser.source_file and (loser.source_file, loser.source_line) != (
        winner.source_file,
        winner.source_line,
    ):
        winner.related.append(
            Location(file=loser.source_file, line=loser.source_line, message=loser.signal)
        )
    if winner.source_file is None and loser.source_file:
        winner.source_file = loser.source_file
        winner.source_line = loser.source_line
        winner.source_column = loser.source_column


@dataclass(frozen=True, slots=True)
class Row:
    """One precedence row: `loser` records that `applies` yield to `winner`."""

    winner: FailureType
    loser: FailureType
    applies: Callable[[FailureRecord], bool]
    # When no winner record is the same failure: re-categorise the loser?
    recategorise_alone: Callable[[FailureRecord], bool]
    why: str


def _file_failed(r: FailureRecord) -> bool:
    """A test file that did not run at all (node:test's `✖ /dir/a.test.js`):
    the error printed just before it says why."""
    return r.hint.get("file_failed") is True


TABLE: tuple[Row, ...] = (
    Row(
        FailureType.COMPILE,
        FailureType.TEST,
        lambda r: _found(_COMPILE_IN_TEST, _text(r)),
        lambda r: True,
        "the tests could not run because code did not import or compile",
    ),
    Row(
        FailureType.COMPILE,
        FailureType.TEST,
        _file_failed,
        lambda r: False,
        "the test file did not load: the error printed before it is why",
    ),
    Row(
        FailureType.INFRA,
        FailureType.TEST,
        _file_failed,
        lambda r: False,
        "the test file did not load: the error printed before it is why",
    ),
    Row(
        FailureType.MCP_STARTUP,
        FailureType.INFRA,
        lambda r: _found(_MCP_CAUSE, _text(r)) or _found(_MCP, _text(r)),
        lambda r: _found(_MCP, _text(r)),
        "the connection failure happened while an MCP server was starting",
    ),
    Row(
        FailureType.BRANCH_DIVERGENCE,
        FailureType.INFRA,
        lambda r: _found(_PUSH_DIVERGENCE, _text(r)) or _found(_PUSH_GENERIC, _text(r)),
        lambda r: _found(_PUSH_DIVERGENCE, _text(r)),
        "the push was rejected because the remote branch moved on",
    ),
    Row(
        FailureType.INFRA,
        FailureType.BRANCH_DIVERGENCE,
        lambda r: _found(_AUTH_OR_NETWORK, _text(r)),
        lambda r: True,
        "git could not reach or authenticate to the remote",
    ),
    Row(
        FailureType.TRUST_GATE,
        FailureType.COMPILE,
        lambda r: bool(_SECURITY_LINT.search(f"{_text(r)}\n{r.code or ''}")),
        lambda r: True,
        "the linter finding comes from a security rule",
    ),
)


def is_ci_step_summary(r: FailureRecord) -> bool:
    """A CI runner's "step failed" line (GitHub Actions `##[error]Process
    completed with exit code N.`): it says which step failed, not why."""
    return r.failure_type == FailureType.INFRA and (
        r.rule == "infra.github_actions" or r.hint.get("kind") == "ci"
    )


def drop_ci_step_summaries(records: list[FailureRecord]) -> list[FailureRecord]:
    """6. A CI step summary yields to any specific failure in the same log;
    the first of them learns which step failed."""
    specific = [r for r in records if not is_ci_step_summary(r)]
    if not specific or len(specific) == len(records):
        return records
    steps = [r.hint.get("step") for r in records if is_ci_step_summary(r)]
    first = specific[0]
    first.hint.setdefault("ci_steps_failed", [s for s in steps if s] or len(steps))
    return specific


# hint["kind"] of the runner's verdicts on a job (the primary tier 0, classifier/primary.py)
# and of a process's report that it was interrupted (rules/python/interpreter.py, pytest's)
_CANCELLED, _INTERRUPTED = "cancelled", "interrupted"


def fold_into_runner_verdict(records: list[FailureRecord]) -> list[FailureRecord]:
    """7. What the runner's stopping of a job printed joins its verdict: the
    cancel after a time limit or a lost runner, an interrupted process."""
    from .primary import RUNNER_VERDICTS

    verdicts = [
        r
        for r in records
        if r.failure_type is FailureType.INFRA and r.hint.get("kind") in RUNNER_VERDICTS
    ]
    if not verdicts:
        return records
    winner = next((r for r in verdicts if r.hint.get("kind") != _CANCELLED), verdicts[0])
    out: list[FailureRecord] = []
    for r in records:
        kind = r.hint.get("kind")
        if r is winner or not (kind == _INTERRUPTED or (r in verdicts and kind == _CANCELLED)):
            out.append(r)
            continue
        why = "the runner stopped the job" if kind == _CANCELLED else "the runner interrupted it"
        seen = winner.hint.setdefault("also_seen_as", [])
        if isinstance(seen, list):
            seen.append({"failure_type": r.failure_type.value, "rule": r.rule, "why": why})
        if r.source_file:  # where the stopped process was: a hang's place
            winner.related.append(
                Location(file=r.source_file, line=r.source_line, message=r.signal)
            )
    return out


def apply(records: list[FailureRecord], table: tuple[Row, ...] = TABLE) -> list[FailureRecord]:
    """The records after precedence: losers merged into winners or moved to
    the winning category; order kept."""
    out = fold_into_runner_verdict(drop_ci_step_summaries(list(records)))
    for row in table:
        keep: list[FailureRecord] = []
        for r in out:
            if r.failure_type != row.loser or not row.applies(r):
                keep.append(r)
                continue
            winner = next(
                (w for w in out if w.failure_type == row.winner and same_failure(w, r)), None
            )
            if winner is not None:
                absorb(winner, r, row.why)
                continue
            if row.recategorise_alone(r):
                recategorise(r, row.winner, row.why)
            keep.append(r)
        out = keep
    return _dedupe(out)


def _dedupe(records: list[FailureRecord]) -> list[FailureRecord]:
    """Re-categorised records may now repeat one another: keep the first.
    (Failing tests that repeat one another are one cause's tests: grouping
    folds them, counting them.)"""
    seen: set[tuple[str, str | None, int | None, str]] = set()
    out = []
    for r in records:
        if isinstance(r.hint.get("runner"), str):
            out.append(r)
            continue
        key = (r.failure_type.value, r.source_file, r.source_line, r.signal)
        if key in seen:
            continue
        seen.add(key)
        out.append(r)
    return out
