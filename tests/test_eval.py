"""The accuracy table is the scorer's output (eval/score.py); the scorer works.
No score is asserted: the numbers are what they are."""

from __future__ import annotations

import json
from pathlib import Path

from eval import score
from faultlens.classifier.taxonomy import FailureType

CASES = score.CASES


def test_every_case_is_complete_and_labelled_with_known_categories():
    cases = score.load_cases()
    assert cases, "eval/cases is empty"
    for case in cases:
        assert case.output.is_file(), case.id
        assert case.command and case.meta.get("project") and case.meta.get("how"), case.id
        assert all(lab.category in {ft.value for ft in FailureType} for lab in case.labels)
        assert all(not Path(f).is_absolute() and ".." not in Path(f).parts for f in case.files)


def test_the_tables_in_readme_and_docs_are_the_scorers_output():
    report = score.run()
    table = score.table(report)
    assert score.block_in(score.README.read_text(), "table") == table, (
        "run: python -m eval.score --write"
    )
    accuracy = score.ACCURACY.read_text()
    assert score.block_in(accuracy, "table") == table, "run: python -m eval.score --write"
    assert score.block_in(accuracy, "cases") == score.cases_table(report)


def test_a_record_matches_a_label_of_its_category_and_is_located_by_file_and_line(tmp_path):
    case_dir = tmp_path / "python" / "one"
    case_dir.mkdir(parents=True)
    sample = Path(__file__).parent / "samples" / "python" / "mypy-errors-with-notes"
    (case_dir / "output.txt").write_bytes(next(sample.glob("output.*")).read_bytes())
    expected = json.loads((sample / "expected.json").read_text())
    labels = [
        {"category": e["failure_type"], "file": e["source_file"], "line": e["source_line"]}
        for e in expected
    ]
    meta = {
        "ecosystem": "Python",
        "project": "tests/samples/python/mypy-errors-with-notes",
        "how": "a sample, to test the scorer",
        "command": "mypy .",
        "exit_code": 1,
        "labels": [*labels, {"category": "test", "file": "missing.py", "line": 1}],
        "files": sorted({lab["file"] for lab in labels if lab["file"]}),
    }
    (case_dir / "case.json").write_text(json.dumps(meta))
    report = score.run(tmp_path)
    total = report.total
    assert (total.labels, total.tp, total.fn) == (len(labels) + 1, len(labels), 1)
    assert total.precision() == 1.0 and total.location() == 1.0
    assert report.by_category["test"].recall() == 0.0


def test_the_scorer_runs_as_one_command(capsys):
    assert score.main([]) == 0
    out = capsys.readouterr().out
    assert "| **all** |" in out and "Clean negatives:" in out
