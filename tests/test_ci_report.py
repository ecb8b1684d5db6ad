"""`faultlens report` inside a CI job: the failures this job's `faultlens
run` steps recorded (a real tsc run in the checkout the CI job logs were made
from), written to the job summary and to the pull request's one comment,
where each job keeps its own section; GitLab's merge-request note alike.  The
APIs are the loopback stand-ins of tests/ci_standin.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultlens.remote.cienv import CurrentJob, from_env
from faultlens.remote.jobcomment import merged, sections_of

from .ci_standin import api_env, comment_thread, make_checkout, serving

TOKEN = "ghp_reportSTANDIN0123456789abcdefABCDEF"
TSC = Path(__file__).resolve().parents[1] / "tools" / "node" / "node_modules" / ".bin" / "tsc"
COMMENTS = "/repos/acme/shop/issues/12/comments"


def _faultlens(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "faultlens", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shop checkout after a job's `faultlens run -- tsc -p .` failed with
    TS2304 at src/auth/middleware.ts:42 (recorded in its .faultlens)."""
    if not TSC.exists():
        pytest.skip("tools/node has no tsc (scripts/install-tools.sh)")
    repo = make_checkout(tmp_path_factory.mktemp("job"))
    proc = _faultlens(repo, dict(os.environ), "run", "--", str(TSC), "-p", ".", "--pretty", "false")
    assert proc.returncode == 2, proc.stderr
    return repo


