"""`ci(url, checkout)`: the whole question "why did CI fail?", for any front.

It names the target (a URL, or the checkout's branch on its `origin`
remote), talks to GitHub or GitLab, fetches only the failed jobs' logs,
classifies them against the checkout and compares the commits.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from . import ciurl, github, gitlab, tokens
from .cireport import CIRunReport, check_head, classify_jobs
from .ciurl import CIUrlError, Target
from .comment import Body
from .http import RemoteError

_BRANCH = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,199}")


def target_for(url: str | None, checkout: Path) -> Target:
    """The target a URL names, or the checkout's current branch on origin."""
    if url:
        return ciurl.parse(url)
    from faultlens.recipes.fixes.gitcore import Git

    git = Git(checkout, timeout=20.0)
    remote = git.out("remote", "get-url", "origin")
    if not remote:
        raise CIUrlError("no URL given and this checkout has no 'origin' remote")
    branch = git.out("symbolic-ref", "--quiet", "--short", "HEAD")
    if not branch or not _BRANCH.fullmatch(branch) or ".." in branch:
        raise CIUrlError("no URL given and HEAD is not on a branch: give the run's URL")
    return ciurl.from_remote(remote, branch)


def ci(
    url: str | None,
    checkout: Path,
    env: Mapping[str, str] | None = None,
    *,
    ask_gh: bool = True,
) -> list[CIRunReport]:
    """The runs the URL names, each failed job's log classified."""
    env = dict(os.environ) if env is None else dict(env)
    target = target_for(url, checkout)
    if target.service == "github":
        gh = github.GitHub(
            github.client(target.host, tokens.github_token(env, ask_gh=ask_gh), env),
            target.project,
        )
        runs = github.resolve(gh, target)
        fetch = gh.log
    else:
        gl = gitlab.GitLab(
            gitlab.client(target.host, tokens.gitlab_token(env), env), target.project
        )
        runs = gitlab.resolve(gl, target)
        fetch = gl.log
    reports = []
    for run in runs:
        reports.append(
            CIRunReport(run, classify_jobs(run, fetch, checkout), check_head(checkout, run.sha))
        )
    return reports


def publish_comment(
    url: str | None,
    checkout: Path,
    reports: list[CIRunReport],
    body: Body,
    number: int | None = None,
    env: Mapping[str, str] | None = None,
) -> str:
    """Keep faultlens's one comment on the pull (merge) request up to date:
    the one given, else the one the run belongs to, else the one CI names
    (GITHUB_REF `refs/pull/N/merge`, CI_MERGE_REQUEST_IID).  `body`: the
    text, or a function of the present comment's (remote/comment.py)."""
    from .comment import publish

    env = dict(os.environ) if env is None else dict(env)
    target = target_for(url, checkout)
    if number is None:
        number = _request_number(target, reports, env)
    if target.service == "github":
        token = tokens.github_token(env)
        if not token:
            raise RemoteError("commenting needs a token: set GITHUB_TOKEN or GH_TOKEN")
        gh = github.GitHub(github.client(target.host, token, env), target.project)
        return publish(gh, number, body)
    gl_token = tokens.gitlab_token(env)
    if not gl_token:
        raise RemoteError("commenting needs a token: set GITLAB_TOKEN")
    gl = gitlab.GitLab(gitlab.client(target.host, gl_token, env), target.project)
    return publish(gl, number, body)


def _request_number(target: Target, reports: list[CIRunReport], env: Mapping[str, str]) -> int:
    if target.kind == "pull" and target.ident is not None:
        return target.ident
    for rep in reports:
        if rep.run.pull_requests:
            return rep.run.pull_requests[0]
    m = re.fullmatch(r"refs/pull/(\d+)/(?:merge|head)", env.get("GITHUB_REF", ""))
    if m:
        return int(m[1])
    iid = env.get("CI_MERGE_REQUEST_IID", "")
    if iid.isdigit():
        return int(iid)
    raise CIUrlError("no pull request to comment on: give --pr N or a pull request URL")


__all__ = ["CIUrlError", "RemoteError", "ci", "publish_comment", "target_for"]
