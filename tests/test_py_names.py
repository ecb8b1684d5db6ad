"""A NameError Python did not correct (3.11's test runners print no "Did you
mean") gets the suggestion Python itself would have made, and the compile
recipe's one attempt is verified by the re-run (recipes/fixes/py_names.py).

Fixture: tests/samples/python_test/unittest-name-typo-no-suggestion (real
`python3 -m unittest` output, Python 3.11.7).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_file
from faultlens.recipes import Plan, Workspace, plan
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes.py_names import near_miss

from .helpers import run_recover_in_process

SAMPLE = Path(__file__).parent / "samples" / "python_test" / "unittest-name-typo-no-suggestion"

MODULE = """import os.path
from json import loads as parse_json

LIMIT = 3


def skip_chars(src, pos):
    return pos


def parse(src, start):
    pos = start
    return skip_char(src, pos)
"""


@pytest.mark.parametrize(
    ("wrong", "meant"),
    [
        ("skip_char", "skip_chars"),  # a function of the module
        ("strat", "start"),  # a parameter of the enclosing function
        ("LIMT", "LIMIT"),  # a module constant
        ("Skip_chars", "skip_chars"),  # a change of case costs least
        ("parse_jsn", "parse_json"),  # an import's alias
        ("lenn", "len"),  # a builtin
    ],
)
def test_the_nearest_name_in_scope_at_the_line_is_suggested(wrong, meant):
    assert near_miss(MODULE, 13, wrong) == meant


def test_a_name_far_from_every_name_in_scope_or_a_tie_is_no_suggestion():
    assert near_miss(MODULE, 13, "completely_unrelated") is None
    assert near_miss("ab = 1\nac = 2\n", 2, "ad") is None  # ab and ac are as near
    assert near_miss("def f(x):\n    return x\n", 5, "strat") is None  # not in scope there
    assert near_miss("def (:\n", 1, "x") is None  # not Python


def test_unittests_uncorrected_name_error_is_planned_as_the_nearest_name(tmp_path):
    proj = tmp_path / SAMPLE.name  # the output's paths name this folder
    shutil.copytree(SAMPLE, proj)
    (rec,) = classify_file(proj / "output.txt", Options(cwd=str(proj)))
    assert (rec.failure_type.value, rec.source_file, rec.source_line) == (
        "compile",
        "shop/cart.py",
        8,
    )
    assert "suggestion" not in rec.hint  # Python 3.11 printed none
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert (result.title, result.summary) == (
        "Change 'line_totl' to 'line_total'",
        "the nearest name in scope",
    )
    fixed = apply_to_text((proj / "shop/cart.py").read_text(), result.edits)
    assert fixed.splitlines()[7] == "        total += line_total(price, qty)"


@pytest.mark.real_tool
def test_one_typo_is_one_attempt_verified_by_the_original_command(tmp_path):
    proj = tmp_path / "shop"
    shutil.copytree(SAMPLE, proj, ignore=shutil.ignore_patterns("*.txt", "*.json"))
    cmd = [sys.executable, "-m", "unittest"]
    report, _ = run_recover_in_process(cmd, proj, "TASK-TYPO")
    assert len(report.records) == 1
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Change 'line_totl' to 'line_total'"
    assert report.exit_code == 0
    assert subprocess.run(cmd, cwd=proj, capture_output=True).returncode == 0


def test_an_import_error_is_never_given_a_local_name(tmp_path):
    """`cannot import name` names what another module lacks: a name of the
    importing file is no correction of it."""
    from faultlens.classifier.record import FailureRecord

    proj = tmp_path / SAMPLE.name
    shutil.copytree(SAMPLE, proj)
    rec = FailureRecord(
        id="imp1",
        failure_type="compile",
        severity="blocking",
        signal="ImportError: cannot import name 'line_totl' from 'shop.cart'",
        message="ImportError: cannot import name 'line_totl' from 'shop.cart'",
        auto_recoverable=True,
        recipe="recipes/compile.md",
        source_file="shop/cart.py",
        source_line=8,
        hint={"exception": "ImportError", "name": "line_totl"},
    )
    result = plan(rec, Workspace.at(proj))
    assert not (isinstance(result, Plan) and result.title.startswith("Change"))
