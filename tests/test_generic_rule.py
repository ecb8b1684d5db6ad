"""The generic GNU-format rules (classifier/rules/gnu.py) are a last resort:
they never override a specific rule and never report a successful run."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier.engine import Options, classify_bytes

SAMPLES = Path(__file__).parent / "samples"
AS = SAMPLES / "gnu" / "gnu-as"


def _as_output() -> bytes:
    return (AS / "output.txt").read_bytes()


def test_an_unknown_tools_error_lines_are_records_with_the_commands_program_as_tool():
    records = classify_bytes(_as_output(), Options(cwd=str(AS), command="as boot.s", exit_code=1))
    assert [(r.rule, r.source_file, r.source_line, r.tool) for r in records] == [
        ("gnu.colon", "boot.s", 2, "as"),
        ("gnu.colon", "boot.s", 3, "as"),
    ]
    assert all(r.confidence < 1.0 for r in records)


def test_the_same_lines_from_a_successful_run_give_nothing():
    assert (
        classify_bytes(_as_output(), Options(cwd=str(AS), command="as boot.s", exit_code=0)) == []
    )


def test_a_file_that_is_not_in_the_working_tree_is_no_location():
    other = SAMPLES / "gnu" / "xmllint"  # no boot.s there
    records = classify_bytes(_as_output(), Options(cwd=str(other), exit_code=1))
    assert all(r.rule != "gnu.colon" for r in records)


def test_a_specific_rule_in_the_same_output_wins_over_the_generic_ones():
    gcc = SAMPLES / "c" / "gcc-undeclared-in-function"
    log = (gcc / "output.txt").read_bytes() + _as_output()
    records = classify_bytes(log, Options(cwd=str(AS), exit_code=1))
    assert records and all(r.rule.startswith("c.") for r in records)


def test_a_test_runners_generic_record_is_a_test_failure():
    records = classify_bytes(_as_output(), Options(cwd=str(AS), command="ctest", exit_code=8))
    assert {r.failure_type.value for r in records} == {"test"}
