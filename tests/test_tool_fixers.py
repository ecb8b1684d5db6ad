"""The failing check's own fixer is the recipe: real `ruff check` and `ruff
format --check` runs recovered by `ruff check --fix` / `ruff format` on the
file they named; the other tools' fixers by their argv (never a shell)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from faultlens.recipes.fixes.tool_fixers import fixer_for, is_lint

from .helpers import run_recover_in_process

RUFF = shutil.which("ruff", path=str(Path(sys.executable).parent))


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        (["ruff", "check", "."], ["ruff", "check", "--fix", "a.py"]),
        ([sys.executable, "-m", "ruff", "format", "--check"], None),
        (["ruff", "format", "--diff", "src"], ["ruff", "format", "a.py"]),
        (["black", "--check", "."], ["black", "a.py"]),
        (["npx", "prettier", "--check", "src"], ["npx", "prettier", "--write", "a.py"]),
        (["gofmt", "-l", "."], ["gofmt", "-w", "a.py"]),
        (["cargo", "fmt", "--check"], ["cargo", "fmt"]),
        (["node_modules/.bin/eslint", "src"], ["node_modules/.bin/eslint", "--fix", "a.py"]),
        (["ruff", "check", "--fix", "."], None),
        (["pytest", "-q"], None),
    ],
)
def test_a_check_maps_to_its_own_fixer_for_the_named_file(command, argv):
    if argv is None and "-m" in command:
        argv = [sys.executable, "-m", "ruff", "format", "a.py"]
    assert fixer_for(command, ["a.py"]) == argv


def test_a_file_name_that_looks_like_an_option_is_refused():
    assert fixer_for(["ruff", "check", "."], ["--unsafe-fixes"]) is None


def test_only_lint_fixers_wait_for_the_tools_fixable_mark():
    assert is_lint(["ruff", "check", "--fix", "a.py"])
    assert is_lint(["eslint", "--fix", "a.js"])
    assert not is_lint(["ruff", "format", "a.py"])


@pytest.mark.real_tool
def test_ruff_check_is_recovered_by_its_safe_fixes(tmp_path):
    if RUFF is None:
        pytest.skip("ruff not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.py").write_text("import os\nimport sys\n\nprint(sys.argv)\n")
    report, _ = run_recover_in_process([RUFF, "check", "a.py"], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == f"Run the tool's fixer ({RUFF} check --fix a.py)"
    assert (tmp_path / "a.py").read_text() == "import sys\n\nprint(sys.argv)\n"


@pytest.mark.real_tool
def test_ruff_format_check_is_recovered_by_the_format(tmp_path):
    if RUFF is None:
        pytest.skip("ruff not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "b.py").write_text('x = {  "a":1}\n')
    report, _ = run_recover_in_process([RUFF, "format", "--check", "b.py"], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert (tmp_path / "b.py").read_text() == 'x = {"a": 1}\n'
