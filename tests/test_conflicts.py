"""Conflict markers: the pure scan (classifier/conflicts.py) and how the
classifier uses it to place a CONFLICT record on the file's first marker."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from faultlens.classifier import conflicts
from faultlens.classifier.engine import Options, classify_text
from faultlens.cli.main import main

SAMPLES = Path(__file__).parent / "samples" / "git"

TWO_HUNKS = """\
line one
<<<<<<< HEAD
ours 1
=======
theirs 1
>>>>>>> feature
middle
<<<<<<< HEAD
=======
theirs only
>>>>>>> feature
end
"""

DIFF3 = """\
def greet():
<<<<<<< HEAD
    return "Good day"
||||||| parent of 97f3189 (feature)
    return "Hello"
=======
    return "Hi there"
>>>>>>> 97f3189 (feature)
"""


def test_scan_finds_every_hunk_with_its_marker_lines():
    hunks = conflicts.scan(TWO_HUNKS)
    assert [(h.start, h.separator, h.end) for h in hunks] == [(2, 4, 6), (8, 9, 11)]
    assert hunks[0].ours_label == "HEAD" and hunks[0].theirs_label == "feature"
    assert hunks[0].ours == (3, 3) and hunks[0].theirs == (5, 5)


def test_an_empty_side_has_last_before_first():
    second = conflicts.scan(TWO_HUNKS)[1]
    first, last = second.ours
    assert last < first
    assert second.theirs == (10, 10)


def test_diff3_hunks_carry_the_base_section():
    (h,) = conflicts.scan(DIFF3)
    assert (h.start, h.base, h.separator, h.end) == (2, 4, 6, 8)
    assert h.base_label == "parent of 97f3189 (feature)"
    assert h.ours == (3, 3) and h.theirs == (7, 7)
    assert h.to_hint()["base"] == 4


def test_crlf_files_are_scanned_like_lf_files():
    crlf = TWO_HUNKS.replace("\n", "\r\n")
    assert conflicts.scan(crlf) == conflicts.scan(TWO_HUNKS)


@pytest.mark.parametrize(
    "text",
    [
        "<<<<<<< HEAD\nours\n=======\ntheirs\n",  # never closed
        "  <<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> x\n",  # indented marker
        "<<<<<<<< HEAD\nours\n========\ntheirs\n>>>>>>>> x\n",  # eight characters
        "a = 1\n======= \nb = 2\n",  # separator alone, with trailing space
        "<<<<<<< HEAD\nours\n>>>>>>> x\n",  # no separator
    ],
    ids=["unterminated", "indented", "eight-chars", "lone-separator", "no-separator"],
)
def test_text_that_only_resembles_markers_has_no_hunks(text):
    assert conflicts.scan(text) == []
    assert conflicts.first_marker_line(text) is None
    assert not conflicts.has_markers(text)


def test_a_restarted_hunk_drops_the_unterminated_one_before_it():
    text = "<<<<<<< HEAD\nx\n<<<<<<< HEAD\ny\n=======\nz\n>>>>>>> b\n"
    assert [(h.start, h.end) for h in conflicts.scan(text)] == [(3, 7)]


def test_merge_conflict_records_sit_on_the_first_marker_of_each_file():
    case = SAMPLES / "merge-conflict"
    records = classify_text((case / "output.txt").read_text(), Options(cwd=str(case)))
    placed = {r.source_file: (r.source_line, r.hint["hunks"]) for r in records}
    app_text = (case / "src/app.py").read_text().splitlines()
    line, hunks = placed["src/app.py"]
    assert app_text[line - 1].startswith("<<<<<<< ")
    assert hunks == [h.to_hint() for h in conflicts.scan((case / "src/app.py").read_text())]
    assert placed["src/config.json"][0] == 3


def test_a_conflicted_file_missing_from_the_tree_keeps_no_line(tmp_path):
    out = "CONFLICT (content): Merge conflict in src/gone.py\n"
    (record,) = classify_text(out, Options(cwd=str(tmp_path)))
    assert record.source_file == "src/gone.py"
    assert record.source_line is None
    assert "hunks" not in record.hint


def test_a_conflicted_path_that_leaves_the_tree_through_a_symlink_is_not_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    os.symlink(outside, tree / "linked")
    out = "CONFLICT (content): Merge conflict in linked/secret.py\n"
    (record,) = classify_text(out, Options(cwd=str(tree)))
    assert record.source_line is None


def test_unmerged_path_and_conflict_line_for_one_file_are_one_record(tmp_path):
    (tmp_path / "a.txt").write_text("x\n<<<<<<< HEAD\n1\n=======\n2\n>>>>>>> b\n")
    out = (
        "Auto-merging a.txt\n"
        "CONFLICT (content): Merge conflict in a.txt\n"
        "Automatic merge failed; fix conflicts and then commit the result.\n"
        "Unmerged paths:\n"
        '  (use "git add <file>..." to mark resolution)\n'
        "\tboth modified:   a.txt\n"
    )
    records = classify_text(out, Options(cwd=str(tmp_path)))
    assert [(r.rule, r.source_file, r.source_line) for r in records] == [
        ("git.conflict", "a.txt", 2)
    ]


def test_cli_json_carries_the_hunks_for_the_editor_actions(capsys):
    case = SAMPLES / "rebase-conflict-diff3"
    assert main(["classify", "--json", "--cwd", str(case), str(case / "output.txt")]) == 1
    (record,) = json.loads(capsys.readouterr().out)
    (hunk,) = record["hint"]["hunks"]
    assert hunk["start"] == record["source_line"]
    assert "base" in hunk
    assert record["hint"]["operation"] == "rebase"


def test_each_hunk_of_a_file_is_one_record_whose_id_survives_a_shift():
    records = conflicts.hunk_records("src/app.py", TWO_HUNKS, task="TASK-7")
    assert [(r.source_line, r.end_line) for r in records] == [(2, 6), (8, 11)]
    assert {r.failure_type.value for r in records} == {"branch_divergence"}
    assert records[0].hint["hunk"]["theirs"] == "feature"
    assert records[0].task == "TASK-7"
    assert records[0].rule == "conflicts.markers"
    shifted = conflicts.hunk_records("src/app.py", "import os\n\n" + TWO_HUNKS)
    assert [r.id for r in shifted] == [r.id for r in records]
    assert [r.source_line for r in shifted] == [4, 10]
    assert records[0].id != records[1].id
