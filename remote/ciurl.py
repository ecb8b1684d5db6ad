"""What a CI URL names: a GitHub Actions run or job, a pull request, a GitLab
pipeline or job.  Pure parsing: no network.

    https://github.com/OWNER/REPO/actions/runs/ID
    https://github.com/OWNER/REPO/actions/runs/ID/job/JOB   (also /attempts/N)
    https://github.com/OWNER/REPO/pull/N
    https://gitlab.example.com/GROUP/SUB/PROJECT/-/pipelines/ID
    https://gitlab.example.com/GROUP/SUB/PROJECT/-/jobs/ID

A GitHub Enterprise host is any host whose path has the GitHub shapes; a
GitLab URL is recognised by its `/-/` separator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

Kind = Literal["run", "job", "pull", "pipeline", "gitlab_job", "branch"]

_NAME = r"[A-Za-z0-9_.-]+"
_GITHUB = re.compile(
    rf"/(?P<owner>{_NAME})/(?P<repo>{_NAME})/"
    r"(?:actions/runs/(?P<run>\d+)(?:/attempts/\d+)?(?:/jobs?/(?P<job>\d+))?"
    r"|pull/(?P<pull>\d+))(?:/[A-Za-z0-9_/-]*)?/?"
)
_GITLAB = re.compile(
    rf"/(?P<project>{_NAME}(?:/{_NAME})+)/-/(?P<what>pipelines|jobs)/(?P<id>\d+)(?:/[A-Za-z0-9_/-]*)?/?"
)


class CIUrlError(ValueError):
    """A URL faultlens cannot read as a CI run, job or pull request (one line)."""


@dataclass(frozen=True, slots=True)
class Target:
    """What to fetch: `service` is "github" or "gitlab"; `project` is
    OWNER/REPO (GitHub) or the project's full path (GitLab)."""

    service: Literal["github", "gitlab"]
    host: str
    project: str
    kind: Kind
    ident: int | None = None  # the run, pull request, pipeline or job number
    job: int | None = None  # a GitHub job within the run
    branch: str | None = None  # kind "branch": the branch's latest run

    @property
    def owner(self) -> str:
        return self.project.split("/", 1)[0]

    @property
    def repo(self) -> str:
        return self.project.rsplit("/", 1)[-1]


def parse(url: str) -> Target:
    """The target `url` names, or CIUrlError saying why it names none."""
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise CIUrlError(f"not a CI URL (expected https://HOST/...): {_shown(text)}")
    host = parts.hostname.lower()
    if parts.port:
        host = f"{host}:{parts.port}"
    path = parts.path
    if "/-/" in path:
        m = _GITLAB.fullmatch(path)
        if m is None:
            raise CIUrlError(f"not a GitLab pipeline or job URL: {_shown(text)}")
        kind: Kind = "pipeline" if m["what"] == "pipelines" else "gitlab_job"
        return Target("gitlab", host, m["project"], kind, int(m["id"]))
    m = _GITHUB.fullmatch(path)
    if m is None:
        raise CIUrlError(
            "not a GitHub Actions run, job or pull request URL "
            f"(…/actions/runs/ID, …/runs/ID/job/JOB, …/pull/N): {_shown(text)}"
        )
    project = f"{m['owner']}/{m['repo']}"
    if m["pull"]:
        return Target("github", host, project, "pull", int(m["pull"]))
    if m["job"]:
        return Target("github", host, project, "job", int(m["run"]), job=int(m["job"]))
    return Target("github", host, project, "run", int(m["run"]))


_REMOTE = re.compile(
    r"(?:https?://(?:[^@/]+@)?(?P<h1>[^/:]+(?::\d+)?)/|(?:ssh://)?[^@/]+@(?P<h2>[^:/]+)[:/])"
    r"(?P<path>[A-Za-z0-9_.\-/]+?)(?:\.git)?/?"
)


def from_remote(remote_url: str, branch: str) -> Target:
    """The latest run of `branch` in the repository a git remote URL names
    (https or ssh form); a host named gitlab.* is GitLab, any other GitHub."""
    m = _REMOTE.fullmatch(remote_url.strip())
    if m is None or "/" not in m["path"]:
        raise CIUrlError(f"the origin remote is not a GitHub or GitLab URL: {_shown(remote_url)}")
    host = (m["h1"] or m["h2"]).lower()
    service: Literal["github", "gitlab"] = "gitlab" if host.startswith("gitlab.") else "github"
    return Target(service, host, m["path"].strip("/"), "branch", branch=branch)


def _shown(text: str) -> str:
    """A URL as it may be shown: no user information (a token in it stays out)."""
    parts = urlsplit(text)
    if parts.username or parts.password:
        text = text.replace(parts.netloc, parts.hostname or "", 1)
    return text[:200]
