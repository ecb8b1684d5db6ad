"""One policy for warnings (classifier/warnings_policy.py, docs/warnings.md):
a warning is a failure only when the run failed because of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier.engine import Options, classify_bytes
from faultlens.classifier.warnings_policy import fatal_flag, warnings_fail

SAMPLES = Path(__file__).parent / "samples"


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        ("gcc -Wall -Werror -c x.c", "-Werror"),
        ("cargo clippy --all-targets -- -D warnings", "-D warnings"),
        ("cargo clippy -- --deny warnings", "--deny warnings"),
        ("eslint --max-warnings 0 src", "--max-warnings 0"),
        ("eslint --max-warnings=0 src", "--max-warnings=0"),
        ("yamllint --strict .", "--strict"),
        ("mix compile --warnings-as-errors", "--warnings-as-errors"),
        ("dotnet build /warnaserror", "/warnaserror"),
        ("dart analyze --fatal-warnings", "--fatal-warnings"),
        (["env", "RUSTFLAGS=-D warnings", "cargo", "build"], "RUSTFLAGS=-D warnings"),
        ("RUSTFLAGS=-Dwarnings cargo build", "RUSTFLAGS=-Dwarnings"),
    ],
)
def test_a_flag_that_makes_warnings_fatal_is_found_in_the_command(command, flag):
    assert fatal_flag(command) == flag


@pytest.mark.parametrize(
    "command",
    ["gcc -Wall -c x.c", "eslint --max-warnings 10 src", "gcc -Wno-error -c x.c", None, ""],
)
def test_a_command_without_such_a_flag_has_none(command):
    assert fatal_flag(command) is None


def test_a_successful_run_has_no_failing_warnings_whatever_its_flags():
    assert warnings_fail("gcc -Werror -c x.c", 0, errors=False, promoted="x") is None


def test_a_run_that_failed_with_only_warnings_failed_because_of_them():
    assert "status 1" in (warnings_fail("shellcheck x.sh", 1, errors=False) or "")


def test_errors_explain_a_failed_run_so_its_plain_warnings_are_not_failures():
    assert warnings_fail("gcc -Wall -c x.c", 1, errors=True) is None


def test_a_saved_log_without_command_or_status_keeps_no_warning():
    assert warnings_fail(None, None, errors=False) is None


def test_the_output_saying_so_makes_warnings_failures_even_in_a_saved_log():
    assert warnings_fail(None, None, errors=False, promoted="ESLint found too many warnings")


def _gcc_warnings() -> bytes:
    return (SAMPLES / "c" / "gcc-warnings-only" / "output.txt").read_bytes()


def test_gcc_warnings_of_a_successful_build_give_no_record():
    records = classify_bytes(_gcc_warnings(), Options(command="gcc -Wall -c x.c", exit_code=0))
    assert records == []


def test_gcc_warnings_become_records_when_the_build_failed_with_nothing_else():
    opts = Options(cwd=str(SAMPLES / "c" / "gcc-warnings-only"), command="make", exit_code=2)
    records = classify_bytes(_gcc_warnings(), opts)
    assert records and all(r.hint["warning"] is True for r in records)
    assert all("status 2" in r.hint["warnings_fail"] for r in records)
    assert {r.rule for r in records} == {"c.compiler_error"}


def test_a_tools_warnings_failed_line_promotes_only_that_tools_warnings():
    """A CI log runs several tools: eslint's "too many warnings" does not make
    gcc's warnings in the same log failures."""
    eslint = SAMPLES / "js_lint" / "eslint-max-warnings"
    log = _gcc_warnings() + (eslint / "output.txt").read_bytes()
    records = classify_bytes(log, Options(cwd=str(eslint)))
    assert [r.rule for r in records] == ["eslint.stylish"]
    assert records[0].hint["warnings_fail"].startswith("the output says so: ESLint found")
