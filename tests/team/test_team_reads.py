"""The team's history read everywhere, on real runs against the test's own
PostgreSQL database: the escalation box and MCP `status` (through the mcp
SDK's own client) show the team's line, and triage calls a failure
pre-existing without a worktree run when the team saw it failing on the
upstream's commit."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from .runs import clone, faultlens, git, pytest_run

pytestmark = pytest.mark.postgres

CACHE = "tests/test_cache.py::test_the_cache_is_warm"
PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")


def _mark(tmp_path: Path) -> str:
    mark = tmp_path / "cold-cache"
    mark.write_text("")
    return str(mark)


def _unboxed(box: str) -> str:
    """The box's text as one line (its frame and wrapping taken out)."""
    return " ".join(line.strip("║╔╗╚╝╠╣═ ") for line in box.splitlines()).replace("  ", " ")


def _recover(cwd: Path, url: str, mark: str) -> tuple[int, dict[str, object], str]:
    run = faultlens(
        cwd, url, "run", "--recover", "--format", "json", "--", *PYTEST, FLAKE_MARK=mark
    )
    return run.returncode, json.loads(run.stderr.strip().splitlines()[-1]), run.stderr


def _failing_and_passing_elsewhere(origin: Path, url: str, mark: str) -> None:
    assert pytest_run(clone(origin, "a"), url, FLAKE_MARK=mark).returncode == 1
    assert pytest_run(clone(origin, "b"), url).returncode == 0


def test_the_escalation_box_carries_the_teams_line(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    mark = _mark(tmp_path)
    _failing_and_passing_elsewhere(origin, history_url, mark)
    code, summary, stderr = _recover(clone(origin, "c"), history_url, mark)
    assert code == 1, stderr
    (escalated,) = [o for o in summary["outcomes"] if o["result"] == "escalated"]  # type: ignore[union-attr]
    box = _unboxed(escalated["box"])
    assert "Team: seen 2× on 1 machine since" in box, box
    assert "passes on the same code elsewhere" in box


async def test_mcp_status_shows_the_teams_view_and_each_escalations_team_line(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    mark = _mark(tmp_path)
    _failing_and_passing_elsewhere(origin, history_url, mark)
    work = clone(origin, "c")
    assert _recover(work, history_url, mark)[0] == 1  # an escalation in this workspace's ledger
    env = {**os.environ, "FAULTLENS_HISTORY_URL": history_url, "FAULTLENS_HISTORY_WAIT": "60"}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "faultlens.cli", "mcp", "--cwd", str(work), "--agent", "test-agent"],
        cwd=str(work),
        env=env,
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        res = await s.call_tool("status", {})
    assert not res.is_error and res.structured_content is not None
    status = res.structured_content
    (seen,) = [t for t in status["team"] if t["test_id"] == CACHE]
    assert seen["passes_on_same_code"] is True and seen["flaky"] >= 1
    assert "passes on the same code elsewhere" in seen["summary"]
    assert status["team_unavailable"] is None
    (esc,) = status["escalations"]
    assert esc["team"] and esc["team"].startswith("seen 2× on 1 machine")


def _ahead(origin: Path, name: str) -> Path:
    """A clone one local commit ahead of its upstream (triage cannot call it
    the upstream itself)."""
    work = clone(origin, name)
    (work / "NOTES").write_text("a local commit\n")
    git(work, "add", ".")
    git(work, "commit", "-qm", "local")
    return work


def test_a_failure_the_team_saw_on_the_upstreams_commit_is_preexisting_without_a_worktree_run(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    mark = _mark(tmp_path)
    assert pytest_run(clone(origin, "upstream"), history_url, FLAKE_MARK=mark).returncode == 1
    code, summary, stderr = _recover(_ahead(origin, "mine"), history_url, mark)
    assert code == 1
    (rec,) = [r for r in summary["records"] if r["hint"].get("test_id") == CACHE]  # type: ignore[union-attr]
    assert rec["triage"]["verdict"] == "preexisting", rec["triage"]
    assert "the team's history" in rec["triage"]["reason"]
    assert "triage: re-running the failures on" not in stderr  # no worktree run


def test_triage_checks_locally_when_the_team_knows_nothing_of_the_upstream(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    code, summary, stderr = _recover(_ahead(origin, "mine"), history_url, _mark(tmp_path))
    assert code == 1
    (rec,) = [r for r in summary["records"] if r["hint"].get("test_id") == CACHE]  # type: ignore[union-attr]
    assert rec["triage"]["verdict"] == "preexisting"
    assert "the team's history" not in rec["triage"]["reason"]
    assert "triage: re-running the failures on origin/main (temporary worktree)" in stderr
