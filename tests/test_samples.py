"""Every detection rule proves itself on real output.

For each case under tests/samples/ (see its README), `faultlens classify
--json --cwd CASE CASE/output.*` must give exactly the expected records:
same count, same order, and every field named in expected.json equal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faultlens.classifier.rules import all_rules
from faultlens.cli.main import main

from .samples_lib import samples

ALL = samples()


@pytest.mark.parametrize("sample", ALL, ids=[s.id for s in ALL])
def test_sample_classifies_to_expected_records(sample, capsys):
    status = main(["classify", "--json", "--cwd", str(sample.dir), str(sample.output)])
    out = capsys.readouterr().out
    records = json.loads(out)
    got = [{k: r.get(k) for k in exp} for r, exp in zip(records, sample.expected, strict=False)]
    assert len(records) == len(sample.expected), json.dumps(records, indent=1)[:4000]
    assert got == sample.expected
    assert status == (1 if sample.expected else 0)
    # hint["command"] is the run's own command line (what a verify re-runs);
    # a command read from the output (a Dockerfile step, an MCP server's entry)
    # goes under another key, so it can never become the command that is run
    assert not [r["id"] for r in records if "command" in (r.get("hint") or {})]


RUN = [s for s in ALL if s.expected_run is not None]


@pytest.mark.parametrize("sample", RUN, ids=[s.id for s in RUN])
def test_sample_with_its_command_and_exit_status_classifies_to_expected_run_records(sample, capsys):
    """expected.run.json: what `faultlens run` reports, knowing the command
    and its exit status (warnings that failed the run, the generic rule)."""
    command, status_code = sample.run_context()
    argv = ["classify", "--json", "--cwd", str(sample.dir), "--command", command]
    status = main([*argv, "--exit-code", str(status_code), str(sample.output)])
    records = json.loads(capsys.readouterr().out)
    got = [{k: r.get(k) for k in exp} for r, exp in zip(records, sample.expected_run, strict=False)]
    assert len(records) == len(sample.expected_run), json.dumps(records, indent=1)[:4000]
    assert got == sample.expected_run
    assert status == (1 if sample.expected_run else 0)
    for r in records:  # only the fallback record names a command: the run's own
        assert (r.get("hint") or {}).get("command") in (None, command), r["id"]


@pytest.mark.parametrize("sample", ALL, ids=[s.id for s in ALL])
def test_sample_records_the_command_that_produced_it(sample):
    cmd = sample.dir / "cmd.txt"
    assert cmd.is_file(), f"{sample.id}: cmd.txt missing"
    assert cmd.read_text().strip(), f"{sample.id}: cmd.txt is empty"


def test_every_rule_has_a_sample():
    proved = {e.get("rule") for s in ALL for e in [*s.expected, *(s.expected_run or [])]}
    missing = sorted(r.id for r in all_rules() if r.id not in proved)
    assert not missing, f"rules with no sample in tests/samples: {missing}"


def test_negative_samples_exist_in_number():
    negatives = [s for s in ALL if not s.expected]
    assert len(negatives) >= 10, [s.id for s in negatives]


TEXT = [s for s in ALL if s.output.suffix in (".txt", ".log")]


@pytest.mark.parametrize("sample", TEXT, ids=[s.id for s in TEXT])
def test_rule_triggers_cover_every_line_the_pattern_matches(sample):
    """A rule's literal triggers gate the engine's prefilter: a line its
    pattern matches but no trigger names would be silently skipped."""
    from faultlens.classifier.text import decode, visible

    text = decode(Path(sample.output).read_bytes())
    for line in map(visible, text.split("\n")):
        for rule in all_rules():
            if rule.pattern.search(line) and not any(t in line for t in rule.triggers):
                pytest.fail(
                    f"{rule.id}: pattern matches a line none of its triggers name: {line!r}"
                )
