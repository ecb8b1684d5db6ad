"""`gh pr checks` read as a pull request's failed checks (classifier/rules/
infra/pr_checks.py): the category each check's words name, the CI URL that
`faultlens ci` takes, and gh's exit statuses that are states, not failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier.command_kinds import exit_is_a_state, prints_a_job_log
from faultlens.classifier.engine import Options, classify_bytes
from faultlens.classifier.rules.infra.pr_checks import check_kind
from faultlens.classifier.taxonomy import FailureType

SAMPLES = Path(__file__).parent / "samples" / "infra"


@pytest.mark.parametrize(
    ("name", "description", "expected"),
    [
        ("license/cla", "Contributor License Agreement is not signed yet.", "trust_gate"),
        ("DCO", "", "trust_gate"),
        ("CodeQL/Analyze (javascript) (pull_request)", "", "trust_gate"),
        ("test (3.12)", "", "test"),
        ("e2e", "", "test"),
        ("codecov/patch", "48% of diff hit (target 80%)", "test"),
        ("Preview/deploy-preview (pull_request)", "", "infra"),
        ("docker", "", "infra"),
        ("typecheck", "", "compile"),
        ("CI/lint (push)", "", "compile"),
        ("build (ubuntu-latest)", "", "compile"),
        ("ci/circleci: job-17", "", "infra"),  # the words say nothing: the generic CI failure
    ],
)
def test_a_failed_checks_words_name_its_category(
    name: str, description: str, expected: str
) -> None:
    assert check_kind(name, description)[0] is FailureType(expected)


def _records(text: str) -> list[dict[str, object]]:
    return [r.to_json() for r in classify_bytes(text.encode(), Options(cwd="/nonexistent"))]


def test_each_failed_row_carries_its_check_and_the_url_faultlens_ci_takes() -> None:
    for case in ("gh-pr-checks-failing", "gh-pr-checks-failing-tty"):
        recs = _records((SAMPLES / case / "output.txt").read_text())
        hints = [r["hint"] for r in recs]
        assert [h.get("ci_url") for h in hints] == [  # type: ignore[union-attr]
            None,  # the CLA assistant's page is no CI run
            "https://github.com/acme/shop/actions/runs/77/job/902",
            "https://github.com/acme/shop/actions/runs/77/job/901",
        ]
        assert hints[0]["waits_for"] == "human"  # type: ignore[index]


def test_a_gitlab_pipeline_linked_by_a_check_is_a_ci_url() -> None:
    row = "pipeline\tfail\t3m0s\thttps://gitlab.example.com/group/shop/-/pipelines/5\t\n"
    (rec,) = _records(row)
    assert rec["hint"]["ci_url"] == "https://gitlab.example.com/group/shop/-/pipelines/5"  # type: ignore[index]


@pytest.mark.parametrize(
    "text",
    [
        "build\tpass\t1m2s\thttps://github.com/acme/shop/actions/runs/77/job/903\t\n",
        "deploy\tpending\t0\thttps://github.com/acme/shop/actions/runs/78/job/911\t\n",
        "name\tfail\tnot-a-duration\tsomething\n",  # some other tab-separated table
        "X  marks the spot\n",
    ],
)
def test_rows_that_are_no_failed_check_give_no_record(text: str) -> None:
    assert _records(text) == []


@pytest.mark.parametrize(
    ("command", "code", "state"),
    [
        ("gh pr checks 12", 8, True),
        ("gh pr checks --watch", 8, True),
        ("gh pr checks 12", 1, False),
        ("gh pr view 12", 8, False),
        ("git status", 8, False),
    ],
)
def test_gh_pr_checks_exit_8_is_pending_not_a_failure(command: str, code: int, state: bool) -> None:
    assert exit_is_a_state(command, code) is state


@pytest.mark.parametrize(
    ("command", "log"),
    [
        ("gh run view 77 --log-failed", True),
        ("gh run view --job 901 --log", True),
        ("glab ci trace 31", True),
        ("gh run view 77", False),
        ("gh pr checks", False),
    ],
)
def test_commands_that_print_a_job_log_are_known(command: str, log: bool) -> None:
    assert prints_a_job_log(command) is log
