"""A build tool's summary stands unless a record of what the tool runs
explains it (classifier/summaries.py), on real captured outputs joined as
one CI log's steps."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier.engine import Options, classify_bytes
from faultlens.classifier.summaries import explained

SAMPLES = Path(__file__).parent / "samples"


def _log(*cases: str) -> bytes:
    parts = [(SAMPLES / c / "output.txt").read_bytes() for c in cases]
    return b"".join(p if p.endswith(b"\n") else p + b"\n" for p in parts)


def _rules(*cases: str) -> list[str | None]:
    return [r.rule for r in classify_bytes(_log(*cases), Options(cwd=str(SAMPLES / cases[-1])))]


def test_a_scanners_summary_is_not_explained_by_another_tools_failure():
    """gitleaks' `leaks found: N` (its findings not printed) and a shell
    script's syntax error in the same log are two failures: both stand."""
    assert sorted(set(_rules("shell/bash-n-eof", "security/gitleaks-summary-only"))) == [
        "security.gitleaks_summary",
        "shell.bash",
    ]


def test_a_summary_is_still_dropped_by_its_own_tools_records():
    """cargo's `could not compile` goes when rustc's errors are in the log."""
    rules = _rules("rust/cargo-build-e0425")
    assert "rust.cargo_failed" not in rules and "rust.error" in rules


def test_a_tool_that_runs_anything_is_explained_by_any_record():
    assert explained("make", ["pytest.failure"])
    assert explained("ninja", ["c.compiler_error"])
    assert not explained("make", [])


def test_a_tools_summary_is_explained_by_its_ecosystems_rules_only():
    assert explained("cargo", ["rust.error"]) and explained("gradle", ["kotlin.kotlinc"])
    assert not explained("cargo", ["shell.syntax_error", "python.name_error"])
    assert not explained("gitleaks", ["rust.error"]) and explained("gitleaks", ["security.x"])


def test_a_ci_step_summary_explains_no_tools_summary():
    """ctest's list of the tests that failed (a summary), then the runner's
    `##[error]Process completed with exit code N.`: the runner's line says
    which step failed, not why, so ctest's record stands and the step
    summary yields to it."""
    rules = _rules("c/ctest-segfault", "infra/github-actions-exit-code")
    assert rules == ["c.ctest"]


def test_makes_summary_is_explained_by_the_summary_of_the_tool_it_ran():
    """`make test` runs CTest: ctest's failed-test list explains make's
    `Error 8`, one record."""
    assert _rules("c/make-test-ctest-segfault") == ["c.ctest"]
