""":FaultlensCI in a real headless Neovim against the real server, the GitHub
API a loopback stand-in (tests/ci_standin.py) named by GITHUB_API_URL in the
environment Neovim gives the server."""

from __future__ import annotations

from pathlib import Path

import pytest

from .ci_standin import git, github_run, make_checkout, serving
from .test_nvim_e2e import nvim_env, run_script

pytestmark = pytest.mark.nvim


def test_faultlensci_shows_the_failed_jobs_at_their_lines_and_in_the_quickfix_list(
    tmp_path: Path,
) -> None:
    root = make_checkout(tmp_path)
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(root, "rev-parse", "HEAD"))
        env = nvim_env(tmp_path / "xdg")
        env.update(
            GITHUB_API_URL=api.url,
            GITHUB_TOKEN="ghp_nvimSTANDIN0123456789abcdefABCDEFGH",
            RUN_URL="https://github.com/acme/shop/actions/runs/77",
        )
        out = run_script("ci", root, env, tmp_path / "xdg")
    assert "diagnostic: src/auth/middleware.ts:42 source ci: typecheck" in out
    assert "quickfix: src/auth/middleware.ts:42 [compile] Cannot find name 'UserProfile'." in out
    assert "quickfix: src/util.js:3 [compile]" in out
