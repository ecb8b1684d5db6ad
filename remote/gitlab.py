"""GitLab CI through its REST API (v4): a pipeline or job, the failed jobs'
traces, a branch's latest pipeline, one merge-request note.

The API base is CI_API_V4_URL (set inside GitLab jobs), else
`https://HOST/api/v4` for the URL's host.  The token: GITLAB_TOKEN (sent as
PRIVATE-TOKEN) or CI_JOB_TOKEN (as JOB-TOKEN).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import quote

from .answers import Answers
from .ciurl import Target
from .http import MAX_LOG, Client, RemoteError
from .jobs import Job, Run

PER_PAGE = 100
_A = Answers("GitLab")
MAX_PAGES = 10


def api_base(host: str, env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    configured = env.get("CI_API_V4_URL", "").strip()
    return configured or f"https://{host}/api/v4"


def client(
    host: str, token: tuple[str, str] | None, env: Mapping[str, str] | None = None
) -> Client:
    auth = {token[0]: token[1]} if token else {}
    return Client(api_base(host, env), auth=auth, service="GitLab")


class GitLab:
    def __init__(self, api: Client, project: str) -> None:
        self.api = api
        self.project = project
        self.base = f"projects/{quote(project, safe='')}"

    def pipeline(self, ident: int) -> Run:
        return _run(_A.obj(self.api.get_json(f"{self.base}/pipelines/{ident}"), "pipeline"), self)

    def job(self, ident: int) -> tuple[Run, Job]:
        data = _A.obj(self.api.get_json(f"{self.base}/jobs/{ident}"), "job")
        pipeline = data.get("pipeline")
        if not isinstance(pipeline, dict):
            raise RemoteError(f"GitLab's job {ident} names no pipeline")
        return _run(pipeline, self), _job(data)

    def jobs(self, run: Run) -> list[Job]:
        return [_job(j) for j in self._pages(f"{self.base}/pipelines/{run.ident}/jobs")]

    def log(self, job: Job, limit: int = MAX_LOG) -> bytes:
        return self.api.get(f"{self.base}/jobs/{job.ident}/trace", limit=limit, accept="*/*").body

    def latest(self, branch: str | None) -> Run | None:
        params: dict[str, str | int] = {"per_page": 1}
        if branch:
            params["ref"] = branch
        data = self.api.get_json(f"{self.base}/pipelines", params)
        items = _A.items(data, "pipelines")
        return _run(_A.obj(items[0], "pipeline"), self) if items else None

    # -- the merge-request note ---------------------------------------------------

    def comments(self, iid: int) -> list[dict[str, Any]]:
        return [
            n for n in self._pages(f"{self.base}/merge_requests/{iid}/notes") if isinstance(n, dict)
        ]

    def post_comment(self, iid: int, body: str) -> None:
        self.api.request("POST", f"{self.base}/merge_requests/{iid}/notes", body={"body": body})

    def edit_comment(self, iid: int, note_id: int, body: str) -> None:  # same shape as GitHub's
        self.api.request(
            "PUT", f"{self.base}/merge_requests/{iid}/notes/{note_id}", body={"body": body}
        )

    def _pages(self, path: str) -> Iterator[Any]:
        for page in range(1, MAX_PAGES + 1):
            items = _A.items(self.api.get_json(path, {"per_page": PER_PAGE, "page": page}), path)
            yield from items
            if len(items) < PER_PAGE:
                return


def resolve(gl: GitLab, target: Target) -> list[Run]:
    if target.kind == "pipeline":
        assert target.ident is not None
        run = gl.pipeline(target.ident)
        run.jobs = gl.jobs(run)
        return [run]
    if target.kind == "gitlab_job":
        assert target.ident is not None
        run, job = gl.job(target.ident)
        run.jobs = [job]
        return [run]
    latest = gl.latest(target.branch)
    if latest is None:
        raise RemoteError(f"GitLab has no pipeline for branch {target.branch!r}")
    latest.jobs = gl.jobs(latest)
    return [latest]


def _run(data: Mapping[str, Any], gl: GitLab) -> Run:
    status = _A.text(data, "status")
    return Run(
        service="gitlab",
        project=gl.project,
        ident=_A.number(data, "id"),
        url=_A.text(data, "web_url"),
        sha=_A.text(data, "sha"),
        branch=_A.text(data, "ref") or None,
        status=status,
        conclusion=status if status in ("success", "failed", "canceled", "skipped") else None,
    )


def _job(data: Any) -> Job:
    if not isinstance(data, dict):
        raise RemoteError("GitLab's list of jobs holds something that is not a job")
    status = _A.text(data, "status")
    if status == "failed" and data.get("allow_failure") is True:
        status = "failed_allowed"  # a job allowed to fail did not fail the pipeline
    return Job(
        ident=_A.number(data, "id"),
        name=_A.text(data, "name"),
        conclusion=status,
        url=_A.text(data, "web_url"),
        failed_step=_A.text(data, "stage") or None if status == "failed" else None,
    )
