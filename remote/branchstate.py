"""Whether the checkout's branch's last CI run failed: one API call (GitHub:
the branch's latest runs, one per workflow; GitLab: its latest pipeline),
made only when the origin remote is GitHub or GitLab and a token is at
hand, its answer kept TTL seconds in the user's cache folder (keyed by the
service, repository and branch: never the token), so an editor that starts
again asks nothing.  What the editor offers "Show CI Failures" on.  Any
failure to tell is None: this never gets in the way.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import github, gitlab, tokens
from .ciurl import CIUrlError, Target
from .http import RemoteError
from .jobs import FAILED

TTL = 300.0  # seconds an answer is kept
CACHE = "ci-branch.json"
MAX_KEYS = 50
QUICK = 10.0  # the one call's time limit: it must never hold anything up


def last_run_failed(
    checkout: Path,
    env: Mapping[str, str] | None = None,
    *,
    now: float | None = None,
    ask_gh: bool = True,
) -> dict[str, Any] | None:
    """{service, project, branch, runs: [{name, url, sha, conclusion}]}: the
    failed runs of the branch's newest commit; None when none failed or it
    cannot be told (no origin on GitHub/GitLab, no token, an API error)."""
    from .service import target_for

    env = dict(os.environ) if env is None else dict(env)
    now = time.time() if now is None else now
    try:
        target = target_for(None, checkout)
    except CIUrlError:
        return None
    key = f"{target.service}:{target.host}:{target.project}:{target.branch}"
    cached = _cached(key, now)
    if cached is not None:
        return cached.get("answer")
    try:
        runs = _failed_runs(target, env, ask_gh)
    except RemoteError:
        return None
    if runs is None:  # no token: nothing asked, nothing kept
        return None
    answer = (
        {
            "service": target.service,
            "project": target.project,
            "branch": target.branch,
            "runs": runs,
        }
        if runs
        else None
    )
    _keep(key, now, answer)
    return answer


def _failed_runs(target: Target, env: dict[str, str], ask_gh: bool) -> list[dict[str, str]] | None:
    if target.service == "github":
        token = tokens.github_token(env, ask_gh=ask_gh)
        if not token:
            return None
        api = github.client(target.host, token, env)
        api.timeout = QUICK
        runs = github.GitHub(api, target.project).latest_runs(branch=target.branch)
    else:
        gl_token = tokens.gitlab_token(env)
        if not gl_token:
            return None
        api = gitlab.client(target.host, gl_token, env)
        api.timeout = QUICK
        latest = gitlab.GitLab(api, target.project).latest(target.branch)
        runs = [latest] if latest is not None else []
    return [
        {"name": r.name or f"run {r.ident}", "url": r.url, "sha": r.sha, "conclusion": r.conclusion}
        for r in runs
        if r.conclusion in FAILED
    ]


def _cached(key: str, now: float) -> dict[str, Any] | None:
    entry = _load().get(key)
    if not isinstance(entry, dict) or not isinstance(entry.get("at"), int | float):
        return None
    return entry if 0 <= now - entry["at"] < TTL else None


def _keep(key: str, now: float, answer: dict[str, Any] | None) -> None:
    from faultlens.classifier import cachefile

    data = {k: v for k, v in _load().items() if isinstance(v, dict) and k != key}
    data[key] = {"at": now, "answer": answer}
    newest = sorted(data, key=lambda k: data[k].get("at") or 0)[-MAX_KEYS:]
    cachefile.write(CACHE, json.dumps({k: data[k] for k in newest}).encode())


def _load() -> dict[str, Any]:
    from faultlens.classifier import cachefile

    raw = cachefile.read(CACHE)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
