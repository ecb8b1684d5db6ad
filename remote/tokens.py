"""Where a CI token comes from.  The token is returned to be sent in a header
and nowhere else: never printed, logged or stored by faultlens."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path


def github_token(env: Mapping[str, str] | None = None, *, ask_gh: bool = True) -> str | None:
    """GITHUB_TOKEN, else GH_TOKEN, else what `gh auth token` prints."""
    env = os.environ if env is None else env
    for name in ("GITHUB_TOKEN", "GH_TOKEN"):
        value = env.get(name, "").strip()
        if value:
            return value
    if not ask_gh or shutil.which("gh") is None:
        return None
    from faultlens.recipes.runner import stream_process

    out = bytearray()
    result = stream_process(
        ["gh", "auth", "token"],
        cwd=Path.cwd(),
        env=dict(os.environ),
        timeout=10.0,
        on_stdout=out.extend,
    )
    if result.exit_code != 0:
        return None
    token = bytes(out[:4096]).decode("utf-8", "replace").strip()
    return token if token and "\n" not in token and " " not in token else None


def gitlab_token(env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(header, token): GITLAB_TOKEN as PRIVATE-TOKEN, else CI_JOB_TOKEN as
    JOB-TOKEN (inside a GitLab job)."""
    env = os.environ if env is None else env
    token = env.get("GITLAB_TOKEN", "").strip()
    if token:
        return "PRIVATE-TOKEN", token
    token = env.get("CI_JOB_TOKEN", "").strip()
    if token:
        return "JOB-TOKEN", token
    return None
