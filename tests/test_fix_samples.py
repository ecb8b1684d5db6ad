"""The compile fixes read off real captured compiler output (tests/samples/,
each with its cmd.txt): the record the classifier makes of the sample gives
the edit the recipe would apply to the sample's own source."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.columns import column_unit
from faultlens.classifier.record import FailureRecord
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes import rust_help
from faultlens.recipes.model import Plan

SAMPLES = Path(__file__).parent / "samples"


def _records(case: str) -> tuple[Path, list[FailureRecord]]:
    d = SAMPLES / case
    text = (d / "output.txt").read_text("utf-8")
    return d, classify_text(text, Options(cwd=str(d)))


def test_rustc_add_semicolon_before_a_keyword_is_an_edit_at_the_line_end():
    d, recs = _records("rust/rustc-expected-semicolon-found-keyword")
    (rec,) = [r for r in recs if r.source_file == "src/lib.rs"]
    text = (d / "src" / "lib.rs").read_text("utf-8")
    found = rust_help.terminator_edit(
        rec.message or "",
        "src/lib.rs",
        text,
        rec.source_line,
        rec.source_column,
        column_unit(rec.hint.get("column_unit")),
    )
    assert found is not None
    tok, edit = found
    assert tok == ";" and (edit.start_line, edit.start_col) == (1, len("    let n = xs.len()"))


def test_javacs_semicolon_expected_is_an_edit_at_its_caret():
    d, recs = _records("java/javac-semicolon-expected")
    (rec,) = recs
    text = (d / "src" / "Csv.java").read_text("utf-8")
    found = rust_help.terminator_edit(
        rec.message or "", "src/Csv.java", text, rec.source_line, rec.source_column, None
    )
    assert found is not None
    tok, edit = found
    assert tok == ";" and (edit.start_line, edit.start_col) == (
        2,
        len('        return line.split(",")'),
    )


def test_gccs_expected_expression_before_a_brace_after_a_bare_return_gets_its_semicolon():
    d, recs = _records("c/gcc-return-semicolon-dropped")
    (rec,) = [r for r in recs if r.source_line == 12]
    text = (d / "hooks.c").read_text("utf-8")
    found = rust_help.terminator_edit(
        rec.message or "", "hooks.c", text, rec.source_line, rec.source_column, None
    )
    assert found is not None
    tok, edit = found
    assert tok == ";" and (edit.start_line, edit.start_col) == (10, len("        return"))


def test_a_brace_after_a_value_is_not_a_bare_return():
    text = "int f(void)\n{\n    return 1 +\n}\n"
    message = "expected expression before \u2018}\u2019 token"
    assert rust_help.terminator_edit(message, "f.c", text, 4, 1, None) is None


def _plan_in_copy(case: str, tmp_path: Path) -> tuple[Path, object]:
    from faultlens.recipes import Workspace
    from faultlens.recipes.planning import plan

    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / case, proj)
    (rec,) = classify_text((proj / "output.txt").read_text("utf-8"), Options(cwd=str(proj)))
    return proj, plan(rec, Workspace.at(proj))


def test_gccs_did_you_mean_for_a_misspelt_field_is_applied_at_its_caret(tmp_path):
    proj, result = _plan_in_copy("c/gcc-no-member-did-you-mean", tmp_path)
    assert isinstance(result, Plan), result
    assert result.title == "Change 'lenth' to 'length'"
    fixed = apply_to_text((proj / "buf.c").read_text(), result.edits)
    assert "    return input_buffer->offset >= input_buffer->length;\n" in fixed


def test_gccs_semicolon_expected_before_the_next_lines_brace_goes_on_the_line_before(tmp_path):
    """`return true` (a macro): gcc's caret is on the `}` below, not at the line's end."""
    proj, result = _plan_in_copy("c/gcc-expected-semicolon-before-brace", tmp_path)
    assert isinstance(result, Plan), result
    fixed = apply_to_text((proj / "value.c").read_text(), result.edits)
    assert "        return true;\n    }\n" in fixed


def test_go_parsers_expected_string_after_an_import_block_gets_its_paren(tmp_path):
    """go build's "expected 'STRING', found 'type'": the `)` goes after the last
    import, a line of a string alone (where gofmt -e then parses the file)."""
    if shutil.which("gofmt") is None:
        pytest.skip("gofmt not installed")
    proj, result = _plan_in_copy("go/build-import-paren-dropped", tmp_path)
    assert isinstance(result, Plan), result
    fixed = apply_to_text((proj / "ips.go").read_text(), result.edits)
    assert '\t"strings")\n' in fixed
