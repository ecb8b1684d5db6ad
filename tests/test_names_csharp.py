"""C#: the base class library's namespaces (recipes/names/cs_index.py, asked
of the installed Mono by a reflecting probe): CS0246's using, the compiler's
own ("Are you missing `System.Text' using directive?") first, with the
usings the file's other unbound names need in the same attempt (mcs reports
File and the LINQ Where only once List resolves); CS0305's generic type
found where the non-generic one of another namespace was meant; mcs's
CS1002 put at the end of the code line before its caret.  The outputs are
real mcs 6.8 (tests/samples/csharp/)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes import cs_usings, rust_help
from faultlens.recipes.model import Plan
from faultlens.recipes.names import cs_index
from faultlens.recipes.planning import plan

from .helpers import run_recover_in_process

SAMPLES = Path(__file__).parent / "samples" / "csharp"


@pytest.fixture
def mono() -> None:
    if cs_index.mono_lib() is None:
        pytest.skip("mono's mcs not installed")


def _records(case: str, tmp_path: Path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / case, proj)
    return proj, classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))


def test_a_using_goes_among_the_usings_in_order_and_never_twice():
    text = "using System;\nusing System.Text;\n\nnamespace A { }\n"
    edit = cs_usings.using_edit("a.cs", text, "System.IO")
    assert edit is not None
    assert apply_to_text(text, [edit]).splitlines()[:3] == [
        "using System;",
        "using System.IO;",
        "using System.Text;",
    ]
    assert cs_usings.using_edit("a.cs", text, "System.Text") is None


def test_mcs_semicolon_expected_goes_at_the_end_of_the_code_line_before(tmp_path):
    proj, (rec,) = _records("mcs-semicolon-expected", tmp_path)
    text = (proj / "src" / "Store.cs").read_text()
    found = rust_help.terminator_edit(
        rec.message or "", "src/Store.cs", text, rec.source_line, rec.source_column, None
    )
    assert found is not None
    assert apply_to_text(text, [found[1]]).splitlines()[4] == "            value = v;"


@pytest.mark.real_tool
def test_missing_usings_are_the_compilers_and_the_ones_the_file_needs_next(tmp_path, mono):
    proj, recs = _records("mcs-missing-using-directives", tmp_path)
    ws = Workspace.at(proj)
    plans = [plan(r, ws, command=["mcs"]) for r in recs]
    assert all(isinstance(p, Plan) for p in plans), plans
    first = plans[0]
    assert (
        isinstance(first, Plan)
        and first.title == "Add using System.Collections.Generic; (and 3 more)"
    )
    got = sorted(e.new_text for e in first.edits)
    assert got == [
        "using System.Collections.Generic;\n",
        "using System.IO;\n",
        "using System.Linq;\n",
        "using System.Text;\n",
    ]
    second = plans[1]
    assert isinstance(second, Plan)
    assert sorted(e.new_text for e in second.edits) == got  # the same edits: made once


@pytest.mark.real_tool
def test_the_generic_type_found_means_the_other_namespaces_type(tmp_path, mono):
    proj, (rec,) = _records("mcs-generic-type-found", tmp_path)
    assert rec.hint["name"] == "IEnumerator"
    result = plan(rec, Workspace.at(proj), command=["mcs"])
    assert isinstance(result, Plan), result
    text = apply_to_text((proj / "src" / "Node.cs").read_text(), result.edits)
    assert text.startswith("using System.Collections;\nusing System.Collections.Generic;\n")


@pytest.mark.real_tool
def test_the_index_asked_of_mono_has_a_name_of_two_namespaces_as_two(mono):
    assert cs_index.namespaces_of_type("Timer") == ["System.Threading", "System.Timers"]
    assert cs_index.namespaces_of_extension("Where") == ["System.Linq"]


@pytest.mark.real_tool
def test_removed_usings_are_restored_in_one_attempt_verified_by_mcs(tmp_path, mono):
    shutil.copytree(SAMPLES / "mcs-missing-using-directives" / "src", tmp_path / "src")
    (tmp_path / ".git").mkdir()
    cmd = ["mcs", "-target:library", f"-out:{tmp_path / 'cart.dll'}", "src/Cart.cs"]
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    assert report.outcomes and all(o.result == "recovered" for o in report.outcomes), [
        o.reason for o in report.outcomes
    ]
    head = (tmp_path / "src" / "Cart.cs").read_text().splitlines()[:4]
    assert sorted(head) == [
        "using System.Collections.Generic;",
        "using System.IO;",
        "using System.Linq;",
        "using System.Text;",
    ]


def test_mcs_unexpected_symbol_at_a_lines_start_is_the_lost_semicolon_of_the_line_before(
    tmp_path,
):
    """CS1525 before `return` (no expectation said) and before `}` ("expecting `;'"),
    mcs's column one short of the token's."""
    proj, recs = _records("mcs-unexpected-symbol-semicolon-dropped", tmp_path)
    text = (proj / "src" / "Dict.cs").read_text()
    edits = []
    for rec in recs:
        found = rust_help.terminator_edit(
            rec.message or "", "src/Dict.cs", text, rec.source_line, rec.source_column, None
        )
        assert found is not None, rec.message
        edits.append(found[1])
    fixed = apply_to_text(text, edits).splitlines()
    assert fixed[9] == "            m_Dict.Remove(item.Key);"
    assert fixed[13] == "            return m_Dict.Count;"
