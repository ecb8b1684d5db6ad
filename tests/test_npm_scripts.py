"""npm running a script package.json lacks is the project's configuration,
placed on package.json's "scripts" and never fixed by guessing
(classifier/rules/npm.py, the compile planner's refusal).

Fixtures: tests/samples/npm/* (real npm 11 output).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_file
from faultlens.recipes import Refusal, Workspace, plan

from .helpers import run_recover_in_process

SAMPLES = Path(__file__).resolve().parent / "samples" / "npm"


def _record(case: str, tmp_path: Path):
    proj = tmp_path / case
    shutil.copytree(SAMPLES / case, proj)
    (rec,) = classify_file(proj / "output.txt", Options(cwd=str(proj)))
    return rec, proj


def test_a_missing_script_is_a_compile_failure_on_the_scripts_line_with_npms_own_suggestion(
    tmp_path,
):
    rec, proj = _record("npm-run-missing-script-did-you-mean", tmp_path)
    assert (rec.failure_type.value, rec.source_file, rec.source_line) == (
        "compile",
        "package.json",
        5,
    )
    assert (proj / "package.json").read_text().splitlines()[4].strip() == '"scripts": {'
    assert rec.hint["suggestion"] == "build"
    assert rec.hint["scripts"] == ["build", "test"]


def test_an_npm_command_npm_suggests_is_advice_never_a_script_suggestion(tmp_path):
    rec, _ = _record("npm-run-missing-script-typo", tmp_path)
    assert rec.hint["advice"] == ["npm set # Set a value in the npm configuration"]
    assert "suggestion" not in rec.hint  # `npm set` is npm's command, not a script


def test_a_workspace_script_is_placed_in_the_workspaces_package_json(tmp_path):
    rec, _ = _record("npm-workspace-missing-script", tmp_path)
    assert (rec.source_file, rec.source_line) == ("packages/api/package.json", 4)
    assert rec.hint["scripts"] == ["start"]


def test_the_compile_recipe_refuses_to_add_or_rename_a_script_and_says_what_exists(tmp_path):
    rec, proj = _record("npm-run-missing-script-did-you-mean", tmp_path)
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Refusal)
    assert result.reason.startswith('package.json has no script "buil"; a script is never added')
    assert result.suggestions == [
        'npm run build # run the "build" package script',
        "the scripts it has: build, test",
    ]


@pytest.mark.real_tool
def test_faultlens_run_of_a_missing_script_escalates_after_one_refused_attempt(tmp_path):
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm not installed (scripts/install-tools.sh node)")
    proj = tmp_path / "cart"
    proj.mkdir()
    shutil.copy(SAMPLES / "npm-run-missing-script-did-you-mean" / "package.json", proj)
    before = (proj / "package.json").read_bytes()
    report, _ = run_recover_in_process([npm, "run", "buil"], proj, "TASK-NPM")
    (rec,) = report.records
    assert rec.rule == "npm.missing_script"
    (outcome,) = report.outcomes
    assert outcome.result == "escalated"
    assert "never added or renamed" in outcome.reason
    assert report.exit_code == 1
    assert (proj / "package.json").read_bytes() == before
