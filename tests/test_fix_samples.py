"""The compile fixes read off real captured compiler output (tests/samples/,
each with its cmd.txt): the record the classifier makes of the sample gives
the edit the recipe would apply to the sample's own source."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier import Options, classify_text
from faultlens.classifier.columns import column_unit
from faultlens.classifier.record import FailureRecord
from faultlens.recipes.fixes import rust_help

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
