"""`faultlens ci`: a CI run's failed jobs fetched from the service's REST API
(stand-ins on loopback, tests/ci_standin.py), their logs classified against
the local checkout.  The logs are real tsc and eslint runs written as
actions/runner writes a job log (tests/ci_logs/capture.sh)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultlens.remote import ciurl
from faultlens.remote.http import Client, RemoteError
from faultlens.remote.service import ci, publish_comment

from .ci_standin import (
    LOGS,
    Answer,
    Seen,
    StandIn,
    api_env,
    comment_thread,
    git,
    github_run,
    gitlab_pipeline,
    listed_runs,
    make_checkout,
    serving,
)

TOKEN = "ghp_standinTOKEN0123456789abcdefABCDEF"
RUN_URL = "https://github.com/acme/shop/actions/runs/77"


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    return make_checkout(tmp_path)


def _env(api: StandIn, **extra: str) -> dict[str, str]:
    return api_env(api, TOKEN, **extra)


def _faultlens_ci(
    checkout: Path, env: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "faultlens", "ci", *args],
        cwd=checkout, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_ci_json_places_the_failed_jobs_at_the_lines_of_the_local_checkout(checkout: Path) -> None:
    """The issue's "done when": the tsc error of the failed job's log at
    src/auth/middleware.ts:42 of this checkout, only the failed jobs' logs
    requested, the token sent to the API and printed nowhere."""
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(checkout, "rev-parse", "HEAD"))
        proc = _faultlens_ci(checkout, _env(api), "--json", RUN_URL)
    assert proc.returncode == 1, proc.stderr
    assert TOKEN not in proc.stdout + proc.stderr
    assert "s3cr3t-download-signature" not in proc.stdout + proc.stderr
    (run,) = json.loads(proc.stdout)["runs"]
    assert run["head"]["matches"] is True
    jobs = {j["name"]: j for j in run["failed_jobs"]}
    assert set(jobs) == {"typecheck", "lint"}
    primary = jobs["typecheck"]["primary"]
    assert (primary["failure_type"], primary["source_file"], primary["source_line"]) == (
        "compile",
        "src/auth/middleware.ts",
        42,
    )
    lint = jobs["lint"]["primary"]  # eslint printed the runner's absolute path
    assert (lint["source_file"], lint["source_line"]) == ("src/util.js", 3)
    logs = [s.path for s in api.requests("/logs")]
    assert sorted(logs) == [
        "/repos/acme/shop/actions/jobs/901/logs",
        "/repos/acme/shop/actions/jobs/902/logs",
    ]
    assert all(s.headers.get("authorization") == f"Bearer {TOKEN}" for s in api.seen)
    assert downloads.seen and all("authorization" not in s.headers for s in downloads.seen)


def test_the_text_report_names_each_failed_job_and_its_primary_failure_first(
    checkout: Path,
) -> None:
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(checkout, "rev-parse", "HEAD"))
        proc = _faultlens_ci(checkout, _env(api), RUN_URL)
    lines = proc.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("✗ typecheck"))
    assert "src/auth/middleware.ts:42" in lines[at + 1]
    assert "TS2304" in lines[at + 1]
    assert "✓ 1 job passed" in lines


def test_a_checkout_ahead_of_the_run_is_told_by_how_many_commits(checkout: Path) -> None:
    run_sha = git(checkout, "rev-parse", "HEAD")
    (checkout / "README.md").write_text("more\n")
    git(checkout, "add", ".")
    git(checkout, "commit", "-qm", "more")
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=run_sha)
        (report,) = ci(RUN_URL, checkout, _env(api))
    assert report.head is not None
    assert (report.head.matches, report.head.ahead, report.head.behind) == (False, 1, 0)
    assert "1 commit ahead" in report.head.note


def test_a_job_url_fetches_that_jobs_log_only(checkout: Path) -> None:
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(checkout, "rev-parse", "HEAD"))
        (report,) = ci("https://github.com/acme/shop/actions/runs/77/job/902", checkout, _env(api))
    assert [j.job.name for j in report.jobs] == ["lint"]
    assert [s.path for s in api.requests("/logs")] == ["/repos/acme/shop/actions/jobs/902/logs"]


def test_a_pull_request_url_takes_its_head_commits_latest_runs(checkout: Path) -> None:
    sha = git(checkout, "rev-parse", "HEAD")
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=sha)
        api.routes[("GET", "/repos/acme/shop/pulls/12")] = Answer(body={"head": {"sha": sha}})
        listed_runs(api, {"id": 70})  # an older run of the same workflow
        reports = ci("https://github.com/acme/shop/pull/12", checkout, _env(api))
        (listing,) = api.requests("/actions/runs")[:1]
    assert [r.run.ident for r in reports] == [77]  # the newest run of the workflow
    assert listing.query["head_sha"] == [sha]


def test_without_a_url_the_branchs_latest_run_on_origin_is_fetched(checkout: Path) -> None:
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(checkout, "rev-parse", "HEAD"))
        listed_runs(api)
        (report,) = ci(None, checkout, _env(api))
        listing = api.requests("/actions/runs")[0]
    assert listing.query["branch"] == ["feature/auth"]
    assert report.failed


def test_jobs_are_read_page_by_page(checkout: Path) -> None:
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(checkout, "rev-parse", "HEAD"))
        jobs_route = api.routes[("GET", "/repos/acme/shop/actions/runs/77/jobs")]
        assert isinstance(jobs_route, Answer)
        failing = jobs_route.body["jobs"][:1]
        passing = [
            {**jobs_route.body["jobs"][2], "id": 1000 + i, "name": f"matrix {i}"}
            for i in range(100)
        ]

        def pages(seen: Seen) -> Answer:
            page = int(seen.query.get("page", ["1"])[0])
            return Answer(body={"total_count": 101, "jobs": passing if page == 1 else failing})

        api.routes[("GET", "/repos/acme/shop/actions/runs/77/jobs")] = pages
        (report,) = ci(RUN_URL, checkout, _env(api))
    assert len(report.jobs) == 101
    assert [j.job.name for j in report.jobs if j.job.failed] == ["typecheck"]


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (Answer(401, {"message": "Bad credentials"}), "refused the token (401"),
        (Answer(404, {"message": "Not Found"}), "no such resource (404"),
        (
            Answer(
                403,
                {"message": "API rate limit exceeded"},
                {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1893456000"},
            ),
            "rate limit reached (403); it resets at 00:00:00 UTC",
        ),
        (Answer(429, {"message": "slow down"}, {"retry-after": "30"}), "retry after 30 s"),
        (Answer(403, {"message": "Resource not accessible"}), "denied access (403"),
    ],
)
def test_service_errors_are_one_line_without_the_token(
    checkout: Path, answer: Answer, said: str
) -> None:
    with serving() as api:
        api.routes[("GET", "/repos/acme/shop/actions/runs/77")] = answer
        with pytest.raises(RemoteError) as err:
            ci(RUN_URL, checkout, _env(api))
    text = str(err.value)
    assert said in text
    assert "\n" not in text and TOKEN not in text


def test_the_cli_says_a_service_error_in_one_line_and_exits_2(checkout: Path) -> None:
    with serving() as api:
        api.routes[("GET", "/repos/acme/shop/actions/runs/77")] = Answer(401, {"message": "no"})
        proc = _faultlens_ci(checkout, _env(api), RUN_URL)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "401" in proc.stderr
    assert TOKEN not in proc.stdout + proc.stderr


def test_a_log_over_the_bound_is_refused_and_the_other_jobs_still_read(checkout: Path) -> None:
    from faultlens.remote import cireport
    from faultlens.remote.jobs import Job, Run

    run = Run("github", "acme/shop", 1, "", "0" * 40, None, "completed", "failure")
    run.jobs = [Job(1, "big", "failure"), Job(2, "small", "failure")]
    with serving() as api:
        api.routes[("GET", "/big")] = Answer(body=b"x" * 5000)
        api.routes[("GET", "/small")] = Answer(body=(LOGS / "typecheck.log").read_bytes())
        client = Client(api.url)
        reports = cireport.classify_jobs(
            run, lambda job: client.get(f"/{job.name}", limit=4096).body, checkout
        )
    assert reports[0].error is not None and "larger than" in reports[0].error
    assert reports[1].primary is not None and reports[1].primary.source_line == 42


def test_a_server_that_does_not_answer_in_time_is_one_line() -> None:
    with serving() as api:

        def slow(_: object) -> Answer:
            time.sleep(2)
            return Answer(body={})

        api.routes[("GET", "/slow")] = slow
        with pytest.raises(RemoteError, match=r"did not answer within 0\.5 s"):
            Client(api.url, timeout=0.5).get_json("/slow")


def test_redirect_loops_end_and_the_token_stays_on_its_host() -> None:
    with serving() as api, serving() as other:
        api.routes[("GET", "/loop")] = Answer(302, b"", {"Location": f"{other.url}/loop"})
        other.routes[("GET", "/loop")] = Answer(302, b"", {"Location": f"{api.url}/loop"})
        with pytest.raises(RemoteError, match=r"more than 5 redirects"):
            Client(api.url, auth={"Authorization": "Bearer T"}).get("/loop")
    assert all("authorization" not in s.headers for s in other.seen)


@pytest.mark.parametrize(
    "base", ["http://example.com/api", "ftp://127.0.0.1/", "file:///etc/passwd"]
)
def test_only_https_or_loopback_http_is_ever_requested(base: str) -> None:
    with pytest.raises(RemoteError, match="only https"):
        Client(base)


def test_a_redirect_to_plain_http_elsewhere_is_refused() -> None:
    with serving() as api:
        api.routes[("GET", "/log")] = Answer(302, b"", {"Location": "http://example.com/x?sig=1"})
        with pytest.raises(RemoteError) as err:
            Client(api.url).get("/log")
    assert "only https" in str(err.value) and "sig=1" not in str(err.value)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (RUN_URL, ("github", "acme/shop", "run", 77, None)),
        (
            "https://github.com/acme/shop/actions/runs/77/job/5",
            ("github", "acme/shop", "job", 77, 5),
        ),
        (
            "https://github.com/acme/shop/actions/runs/77/attempts/2",
            ("github", "acme/shop", "run", 77, None),
        ),
        ("https://github.com/acme/shop/pull/12/checks", ("github", "acme/shop", "pull", 12, None)),
        (
            "https://gitlab.example.com/group/sub/app/-/pipelines/5",
            ("gitlab", "group/sub/app", "pipeline", 5, None),
        ),
        (
            "https://gitlab.com/group/app/-/jobs/9",
            ("gitlab", "group/app", "gitlab_job", 9, None),
        ),
    ],
)
def test_ci_urls_name_their_run_job_or_pull_request(url: str, expected: tuple[object, ...]) -> None:
    t = ciurl.parse(url)
    assert (t.service, t.project, t.kind, t.ident, t.job) == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/acme/shop",
        "https://github.com/acme/shop/actions/runs/abc",
        "ssh://github.com/acme/shop/pull/1",
        "https://gitlab.com/app/-/merge_requests/3",
    ],
)
def test_a_url_that_names_no_run_is_a_one_line_error(url: str) -> None:
    with pytest.raises(ciurl.CIUrlError) as err:
        ciurl.parse(url)
    assert "\n" not in str(err.value)


def test_a_url_with_credentials_is_shown_without_them() -> None:
    with pytest.raises(ciurl.CIUrlError) as err:
        ciurl.parse("https://user:hunter2@github.com/acme")
    assert "hunter2" not in str(err.value)


@pytest.mark.parametrize(
    ("remote", "service", "project"),
    [
        ("https://github.com/acme/shop.git", "github", "acme/shop"),
        ("git@github.com:acme/shop.git", "github", "acme/shop"),
        ("https://gitlab.com/group/sub/app.git", "gitlab", "group/sub/app"),
        ("ssh://git@gitlab.example.com/group/app", "gitlab", "group/app"),
    ],
)
def test_the_origin_remote_names_the_repository(remote: str, service: str, project: str) -> None:
    t = ciurl.from_remote(remote, "main")
    assert (t.service, t.project, t.branch) == (service, project, "main")


def test_a_gitlab_pipeline_reads_its_failed_jobs_traces_with_the_private_token(
    checkout: Path,
) -> None:
    with serving() as api:
        gitlab_pipeline(api, git(checkout, "rev-parse", "HEAD"))
        env = {**_env(api), "CI_API_V4_URL": f"{api.url}/api/v4", "GITLAB_TOKEN": "glpat-XYZ"}
        (report,) = ci("https://gitlab.example.com/group/shop/-/pipelines/5", checkout, env)
    failed = [j for j in report.jobs if j.job.failed]
    assert [j.job.name for j in failed] == ["typecheck"]  # docs may fail
    assert failed[0].primary is not None
    assert (failed[0].primary.source_file, failed[0].primary.source_line) == (
        "src/auth/middleware.ts",
        42,
    )
    assert [s.path for s in api.requests("/trace")] == [
        "/api/v4/projects/group%2Fshop/jobs/31/trace"
    ]
    assert all(s.headers.get("private-token") == "glpat-XYZ" for s in api.seen)


def test_the_comment_is_added_once_then_edited_in_place(checkout: Path) -> None:
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(checkout, "rev-parse", "HEAD"))
        comments = comment_thread(
            api, "/repos/acme/shop/issues/12/comments", "PATCH", "/repos/acme/shop/issues/comments"
        )
        url = RUN_URL
        env = _env(api)
        from faultlens.remote.comment import markdown

        reports = ci(url, checkout, env)
        body = markdown(reports)
        first = publish_comment(url, checkout, reports, body, env=env)
        again = publish_comment(url, checkout, reports, body, env=env)
        changed = publish_comment(url, checkout, reports, body + "\nmore", env=env)
    assert (first, again, changed) == ("added", "unchanged", "updated")
    assert len(comments) == 1
    text = str(comments[0]["body"])
    assert "`src/auth/middleware.ts:42`" in text and "| [typecheck](" in text
    assert TOKEN not in text


def test_the_job_summary_gets_the_same_table(checkout: Path, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(checkout, "rev-parse", "HEAD"))
        proc = _faultlens_ci(
            checkout,
            _env(api, GITHUB_STEP_SUMMARY=str(summary)),
            "--summary",
            RUN_URL,
        )
    assert proc.returncode == 1, proc.stderr
    text = summary.read_text()
    assert text.startswith("<!-- faultlens:ci -->")
    assert "compile" in text and "src/util.js:3" in text


def test_table_cells_never_carry_markup_or_mentions_from_the_log() -> None:
    from faultlens.remote.comment import _cell

    cell = _cell("a | b <img src=x> @octocat\nnext `x`")
    assert "|" not in cell.replace("\\|", "")
    assert "<img" not in cell and "@octocat" not in cell and "\n" not in cell


def test_the_gitlab_merge_request_note_is_added_then_edited(checkout: Path) -> None:
    with serving() as api:
        gitlab_pipeline(api, git(checkout, "rev-parse", "HEAD"))
        base = "/api/v4/projects/group%2Fshop/merge_requests/4/notes"
        notes = comment_thread(api, base, "PUT", base)
        env = {
            **_env(api),
            "CI_API_V4_URL": f"{api.url}/api/v4",
            "GITLAB_TOKEN": "glpat-XYZ",
            "CI_MERGE_REQUEST_IID": "4",
        }
        url = "https://gitlab.example.com/group/shop/-/pipelines/5"
        from faultlens.remote.comment import markdown

        reports = ci(url, checkout, env)
        first = publish_comment(url, checkout, reports, markdown(reports), env=env)
        second = publish_comment(url, checkout, reports, markdown(reports) + "x", env=env)
    assert (first, second) == ("added", "updated")
    assert len(notes) == 1 and "| [typecheck](" in str(notes[0]["body"])
