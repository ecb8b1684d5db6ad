"""pre-commit's hook reports (classifier/rules/precommit.py) on captured output:
a formatter that changed files is a record at the file it changed; a hook
whose output a linter rule reads is reported by the linter's findings only."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier import Options, classify_file

SAMPLES = Path(__file__).parent / "samples" / "precommit"


def _records(case: str):
    d = SAMPLES / case
    return classify_file(d / "output.txt", Options(cwd=str(d)))


def test_formatters_that_changed_files_are_records_and_a_linters_hook_is_its_findings():
    recs = _records("formatters-and-linter")
    hooks = {r.hint["hook_id"]: r for r in recs if r.rule == "precommit.hook_failed"}
    assert sorted(hooks) == ["black", "isort", "trailing-whitespace"]  # flake8: its F401s
    for r in hooks.values():
        assert r.hint["modified"] is True and r.hint["files"] == ["app/cart.py"]
        assert r.source_file == "app/cart.py"
    assert hooks["isort"].message == "pre-commit hook isort modified 1 file"
    assert sorted(r.message for r in recs if r.rule != "precommit.hook_failed") == [
        "'os' imported but unused",
        "'sys' imported but unused",
    ]


def test_a_hook_that_only_exits_non_zero_says_its_status_and_first_words():
    (rec,) = _records("exit-code-only")
    assert rec.hint["exit_code"] == 3 and rec.hint["modified"] is False
    assert rec.message == (
        "pre-commit hook check-todo failed (exit code 3): "
        "TODO markers must be resolved before merging"
    )
    assert rec.log_line == 1  # the hook's result line


def test_passed_and_skipped_hooks_start_no_report():
    assert _records("negative-all-passed") == []
    text = (
        "mypy.................................................(no files to check)Skipped\n"
        "- hook id: mypy\n"
    )
    from faultlens.classifier import classify_text

    assert classify_text(text) == []


def test_the_diff_of_show_diff_on_failure_after_the_last_hook_adds_nothing():
    """`--show-diff-on-failure` (how CI runs pre-commit) prints every hook's
    changes as one diff after the last hook: the same records as without it."""
    plain = [(r.rule, r.source_file, r.message) for r in _records("formatters-and-linter")]
    with_diff = [(r.rule, r.source_file, r.message) for r in _records("show-diff-on-failure")]
    assert with_diff == plain


def test_the_last_hooks_report_ends_at_pre_commits_footer_or_its_window():
    """The last hook's output has no next result line after it: pre-commit's
    own footer ends it, else a window of HookReport.max_lines lines, so what a
    CI job prints next (another step's failures) is not read as its output."""
    from faultlens.classifier import classify_text
    from faultlens.classifier.rules.precommit import HookReport

    lines = (SAMPLES / "exit-code-only" / "output.txt").read_text().splitlines()
    hook = lines[: lines.index("fix end of files" + "." * 57 + "Passed")]
    footer = ["pre-commit hook(s) made changes.", "All changes made by hooks:", "--- a/x.py"]
    (rec,) = classify_text("\n".join(hook + footer) + "\n")
    assert rec.hint["section"] == [1, len(hook)]
    later = ["step output"] * (HookReport.max_lines + 5) + ["src/app.py:3:1: E999 bad"]
    (rec,) = [
        r
        for r in classify_text("\n".join(hook + later) + "\n")
        if r.rule == "precommit.hook_failed"
    ]
    assert rec.hint["section"] == [1, 2 + HookReport.max_lines]  # opened at `- hook id:`