def _job(recorded: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The recorded checkout (read only: a ledger copied elsewhere is not
    trusted) and the job's event file, written as the job started (before
    the run)."""
    repo = recorded
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 12, "head": {"sha": "f" * 40}}}))
    os.utime(event, (time.time() - 3600, time.time() - 3600))
    return repo, event


def _github(api_url: str, event: Path, summary: Path, job: str = "typecheck") -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "GITLAB"))},
        "GITHUB_ACTIONS": "true",
        "GITHUB_API_URL": api_url,
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_REPOSITORY": "acme/shop",
        "GITHUB_RUN_ID": "77",
        "GITHUB_WORKFLOW": "CI",
        "GITHUB_JOB": job,
        "GITHUB_REF": "refs/pull/12/merge",
        "GITHUB_SHA": "e" * 40,
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_STEP_SUMMARY": str(summary),
    }


pytestmark = pytest.mark.real_tool


def test_the_jobs_recorded_failure_goes_to_the_summary_and_the_pull_requests_comment(
    recorded: Path, tmp_path: Path
) -> None:
    repo, event = _job(recorded, tmp_path)
    summary = tmp_path / "summary.md"
    with serving() as api:
        comments = comment_thread(api, COMMENTS, "PATCH", "/repos/acme/shop/issues/comments")
        proc = _faultlens(repo, _github(api.url, event, summary), "report", "--comment")
        seen = list(api.seen)
    assert proc.returncode == 0, proc.stderr
    assert "pull request comment added" in proc.stderr
    assert "src/auth/middleware.ts:42" in proc.stdout and "TS2304" in proc.stdout
    text = summary.read_text()
    assert text.startswith("<!-- faultlens:ci -->")  # the table `faultlens ci --summary` writes
    assert (
        "| [typecheck: tsc -p . --pretty false](https://github.com/acme/shop/actions/runs/77)"
        in text
    )
    assert "`src/auth/middleware.ts:42`" in text
    (comment,) = comments
    body = str(comment["body"])
    assert body.startswith("<!-- faultlens:ci -->")
    assert "<!-- faultlens:job ffffffffffff CI/typecheck -->" in body  # the head commit's
    assert "`src/auth/middleware.ts:42`" in body
    assert all(s.headers.get("authorization") == f"Bearer {TOKEN}" for s in seen)
    assert TOKEN not in proc.stdout + proc.stderr + body + text


def test_each_job_keeps_its_own_section_of_the_one_comment(recorded: Path, tmp_path: Path) -> None:
    repo, event = _job(recorded, tmp_path)
    clean = make_checkout(tmp_path / "lint-runner")  # a job that recorded nothing failing
    summary = tmp_path / "summary.md"
    with serving() as api:
        comments = comment_thread(api, COMMENTS, "PATCH", "/repos/acme/shop/issues/comments")
        first = _faultlens(repo, _github(api.url, event, summary), "report", "--comment")
        lint = _faultlens(clean, _github(api.url, event, summary, "lint"), "report", "--comment")
        again = _faultlens(repo, _github(api.url, event, summary), "report", "--comment")
    assert "added" in first.stderr and "unchanged" in lint.stderr and "unchanged" in again.stderr
    (comment,) = comments
    assert list(sections_of(str(comment["body"]))) == ["ffffffffffff CI/typecheck"]


def test_runs_from_before_the_job_started_are_not_this_jobs(recorded: Path, tmp_path: Path) -> None:
    repo, event = _job(recorded, tmp_path)
    os.utime(event, None)  # the job started now, after the recorded run
    proc = _faultlens(repo, _github("http://127.0.0.1:9", event, tmp_path / "s.md"), "report")
    assert proc.returncode == 0, proc.stderr
    assert "✗" not in proc.stdout and "middleware" not in proc.stdout


def test_a_command_that_passed_when_run_again_is_no_failure(recorded: Path, tmp_path: Path) -> None:
    _, event = _job(recorded, tmp_path)
    repo = make_checkout(tmp_path / "own")
    tsc = [str(TSC), "-p", ".", "--pretty", "false"]
    assert _faultlens(repo, dict(os.environ), "run", "--", *tsc).returncode == 2
    mw = repo / "src" / "auth" / "middleware.ts"
    mw.write_text("import { UserProfile } from './profile';\n" + mw.read_text())
    rerun = _faultlens(
        repo, dict(os.environ), "run", "--", str(TSC), "-p", ".", "--pretty", "false"
    )
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    proc = _faultlens(repo, _github("http://127.0.0.1:9", event, tmp_path / "s.md"), "report")
    assert "✗" not in proc.stdout, proc.stdout
    assert "No failed job" in (tmp_path / "s.md").read_text()


def test_a_gitlab_job_keeps_the_merge_requests_note(recorded: Path, tmp_path: Path) -> None:
    repo, _ = _job(recorded, tmp_path)
    notes_path = "/api/v4/projects/group%2Fshop/merge_requests/4/notes"
    with serving() as api:
        notes = comment_thread(api, notes_path, "PUT", notes_path)
        env = {
            **api_env(api, "unused"),
            "GITLAB_CI": "true",
            "CI_API_V4_URL": f"{api.url}/api/v4",
            "GITLAB_TOKEN": "glpat-REPORT",
            "CI_SERVER_URL": "https://gitlab.example.com",
            "CI_PROJECT_PATH": "group/shop",
            "CI_PIPELINE_ID": "5",
            "CI_PIPELINE_URL": "https://gitlab.example.com/group/shop/-/pipelines/5",
            "CI_JOB_NAME": "typecheck",
            "CI_JOB_URL": "https://gitlab.example.com/group/shop/-/jobs/31",
            "CI_COMMIT_SHA": "a" * 40,
            "CI_MERGE_REQUEST_IID": "4",
            "CI_JOB_STARTED_AT": "2020-01-01T00:00:00Z",
        }
        env.pop("GITHUB_ACTIONS", None)
        proc = _faultlens(repo, env, "report", "--comment")
        seen = list(api.seen)
    assert proc.returncode == 0, proc.stderr
    (note,) = notes
    body = str(note["body"])
    assert "<!-- faultlens:job aaaaaaaaaaaa typecheck -->" in body
    assert (
        "| [typecheck: tsc -p . --pretty false](https://gitlab.example.com/group/shop/-/jobs/31)"
        in body
    )
    assert all(s.headers.get("private-token") == "glpat-REPORT" for s in seen)


@pytest.mark.fast
def test_outside_a_ci_job_report_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GITLAB", "CI_"))}
    proc = _faultlens(tmp_path, env, "report")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "not inside a GitHub Actions or GitLab CI job" in proc.stderr


def _key(sha: str, job: str) -> str:
    return CurrentJob("github", "", "o/r", 1, job, "", sha, None, 1, "CI").section


def test_sections_of_the_same_commit_are_kept_and_an_older_commits_dropped() -> None:
    a, b = _key("1" * 40, "test"), _key("1" * 40, "lint")
    body = merged(None, a, f"<!-- faultlens:job {a} -->\n| test row |\n")
    assert body is not None
    body = merged(body, b, f"<!-- faultlens:job {b} -->\n| lint row |\n")
    assert body is not None and list(sections_of(body)) == [a, b]
    body = merged(body, a, None)  # test passes now
    assert body is not None and list(sections_of(body)) == [b]
    newer = _key("2" * 40, "test")
    body = merged(body, newer, None)  # a newer commit's job: the old sections go
    assert body is not None and sections_of(body) == {} and "No failed job" in body
    assert merged(None, newer, None) is None  # nothing failed and no comment yet: none made


def test_a_job_name_cannot_close_the_sections_marker() -> None:
    key = _key("3" * 40, "evil --> <script>")
    assert "-->" not in key and "<" not in key


def test_the_environment_names_the_pull_request_from_the_ref_or_the_event(tmp_path: Path) -> None:
    env = {"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_RUN_ID": "77"}
    job = from_env({**env, "GITHUB_REF": "refs/pull/9/merge", "GITHUB_SHA": "c" * 40})
    assert job is not None and (job.pull, job.sha) == (9, "c" * 40)
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 12, "head": {"sha": "d" * 40}}}))
    job = from_env({**env, "GITHUB_EVENT_PATH": str(event), "GITHUB_REF": "refs/heads/x"})
    assert job is not None and (job.pull, job.sha) == (12, "d" * 40)
    assert job.started is not None and abs(job.started - event.stat().st_mtime) < 1
    assert from_env({**env, "GITHUB_REPOSITORY": "../x"}) is None
    assert from_env({}) is None
