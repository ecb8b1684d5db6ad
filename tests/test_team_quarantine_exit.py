"""Quarantine's exit decision and the runner's own count (pure: output and
records in).  The real runs are in tests/team/test_team_quarantine.py; here
the cases a real run rarely shows: a count that does not match, a status
that is not the runner's "tests failed", a failure of another kind."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from faultlens.classifier.record import FailureRecord
from faultlens.recipes.team.facts import is_mass_failure
from faultlens.recipes.team.quarantine import Tail, decide_exit, mark, run_summary

PYTEST = [sys.executable, "-m", "pytest", "-q"]
# the last lines of `python -m pytest -q` on tests/team's suite (pytest 8)
FAILED_1 = "FAILED tests/test_cache.py::test_the_cache_is_warm - AssertionError\n1 failed, 2 passed in 0.05s\n"
FAILED_2 = "FAILED tests/test_cache.py::test_the_cache_is_warm - AssertionError\n2 failed, 1 passed in 0.05s\n"


def _test(test_id: str, failure_type: str = "test") -> FailureRecord:
    return FailureRecord(
        failure_type=failure_type,
        severity="blocking",
        signal="AssertionError",
        auto_recoverable="partial",
        recipe=f"recipes/{failure_type}.md",
        hint={"test_id": test_id},
    )


def test_the_runners_summary_is_read_from_the_commands_runner() -> None:
    summary = run_summary(PYTEST, FAILED_1)
    assert summary is not None and (summary.runner, summary.total, summary.failed) == (
        "pytest",
        3,
        1,
    )
    assert run_summary(["make", "test"], FAILED_1) is None  # not a runner faultlens reads
    assert run_summary(PYTEST, "no summary here\n") is None


def test_only_quarantined_failures_counted_by_the_runner_give_exit_0() -> None:
    records = [_test("tests/test_cache.py::test_the_cache_is_warm")]
    mark(records, {"tests/test_cache.py::test_the_cache_is_warm": "cold cache"})
    decision = decide_exit(1, run_summary(PYTEST, FAILED_1), records)
    assert (decision.exit_code, decision.command_exit, decision.changed) == (0, 1, True)


def test_the_status_stands_when_the_runner_counts_more_failures_than_were_found() -> None:
    records = [_test("tests/test_cache.py::test_the_cache_is_warm")]
    mark(records, {"tests/test_cache.py::test_the_cache_is_warm": "cold cache"})
    decision = decide_exit(1, run_summary(PYTEST, FAILED_2), records)
    assert decision.exit_code == 1 and "counts 2 failing, faultlens found 1" in decision.why


def test_the_status_stands_when_the_runner_did_not_exit_for_failing_tests() -> None:
    records = [_test("t::a")]
    mark(records, {"t::a": "q"})
    interrupted = decide_exit(2, run_summary(PYTEST, "1 failed, 2 passed in 0.05s\n"), records)
    assert interrupted.exit_code == 2 and "not for failing tests" in interrupted.why


def test_a_failure_of_another_kind_or_an_unread_runner_keeps_the_status() -> None:
    records = [_test("t::a"), _test("", "compile")]
    mark(records, {"t::a": "q"})
    assert decide_exit(1, run_summary(PYTEST, FAILED_1), records).exit_code == 1
    only = [_test("t::a")]
    mark(only, {"t::a": "q"})
    assert decide_exit(1, None, only).exit_code == 1  # no summary: nothing to tell by


def test_mochas_status_is_its_count_of_failures() -> None:
    from faultlens.recipes.team.quarantine import RunSummary

    only = [_test("adds")]
    mark(only, {"adds": "q"})
    assert decide_exit(1, RunSummary("mocha", 3, 1, "1 failing"), only).exit_code == 0
    assert decide_exit(2, RunSummary("mocha", 3, 1, "1 failing"), only).exit_code == 2


def test_the_mass_failure_guard_uses_the_runners_own_total() -> None:
    one_group = [_test("t::a")]  # one record standing for all of them
    assert is_mass_failure(one_group, 0.8, tests_total=10, tests_failed=9)
    assert not is_mass_failure(one_group, 0.8, tests_total=10, tests_failed=8)
    assert not is_mass_failure(one_group, 0.8, tests_total=4, tests_failed=4)  # too few to tell


def test_the_tail_keeps_the_end_of_a_long_output() -> None:
    tail = Tail(limit=1000)
    for _ in range(500):
        tail.feed(b"x" * 97 + b"\n")
    tail.feed(FAILED_1.encode())
    assert tail.text().endswith(FAILED_1) and len(tail.text()) == 1000


def test_the_team_settings_are_read_once_per_workspace(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from faultlens.recipes import Workspace
    from faultlens.recipes.team import settings, sync

    conf = tmp_path / "faultlens" / "config.toml"
    conf.parent.mkdir()
    conf.write_text('[history]\nurl = "postgresql://me@localhost/${DB}"\n')
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / ".faultlens.toml").write_text('[recipes.test]\nretry = "known-flakes"\n')
    reads: list[Path | None] = []
    real = settings._table

    def counted(path: Path | None) -> dict[str, object]:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(settings, "_table", counted)
    env = {"XDG_CONFIG_HOME": str(tmp_path), "DB": "team"}
    ws = Workspace.at(tmp_path / "ws")
    for _ in range(50):
        cfg = sync.settings_for(ws, env)
    assert cfg.url == "postgresql://me@localhost/team" and cfg.retry == "known-flakes"
    assert len(reads) == 1
    assert sync.settings_for(ws, {**env, "DB": "other"}).url == "postgresql://me@localhost/other"
    time.sleep(0.01)
    conf.write_text('[history]\nurl = "postgresql://you@localhost/db"\n')
    assert sync.settings_for(ws, env).url == "postgresql://you@localhost/db"
    assert len(reads) == 3
