"""Whether the branch's last CI run failed (remote/branchstate.py), what the
editor offers "Show CI Failures" on: one API call to the loopback stand-in,
only with a token and a GitHub/GitLab origin, its answer cached."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from faultlens.remote import branchstate

from .ci_standin import Answer, StandIn, api_env, git, make_checkout, serving

TOKEN = "ghp_branchSTANDIN0123456789abcdefABCDEF"
RUNS = "/repos/acme/shop/actions/runs"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _runs(api: StandIn, sha: str, *conclusions: str) -> None:
    body = [
        {
            "id": 77 + i,
            "name": f"wf{i}",
            "head_sha": sha,
            "head_branch": "feature/auth",
            "status": "completed",
            "conclusion": c,
            "html_url": f"https://github.com/acme/shop/actions/runs/{77 + i}",
        }
        for i, c in enumerate(conclusions)
    ]
    api.routes[("GET", RUNS)] = Answer(body={"total_count": len(body), "workflow_runs": body})


def test_a_failed_last_run_is_told_with_one_call_and_no_log(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path)
    with serving() as api:
        _runs(api, git(repo, "rev-parse", "HEAD"), "failure", "success")
        answer = branchstate.last_run_failed(repo, api_env(api, TOKEN), ask_gh=False)
        seen = list(api.seen)
    assert answer == {
        "service": "github",
        "project": "acme/shop",
        "branch": "feature/auth",
        "runs": [
            {
                "name": "wf0",
                "url": "https://github.com/acme/shop/actions/runs/77",
                "sha": git(repo, "rev-parse", "HEAD"),
                "conclusion": "failure",
            }
        ],
    }
    (call,) = seen  # the runs of the branch: no jobs, no logs
    assert (call.path, call.query["branch"]) == (RUNS, ["feature/auth"])
    assert call.headers["authorization"] == f"Bearer {TOKEN}"


def test_the_answer_is_kept_for_a_while_then_asked_again(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path)
    with serving() as api:
        _runs(api, git(repo, "rev-parse", "HEAD"), "failure")
        env = api_env(api, TOKEN)
        t = time.time()
        first = branchstate.last_run_failed(repo, env, now=t, ask_gh=False)
        _runs(api, git(repo, "rev-parse", "HEAD"), "success")  # the next run passed
        kept = branchstate.last_run_failed(repo, env, now=t + 60, ask_gh=False)
        later = branchstate.last_run_failed(repo, env, now=t + branchstate.TTL + 1, ask_gh=False)
        calls = len(api.seen)
    assert first is not None and kept == first
    assert later is None and calls == 2
    cache = (tmp_path / "cache" / "faultlens" / branchstate.CACHE).read_bytes()
    assert TOKEN.encode() not in cache


def test_without_a_token_nothing_is_asked(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path)
    with serving() as api:
        env = {**api_env(api, TOKEN), "GITHUB_TOKEN": ""}
        assert branchstate.last_run_failed(repo, env, ask_gh=False) is None
        assert api.seen == []


def test_a_checkout_without_a_github_or_gitlab_origin_asks_nothing(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path)
    git(repo, "remote", "remove", "origin")
    with serving() as api:
        assert branchstate.last_run_failed(repo, api_env(api, TOKEN), ask_gh=False) is None
        assert api.seen == []


def test_an_api_error_is_no_answer_and_not_kept(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path)
    with serving() as api:
        api.routes[("GET", RUNS)] = Answer(401, {"message": "Bad credentials"})
        env = api_env(api, TOKEN)
        assert branchstate.last_run_failed(repo, env, ask_gh=False) is None
        _runs(api, git(repo, "rev-parse", "HEAD"), "failure")
        assert branchstate.last_run_failed(repo, env, ask_gh=False) is not None


def test_a_gitlab_branchs_failed_pipeline_is_told(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path)
    git(repo, "remote", "set-url", "origin", "https://gitlab.example.com/group/shop.git")
    with serving() as api:
        api.routes[("GET", "/api/v4/projects/group%2Fshop/pipelines")] = Answer(
            body=[
                {
                    "id": 5,
                    "sha": "a" * 40,
                    "ref": "feature/auth",
                    "status": "failed",
                    "web_url": "https://gitlab.example.com/group/shop/-/pipelines/5",
                }
            ]
        )
        env = {**api_env(api, ""), "CI_API_V4_URL": f"{api.url}/api/v4", "GITLAB_TOKEN": "glpat-B"}
        answer = branchstate.last_run_failed(repo, env, ask_gh=False)
        (call,) = api.seen
    assert answer is not None and answer["runs"][0]["url"].endswith("/-/pipelines/5")
    assert call.query["ref"] == ["feature/auth"] and call.headers["private-token"] == "glpat-B"
