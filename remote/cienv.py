"""What a CI job's environment says of the job a step runs in: GitHub Actions
(GITHUB_*; the pull request from GITHUB_REF or the event file) or GitLab CI
(CI_*).  Pure reading of the environment and the event file: no network.

    GitHub: GITHUB_ACTIONS, GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID,
            GITHUB_WORKFLOW, GITHUB_JOB, GITHUB_SHA, GITHUB_HEAD_REF/GITHUB_REF_NAME,
            GITHUB_REF (refs/pull/N/merge), GITHUB_EVENT_PATH (pull_request.number,
            pull_request.head.sha), GITHUB_STEP_SUMMARY
    GitLab: GITLAB_CI, CI_SERVER_URL, CI_PROJECT_PATH, CI_PIPELINE_ID, CI_PIPELINE_URL,
            CI_JOB_NAME, CI_JOB_URL, CI_COMMIT_SHA, CI_COMMIT_REF_NAME,
            CI_MERGE_REQUEST_IID, CI_JOB_STARTED_AT
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_EVENT = 4 << 20  # an event file is a few kB; a huge one is not read
_KEY = re.compile(r"[^\w .,:()\[\]/+=-]")
_PROJECT = re.compile(r"\w[\w.-]*(?:/\w[\w.-]*)+", re.ASCII)


@dataclass(frozen=True, slots=True)
class CurrentJob:
    """The job this process runs in."""

    service: str  # github | gitlab
    run_url: str  # the run's (pipeline's) page: what `faultlens ci` takes
    project: str
    run_id: int
    job: str  # the job's name as the CI shows it
    job_url: str
    sha: str  # the commit the checks are for (a pull request's head)
    branch: str | None
    pull: int | None  # the pull (merge) request the run is for
    workflow: str = ""
    started: float | None = None  # when the job started (epoch seconds), when known

    @property
    def section(self) -> str:
        """This job's key in the shared comment: the commit, the workflow and the job."""
        name = f"{self.workflow}/{self.job}" if self.workflow else self.job
        return f"{self.sha[:12] or 'nosha'} {_KEY.sub('_', name)[:120]}"


def from_env(env: Mapping[str, str] | None = None, job: str | None = None) -> CurrentJob | None:
    """The job the environment describes (`job`: its name instead of the
    CI's, e.g. a matrix job's), or None outside GitHub Actions and GitLab CI."""
    env = os.environ if env is None else env
    if env.get("GITHUB_ACTIONS") == "true":
        return _github(env, job)
    if env.get("GITLAB_CI") == "true":
        return _gitlab(env, job)
    return None


def _github(env: Mapping[str, str], job: str | None) -> CurrentJob | None:
    project = env.get("GITHUB_REPOSITORY", "")
    run_id = env.get("GITHUB_RUN_ID", "")
    if not _PROJECT.fullmatch(project) or not run_id.isdigit():
        return None
    server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    run_url = f"{server}/{project}/actions/runs/{run_id}"
    event, started = _event(env.get("GITHUB_EVENT_PATH", ""))
    pr = _obj(event.get("pull_request"))
    number = pr.get("number") if isinstance(pr.get("number"), int) else None
    m = re.fullmatch(r"refs/pull/(\d+)/(?:merge|head)", env.get("GITHUB_REF", ""))
    if number is None and m:
        number = int(m[1])
    head_sha = _obj(pr.get("head")).get("sha")  # a pull request's checks are its head's
    sha = head_sha if isinstance(head_sha, str) else env.get("GITHUB_SHA", "")
    return CurrentJob(
        service="github",
        run_url=run_url,
        project=project,
        run_id=int(run_id),
        job=job or env.get("GITHUB_JOB", "") or "job",
        job_url=run_url,  # Actions names no job id to a step
        sha=sha,
        branch=env.get("GITHUB_HEAD_REF") or env.get("GITHUB_REF_NAME") or None,
        pull=number,
        workflow=env.get("GITHUB_WORKFLOW", ""),
        started=started,
    )


def _gitlab(env: Mapping[str, str], job: str | None) -> CurrentJob | None:
    project = env.get("CI_PROJECT_PATH", "")
    pipeline = env.get("CI_PIPELINE_ID", "")
    if not _PROJECT.fullmatch(project) or not pipeline.isdigit():
        return None
    server = env.get("CI_SERVER_URL", "https://gitlab.com").rstrip("/")
    run_url = env.get("CI_PIPELINE_URL") or f"{server}/{project}/-/pipelines/{pipeline}"
    iid = env.get("CI_MERGE_REQUEST_IID", "")
    return CurrentJob(
        service="gitlab",
        run_url=run_url,
        project=project,
        run_id=int(pipeline),
        job=job or env.get("CI_JOB_NAME", "") or "job",
        job_url=env.get("CI_JOB_URL", "") or run_url,
        sha=env.get("CI_COMMIT_SHA", ""),
        branch=env.get("CI_COMMIT_REF_NAME") or None,
        pull=int(iid) if iid.isdigit() else None,
        started=_iso(env.get("CI_JOB_STARTED_AT", "")),
    )


def _event(path: str) -> tuple[dict[str, Any], float | None]:
    """The event file's payload and when it was written (the runner writes it
    as the job starts: the job's start), or ({}, None)."""
    if not path:
        return {}, None
    try:
        with open(path, "rb") as fh:
            started = os.fstat(fh.fileno()).st_mtime
            raw = fh.read(MAX_EVENT + 1)
    except OSError:
        return {}, None
    if len(raw) > MAX_EVENT:
        return {}, started
    try:
        data = json.loads(raw)
    except ValueError:
        return {}, started
    return (data if isinstance(data, dict) else {}), started


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _iso(text: str) -> float | None:
    try:
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() if text else None
    except ValueError:
        return None
