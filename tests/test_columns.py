"""A tool's column lands on the character it names, for the editor and for the
compile recipe alike (classifier/columns.py).

Fixtures: tests/samples/c/{gcc,clang}-fixit-*, *-suggestion-name-in-string*
(real gcc 12 and clang 14 output on lines with tabs and non-ASCII text).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_file
from faultlens.classifier.columns import code_point_column, column_unit
from faultlens.recipes import Plan, Workspace, plan
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes import suggest

SAMPLES = Path(__file__).resolve().parent / "samples" / "c"


def test_byte_columns_count_utf8_bytes_and_display_columns_count_tabs_and_wide_characters():
    line = '\tprintf("héllo 日本 %d\\n", totl);'
    at = line.index("totl")
    assert code_point_column(line, len(line[:at].encode()), "byte") == at
    display = at - 1 + 8 + 2  # the tab fills 8 columns, 日 and 本 are 2 wide each
    assert code_point_column(line, display, "display") == at
    assert code_point_column(line, at, None) == at  # code points already


def test_a_column_past_the_line_end_stays_past_it_and_a_torn_character_is_not_split():
    assert code_point_column("é", 5, "byte") == 1 + 3
    assert code_point_column("éa", 1, "byte") == 0  # inside é: the character before it
    assert code_point_column("\tx", 12, "display") == 2 + 3


@pytest.mark.parametrize("value", ["byte", "display"])
def test_the_column_unit_hint_is_read_as_one_of_the_known_units(value):
    assert column_unit(value) == value
    for other in (None, "bytes", 1, ["byte"], "utf-16"):
        assert column_unit(other) is None


def _plan(case: str, tmp_path: Path) -> tuple[Plan, Path]:
    proj = tmp_path / case
    shutil.copytree(SAMPLES / case, proj)
    (rec,) = classify_file(proj / "output.txt", Options(cwd=str(proj)))
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    return result, proj / "greet.c"


@pytest.mark.parametrize(
    ("case", "fixed"),
    [
        ("clang-fixit-non-ascii", '    printf("héllo wörld %d\\n", total);'),
        ("gcc-fixit-tab-non-ascii", '\tprintf("héllo 日本 %d\\n", total);'),
    ],
)
def test_a_compilers_fix_it_counted_in_bytes_edits_the_token_it_names(case, fixed, tmp_path):
    result, src = _plan(case, tmp_path)
    assert result.title == "Apply the compiler's fix-it (total)"
    assert apply_to_text(src.read_text(), result.edits).splitlines()[4] == fixed


@pytest.mark.parametrize(
    ("case", "fixed"),
    [
        ("clang-suggestion-name-in-string", '    printf("totl: héllo wörld %d\\n", total);'),
        (
            "gcc-suggestion-name-in-string-tab-wide",
            '\tprintf("totl: héllo 日本 %d\\n", total);',
        ),
    ],
)
def test_a_did_you_mean_is_placed_at_the_compilers_column_not_on_an_earlier_same_word(
    case, fixed, tmp_path
):
    """The name also appears in the string before it: only the column says
    which one is meant (gcc counts display columns, clang bytes)."""
    result, src = _plan(case, tmp_path)
    assert result.title == "Change 'totl' to 'total'"
    assert apply_to_text(src.read_text(), result.edits).splitlines()[4] == fixed


def test_a_suggestion_whose_column_names_another_word_is_not_guessed_on_a_line_with_two():
    text = 'f("totl", totl);\n'
    assert suggest.replace_name("a.c", text, 1, 2, "totl", "total") is None
    edit = suggest.replace_name("a.c", text, 1, 11, "totl", "total")
    assert edit is not None and apply_to_text(text, [edit]) == 'f("totl", total);\n'
