"""Quarantine and the runner's own count (pure: output and records in,
decisions out).

A quarantined test's failure is reported as quarantined, not blocking.  The
run's exit status is decided without it only where the runner's own summary
lets faultlens tell that nothing else failed: the runner is one of
`EXIT_ON_TEST_FAILURE` (named in the command), it exited with its "tests
failed" status, its summary line counts exactly the failing tests faultlens
found, and every one of them is quarantined, with no failure of another
kind.  Then the status is 0; otherwise it is the command's own.

The same summary gives the run's test count (`tests_total`) for the
mass-failure guard (facts.is_mass_failure).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

TAIL_BYTES = 256 * 1024  # what of a run's output is kept for its runner's summary

# The runners whose summary line and "tests failed" exit status faultlens
# reads (docs/team-history.md#quarantine); None: the status is the number of
# failing tests (mocha).
EXIT_ON_TEST_FAILURE: dict[str, frozenset[int] | None] = {
    "pytest": frozenset({1}),  # 2 interrupted, 3 internal error, 4 usage, 5 no tests
    "unittest": frozenset({1}),
    "go": frozenset({1}),
    "cargo": frozenset({101}),
    "jest": frozenset({1}),
    "vitest": frozenset({1}),
    "mocha": None,
    "node": frozenset({1}),
    "rspec": frozenset({1}),
    "phpunit": frozenset({1}),
}


@dataclass(frozen=True, slots=True)
class RunSummary:
    """A test runner's own count of one run."""

    runner: str
    total: int  # tests that ran: passed + failed
    failed: int
    line: str


def run_summary(command: Sequence[str] | None, output: str) -> RunSummary | None:
    """The summary of the test runner `command` names, read from the end of
    its output; None for another command, or when the runner printed none."""
    if not command or not output:
        return None
    from ..fixes.test_runners import detect
    from ..rerun_proof import tally

    found = detect(list(command))
    if found is None:
        return None
    runner = found[0].name
    counted = tally(runner, output)
    if counted is None:
        return None
    return RunSummary(runner, counted.ran, counted.failed, counted.line)


class Tail:
    """The last TAIL_BYTES of a command's output, as it streams."""

    def __init__(self, limit: int = TAIL_BYTES) -> None:
        self.limit = limit
        self._buf = bytearray()

    def feed(self, data: bytes) -> None:
        self._buf += data
        if len(self._buf) > 2 * self.limit:
            del self._buf[: len(self._buf) - self.limit]

    def text(self) -> str:
        return bytes(self._buf[-self.limit :]).decode("utf-8", "replace")


def failing_tests(records: Sequence[FailureRecord]) -> list[str] | None:
    """Every failing test the records name, once; None when a failure is not
    a test's, or a test failure does not name all the tests it stands for."""
    out: dict[str, None] = {}
    for r in records:
        if r.failure_type.value != "test":
            return None
        named = [t for t in [r.hint.get("test_id")] if isinstance(t, str) and t]
        named += [loc.test for loc in r.related if loc.test and loc.test not in named]
        if not named or len(named) < r.affected:
            return None
        out.update(dict.fromkeys(named))
    return list(out)


def quarantined_in(records: Sequence[FailureRecord]) -> dict[str, str]:
    """test id -> why, of the records marked quarantined (`hint["quarantined"]`)."""
    out: dict[str, str] = {}
    for r in records:
        why = r.hint.get("quarantined")
        test = r.hint.get("test_id")
        if isinstance(why, str) and isinstance(test, str):
            out[test] = why
    return out


def mark(records: Sequence[FailureRecord], quarantine: Mapping[str, str]) -> list[FailureRecord]:
    """Mark the test failures whose tests are all quarantined
    (`hint["quarantined"]` = the reason); the marked records."""
    marked = []
    for r in records:
        if r.failure_type.value != "test":
            continue
        tests = failing_tests([r])
        if tests and all(t in quarantine for t in tests):
            r.hint["quarantined"] = quarantine[tests[0]] or "quarantined"
            marked.append(r)
    return marked


@dataclass(slots=True)
class ExitDecision:
    """The run's exit status with quarantine taken into account."""

    exit_code: int
    command_exit: int
    quarantined: list[str] = field(default_factory=list)  # the quarantined failing tests
    why: str = ""  # why the command's status was kept, when tests were quarantined

    @property
    def changed(self) -> bool:
        return self.exit_code != self.command_exit


def decide_exit(
    exit_code: int, summary: RunSummary | None, records: Sequence[FailureRecord]
) -> ExitDecision:
    """0 when every failure is a quarantined test and the runner's own
    summary says nothing else failed; else the command's status."""
    marked = [r for r in records if isinstance(r.hint.get("quarantined"), str)]
    tests = failing_tests(marked) or []
    out = ExitDecision(exit_code, exit_code, tests)
    if exit_code == 0 or not marked:
        return out
    if len(marked) < len(records):
        out.why = "other failures block the run"
    elif summary is None:
        out.why = "the runner printed no summary faultlens reads: the command's status is kept"
    elif summary.runner not in EXIT_ON_TEST_FAILURE:
        out.why = f"{summary.runner}'s status is kept (not read for quarantine)"
    elif not _failed_status(summary.runner, exit_code, summary.failed):
        out.why = f"{summary.runner} exited {exit_code}, not for failing tests"
    elif summary.failed != len(tests):
        out.why = (
            f"{summary.runner} counts {summary.failed} failing, faultlens found {len(tests)} "
            f"({summary.line})"
        )
    else:
        out.exit_code = 0
    return out


def _failed_status(runner: str, exit_code: int, failed: int) -> bool:
    codes = EXIT_ON_TEST_FAILURE[runner]
    if codes is None:  # mocha: the number of failing tests
        return exit_code == min(failed, 255)
    return exit_code in codes
