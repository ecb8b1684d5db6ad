"""Java and C#: a misspelt local or parameter (javac's `cannot find symbol
... variable idnent`, C#'s CS0103, neither naming a near name) is the one
name visible in its method one or two edits away (recipes/names/
typed_scope.py): the method's typed declarations and parameters, the
class's fields, a C# setter's implicit `value`.  Real javac 17 and mcs 6.8
output (tests/samples/)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.model import Plan
from faultlens.recipes.names import typed_scope
from faultlens.recipes.planning import plan

from .helpers import run_recover_in_process

SAMPLES = Path(__file__).parent / "samples"


def _plans(case: str, tmp_path: Path) -> tuple[Path, list[object]]:
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / case, proj)
    recs = classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))
    ws = Workspace.at(proj)
    return proj, [plan(r, ws) for r in recs]


def test_a_misspelt_java_parameter_use_is_the_methods_parameter(tmp_path):
    proj, (result,) = _plans("java/javac-cannot-find-symbol-misspelt-local", tmp_path)
    assert isinstance(result, Plan), result
    assert result.title == "Change 'idnent' to 'indent'"
    fixed = apply_to_text((proj / "src" / "Pad.java").read_text(), result.edits)
    assert "for (int i = 0; i < indent; i++) {" in fixed


def test_a_misspelt_setter_value_and_a_misspelt_parameter_in_csharp(tmp_path):
    _, plans = _plans("csharp/mcs-name-not-in-context-misspelt", tmp_path)
    assert [p.title for p in plans if isinstance(p, Plan)] == [
        "Change 'vlue' to 'value'",
        "Change 'amuont' to 'amount'",
    ]


def test_a_tie_in_scope_is_no_name():
    text = "class A {\n    int f(int val, int vale) {\n        return valu;\n    }\n}\n"
    assert typed_scope.near_misses(text, 3, "valu") == ["val", "vale"]


def test_a_name_used_twice_in_its_method_is_not_respelt():
    text = "class A {\n    int f(int aInex) {\n        return aIndex + aIndex;\n    }\n}\n"
    assert typed_scope.near_misses(text, 3, "aIndex") == []


@pytest.mark.real_tool
def test_a_misspelt_local_is_respelt_and_verified_by_javac(tmp_path):
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac not installed")
    shutil.copytree(
        SAMPLES / "java" / "javac-cannot-find-symbol-misspelt-local" / "src", tmp_path / "src"
    )
    (tmp_path / ".git").mkdir()
    report, _ = run_recover_in_process([javac, "-d", "out", "src/Pad.java"], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "i < indent;" in (tmp_path / "src" / "Pad.java").read_text()
