"""The accuracy table is the scorer's output (eval/score.py); the scorer works.
No score is asserted: the numbers are what they are."""

from __future__ import annotations

import json
from pathlib import Path

from eval import corpus, score
from faultlens.classifier.taxonomy import FailureType

CASES = corpus.CASES


def test_every_case_is_complete_and_labelled_with_known_categories():
    cases = corpus.load_cases()
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
    assert score.block_in(accuracy, "classes") == score.classes_table(report)


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


def _ci_case(root: Path, name: str, output: bytes, labels: list[dict[str, object]]) -> None:
    case_dir = root / "ci" / name
    case_dir.mkdir(parents=True)
    (case_dir / "output.txt").write_bytes(output)
    meta = {
        "ecosystem": "Go",
        "input": "job-log",
        "project": "a test of the scorer",
        "how": "a sample inside a job log",
        "command": "go vet ./...",
        "exit_code": None,
        "labels": labels,
        "files": ["main.go"],
    }
    (case_dir / "case.json").write_text(json.dumps(meta))


def test_the_verdict_is_right_when_the_primary_record_has_the_primary_labels_category(tmp_path):
    failed = (
        b"2026-01-01T00:00:00.0000000Z ##[group]Run go vet ./...\n"
        b"2026-01-01T00:00:00.0000000Z ##[endgroup]\n"
        b"2026-01-01T00:00:00.1000000Z ./main.go:3:2: undefined: fmt\n"
        b"2026-01-01T00:00:00.2000000Z ##[error]Process completed with exit code 1.\n"
    )
    _ci_case(
        tmp_path,
        "compile",
        failed,
        [{"category": "compile", "file": "main.go", "line": 3, "primary": True}],
    )
    _ci_case(
        tmp_path,
        "wrong",
        failed,
        [{"category": "test", "file": None, "line": None, "primary": True}],
    )
    _ci_case(tmp_path, "negative", b"2026-01-01T00:00:00.0000000Z ok\n", [])
    report = score.run(tmp_path)
    verdicts = {res.case.id: res.verdict for res in report.results}
    assert verdicts["ci/compile"].first and verdicts["ci/compile"].found
    assert not verdicts["ci/wrong"].first and not verdicts["ci/wrong"].found
    assert verdicts["ci/negative"].first
    ci = report.sets["ci"]
    assert (ci.failed, ci.found, ci.first, ci.negatives, ci.clean) == (2, 1, 1, 1, 1)
    assert report.by_category["compile"].verdict() == 1.0
    assert "CI job logs: 2 failed, 1 successful" in score.table(report)


def test_a_job_log_is_written_as_the_runner_writes_it(tmp_path):
    from eval import joblog

    job = {"format": "github", "job": "build", "cwd": str(tmp_path)}
    steps = [joblog.Step(run="echo hello\nexit 3")]
    data, codes, result = joblog.run_github(job, steps)
    lines = data.decode().splitlines()
    assert codes == [3] and result == "failed"
    stamped = [line.split(" ", 1) for line in lines]
    assert all(len(s) == 2 and s[0].endswith("Z") and len(s[0]) == 28 for s in stamped)
    text = [s[1] for s in stamped]
    assert "##[group]Run echo hello" in text and "##[endgroup]" in text
    assert "shell: /usr/bin/bash -e {0}" in text or "shell: /bin/bash -e {0}" in text
    assert text.index("hello") < text.index("##[error]Process completed with exit code 3.")
    assert text[-1] == "Cleaning up orphan processes"


def test_a_job_log_names_the_runners_workspace_not_the_folder_it_ran_in(tmp_path):
    from eval import joblog

    real = tmp_path / "mux-real"
    real.mkdir()
    (tmp_path / "mux").symlink_to(real)
    cwd = str(tmp_path / "mux")
    job = {"format": "github", "job": "build", "cwd": cwd}
    # the folder as given, as its real path, and a sibling whose name starts the same
    said = [f"{cwd}/a.go:1", f"{real}/b.go:2", f"{cwd}er/c.go"]
    steps = [joblog.Step(run="\n".join(f"echo '{s}'" for s in said))]
    data, _, _ = joblog.run_github(job, steps)
    text = joblog.relocate(data, cwd, joblog.workspace(job)).decode()
    assert "/home/runner/work/mux/mux/a.go:1" in text
    assert "/home/runner/work/mux/mux/b.go:2" in text
    assert f"{cwd}er/c.go" in text  # another folder whose name starts the same
    assert str(real) not in text
    assert joblog.workspace({"format": "gitlab", "cwd": cwd}) == "/builds/ci/mux"
