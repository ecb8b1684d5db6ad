"""GitHub Actions through its REST API (version 2022-11-28): a run, its jobs,
the failed jobs' logs; the runs of a pull request's head commit or of a
branch; one pull-request comment.

The API base is GITHUB_API_URL (set by Actions itself inside a job and by
GitHub Enterprise), else `https://api.github.com` for github.com and
`https://HOST/api/v3` for an Enterprise host.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from .answers import Answers
from .ciurl import Target
from .http import MAX_LOG, Client, RemoteError
from .jobs import Job, Run

PER_PAGE = 100
_A = Answers("GitHub")
MAX_PAGES = 10  # 1,000 jobs: more than any run has


def api_base(host: str, env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    configured = env.get("GITHUB_API_URL", "").strip()
    if configured:
        return configured
    if host in ("github.com", "www.github.com"):
        return "https://api.github.com"
    return f"https://{host}/api/v3"


def client(host: str, token: str | None, env: Mapping[str, str] | None = None) -> Client:
    auth = {"X-GitHub-Api-Version": "2022-11-28"}
    if token:
        auth["Authorization"] = f"Bearer {token}"
    return Client(api_base(host, env), auth=auth, service="GitHub")


class GitHub:
    """The calls `faultlens ci` makes, for one repository."""

    def __init__(self, api: Client, project: str) -> None:
        self.api = api
        self.repo = f"repos/{project}"
        self.project = project

    def run(self, run_id: int) -> Run:
        data = _A.obj(self.api.get_json(f"{self.repo}/actions/runs/{run_id}"), "run")
        return _run(data, self.project)

    def jobs(self, run: Run) -> list[Job]:
        return [_job(j) for j in self._pages(f"{self.repo}/actions/runs/{run.ident}/jobs", "jobs")]

    def log(self, job: Job, limit: int = MAX_LOG) -> bytes:
        """The job's log: the API answers with a redirect to a short-lived
        download URL, followed without the token."""
        return self.api.get(
            f"{self.repo}/actions/jobs/{job.ident}/logs", limit=limit, accept="*/*"
        ).body

    def latest_runs(self, *, sha: str | None = None, branch: str | None = None) -> list[Run]:
        """The latest run of each workflow for a commit or a branch (newest first)."""
        params: dict[str, str | int] = {"per_page": PER_PAGE}
        if sha:
            params["head_sha"] = sha
        if branch:
            params["branch"] = branch
        data = _A.obj(self.api.get_json(f"{self.repo}/actions/runs", params), "runs")
        runs = [_run(r, self.project) for r in _A.items(data.get("workflow_runs"), "workflow_runs")]
        latest: dict[str, Run] = {}
        for r in runs:  # the API lists newest first: keep each workflow's first
            latest.setdefault(r.name, r)
        if branch and not sha and latest:  # a branch: the newest commit's runs only
            newest = next(iter(latest.values())).sha
            return [r for r in latest.values() if r.sha == newest]
        return list(latest.values())

    def pull_head(self, number: int) -> str:
        data = _A.obj(self.api.get_json(f"{self.repo}/pulls/{number}"), "pull request")
        head = data.get("head")
        sha = head.get("sha") if isinstance(head, dict) else None
        if not isinstance(sha, str) or not sha:
            raise RemoteError(f"GitHub's pull request {number} has no head commit")
        return sha

    # -- the pull-request comment -------------------------------------------------

    def comments(self, number: int) -> list[dict[str, Any]]:
        return [
            c
            for c in self._pages(f"{self.repo}/issues/{number}/comments", None)
            if isinstance(c, dict)
        ]

    def post_comment(self, number: int, body: str) -> None:
        self.api.request("POST", f"{self.repo}/issues/{number}/comments", body={"body": body})

    def edit_comment(self, number: int, comment_id: int, body: str) -> None:
        self.api.request("PATCH", f"{self.repo}/issues/comments/{comment_id}", body={"body": body})

    def _pages(self, path: str, key: str | None) -> Iterator[Any]:
        for page in range(1, MAX_PAGES + 1):
            data = self.api.get_json(path, {"per_page": PER_PAGE, "page": page})
            items = _A.items(data.get(key) if key and isinstance(data, dict) else data, key or path)
            yield from items
            if len(items) < PER_PAGE:
                return


def resolve(gh: GitHub, target: Target) -> list[Run]:
    """The runs a target names, with their jobs (a job URL: that job only)."""
    if target.kind in ("run", "job"):
        assert target.ident is not None
        runs = [gh.run(target.ident)]
    elif target.kind == "pull":
        assert target.ident is not None
        runs = gh.latest_runs(sha=gh.pull_head(target.ident))
        for run in runs:
            run.pull_requests = [target.ident]
    else:
        runs = gh.latest_runs(branch=target.branch)
    if not runs:
        raise RemoteError(f"GitHub has no workflow run for {_what(target)}")
    for run in runs:
        run.jobs = gh.jobs(run)
        if target.kind == "job":
            run.jobs = [j for j in run.jobs if j.ident == target.job]
            if not run.jobs:
                raise RemoteError(f"run {run.ident} has no job {target.job}")
    return runs


def _what(target: Target) -> str:
    if target.kind == "pull":
        return f"pull request #{target.ident}'s head commit"
    if target.kind == "branch":
        return f"branch {target.branch!r}"
    return f"run {target.ident}"


def _run(data: Mapping[str, Any], project: str) -> Run:
    return Run(
        service="github",
        project=project,
        ident=_A.number(data, "id"),
        url=_A.text(data, "html_url"),
        sha=_A.text(data, "head_sha"),
        branch=_A.text(data, "head_branch") or None,
        status=_A.text(data, "status"),
        conclusion=_A.text(data, "conclusion") or None,
        name=_A.text(data, "name"),
        pull_requests=[
            p["number"]
            for p in (data.get("pull_requests") or [])
            if isinstance(p, dict) and isinstance(p.get("number"), int)
        ],
    )


def _job(data: Any) -> Job:
    if not isinstance(data, dict):
        raise RemoteError("GitHub's list of jobs holds something that is not a job")
    failed_step = None
    steps = data.get("steps")
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, dict) and step.get("conclusion") in ("failure", "timed_out"):
            failed_step = _A.text(step, "name") or None
            break
    return Job(
        ident=_A.number(data, "id"),
        name=_A.text(data, "name"),
        conclusion=_A.text(data, "conclusion") or _A.text(data, "status"),
        url=_A.text(data, "html_url"),
        failed_step=failed_step,
    )
