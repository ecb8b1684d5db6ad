"""The same breakage recovered from the CLI (`faultlens recover`), from the
editor's `faultlens.applyRecipe` and from MCP `recover` leaves the same ledger
rows and the same events (issue 25): one lifecycle behind every front.

Fixture: examples/broken-app (`python -m unittest`: `Money` used in
shop/cart.py without its import, and a real assertion failure), copied once
per front, each run with the real interpreter.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from faultlens.agents.service import Agents, Caller
from faultlens.recipes import Ledger, Workspace
from faultlens.recipes.run_and_recover import run_command

from .conftest import CONFIG, EXAMPLES, command, copy_tree, start, stop, uri

pytestmark = [pytest.mark.real_tool]
BUILD = [sys.executable, "-m", "unittest"]
CART = "shop/cart.py"


def _project(tmp: Path) -> Path:
    root = copy_tree(EXAMPLES / "broken-app", tmp / "app")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _run(root: Path, task: str) -> str:
    """`faultlens run -- python -m unittest` (no recovery): the compile failure's id."""
    sink = io.BytesIO()
    report = run_command(
        BUILD,
        cwd=root,
        ws=Workspace.at(root),
        task=task,
        recover=False,
        out=sink,
        err_bytes=sink,
        err=io.StringIO(),
    )
    (rec,) = [r for r in report.records if r.failure_type.value == "compile"]
    return rec.id


def _trace(root: Path, failure_id: str) -> dict[str, Any]:
    """What the attempt left: its ledger rows and its events (front-neutral fields)."""
    ledger = Ledger.open(Workspace.at(root))
    rows = [
        (r.failure_type, r.state, r.tried, r.automatic, r.reason.split(" (exit")[0])
        for r in ledger.history(failure_id)
    ]
    lines = (root / ".faultlens" / "events.jsonl").read_text().splitlines()
    events = [
        (e["event"], e.get("tried"))
        for e in map(json.loads, lines)
        if e.get("failure_id") == failure_id and e["event"] != "failure.classified"
    ]
    return {"rows": rows, "events": events, "cart": (root / CART).read_text()}


@pytest.fixture(scope="module")
def cli_trace(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = _project(tmp_path_factory.mktemp("cli"))
    fid = _run(root, "default")
    done = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "recover", fid],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return _trace(root, fid)


def test_the_mcp_recover_tool_leaves_what_the_cli_leaves(tmp_path, cli_trace):
    root = _project(tmp_path)
    fid = _run(root, "default")
    answer = Agents(root, Caller(agent="mcp")).recover(fid)
    assert answer.result == "recovered", answer.reason
    assert _trace(root, fid) == cli_trace


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = _project(tmp_path_factory.mktemp("editor"))
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, root)
    yield
    await stop(lsp_client)


@pytest.mark.asyncio(loop_scope="module")
async def test_the_editors_apply_recipe_leaves_what_the_cli_leaves(
    client: LanguageClient, cli_trace: dict[str, Any]
):
    root: Path = client.root  # type: ignore[attr-defined]
    await command(client, "faultlens.run", {"command": BUILD})
    target = uri(root / CART)
    (d,) = [d for d in client.diagnostics.get(target, []) if d.code == "compile"]
    result = await command(client, "faultlens.applyRecipe", {"failureId": d.data["id"]})
    assert result["result"] == "recovered", result
    got = _trace(root, d.data["id"])
    assert got == cli_trace
    assert cli_trace["rows"] and cli_trace["rows"][0][1] == "recovered"
    assert [e for e, _ in cli_trace["events"]] == ["recovery.attempted", "recovery.succeeded"]
