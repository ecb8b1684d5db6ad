"""The MCP `ci` tool, through the SDK's own client over stdio, against the
GitHub API stand-in (tests/ci_standin.py): the run's failed jobs, each
primary failure first at the lines of the server's checkout."""

from __future__ import annotations

import sys
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ..ci_standin import api_env, git, github_run, make_checkout, serving
from .test_mcp_server import call, error_of

TOKEN = "ghp_mcpSTANDIN0123456789abcdefABCDEFGH"


async def _ci(root: Path, env: dict[str, str], args: dict[str, object], ok: bool = True) -> object:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "faultlens.cli", "mcp", "--cwd", str(root), "--agent", "test-agent"],
        cwd=str(root),
        env=env,
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        return await (call(s, "ci", args) if ok else error_of(s, "ci", args))


async def test_the_ci_tool_names_each_failed_jobs_primary_failure(tmp_path: Path) -> None:
    root = make_checkout(tmp_path)
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(root, "rev-parse", "HEAD"))
        out = await _ci(
            root, api_env(api, TOKEN), {"url": "https://github.com/acme/shop/actions/runs/77"}
        )
    assert isinstance(out, dict)
    (run,) = out["runs"]
    assert run["head_matches"] is True and run["jobs_total"] == 3
    jobs = {j["name"]: j for j in run["failed_jobs"]}
    primary = jobs["typecheck"]["primary"]
    assert (primary["failure_type"], primary["source_file"], primary["source_line"]) == (
        "compile",
        "src/auth/middleware.ts",
        42,
    )
    assert primary["attempt"]["allowed"] is True
    assert TOKEN not in str(out)


async def test_the_ci_tool_answers_a_service_error_in_one_line(tmp_path: Path) -> None:
    root = make_checkout(tmp_path)
    with serving() as api:
        text = await _ci(
            root,
            api_env(api, TOKEN),
            {"url": "https://github.com/acme/shop/actions/runs/5"},
            ok=False,
        )
    assert "404" in str(text) and TOKEN not in str(text)
