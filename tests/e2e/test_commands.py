"""workspace/executeCommand: retry / skip / stop a task, clear, and the
window/showMessageRequest offered on escalation.

Fixture: examples/broken-app (`python -m unittest`: a real assertion failure
that its one recipe attempt cannot fix), copied to a temp workspace.
"""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import (
    CONFIG,
    EXAMPLES,
    code_actions,
    command,
    logs,
    start,
    stop,
    until,
    uri,
    workspace,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
BUILD = [sys.executable, "-m", "unittest"]
TEST_FILE = "tests/test_pricing.py"


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = workspace(lsp_client, tmp_path_factory, EXAMPLES / "broken-app")
    lsp_client.answer = "retry"  # type: ignore[attr-defined]
    await start(lsp_client, root)
    yield
    await stop(lsp_client)


def failing_test(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    (d,) = [d for d in client.diagnostics.get(uri(root / TEST_FILE), []) if d.code == "test"]
    return d


async def titles(client: LanguageClient) -> list[str]:
    d = failing_test(client)
    root = client.root  # type: ignore[attr-defined]
    return [a.title for a in await code_actions(client, root / TEST_FILE, d.range, [d])]


async def test_choosing_retry_in_the_escalation_prompt_reruns_the_task(client: LanguageClient):
    await command(client, "faultlens.run", {"command": BUILD})
    result = await command(
        client, "faultlens.applyRecipe", {"failureId": failing_test(client).data["id"]}
    )
    assert result["result"] == "escalated"
    await until(lambda: client.message_requests, what="showMessageRequest")  # type: ignore[attr-defined]
    await until(lambda: "user selected: retry" in logs(client), what="retry chosen")
    await until(lambda: logs(client).count("failure(s) in") >= 2, what="the re-run finished")
    # A retry is a fresh context: the task's failures get their one attempt again.
    d = failing_test(client)
    root = client.root  # type: ignore[attr-defined]
    acts = await code_actions(client, root / TEST_FILE, d.range, [d])
    (recipe,) = [a for a in acts if a.data and a.data.get("kind") == "recipe"]
    assert recipe.disabled is None
    client.answer = None  # type: ignore[attr-defined]  # the next prompt goes unanswered
    again = await command(client, "faultlens.applyRecipe", {"failureId": d.data["id"]})
    assert again["result"] == "escalated"
    assert any("(1 of 2 retries used)" in t for t in await titles(client))


async def test_retries_stop_at_the_limit(client: LanguageClient):
    result = await command(client, "faultlens.retryTask", {"task": "default"})
    assert result["accepted"] is True and result["retriesUsed"] == 2
    assert result["run"]["failures"] >= 1
    refused = await command(client, "faultlens.retryTask", {"task": "default"})
    assert refused["accepted"] is False and "2 of 2" in refused["message"]
    again = await command(
        client, "faultlens.applyRecipe", {"failureId": failing_test(client).data["id"]}
    )
    assert again["result"] == "escalated"  # the last fresh attempt, escalated again
    (retry,) = [t for t in await titles(client) if t.startswith("faultlens: retry task")]
    assert "(2 of 2 retries used)" in retry
    d = failing_test(client)
    root = client.root  # type: ignore[attr-defined]
    acts = await code_actions(client, root / TEST_FILE, d.range, [d])
    (action,) = [a for a in acts if a.title.startswith("faultlens: retry task")]
    assert action.disabled is not None and "2 of 2" in action.disabled.reason


async def test_skip_task_clears_its_failures(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    key = f"run:{' '.join(BUILD)}"
    result = await command(client, "faultlens.skipTask", {"task": "default", "storeTask": key})
    assert result["status"] == "skipped"
    await until(
        lambda: len(client.diagnostics.get(uri(root / TEST_FILE), [1])) == 0, what="cleared"
    )


async def test_stop_task_stops_a_running_command(client: LanguageClient):
    script = "import time\nfor i in range(600):\n    print(i, flush=True)\n    time.sleep(0.05)\n"
    run = asyncio.ensure_future(
        command(
            client, "faultlens.run", {"command": [sys.executable, "-c", script], "task": "LONG"}
        )
    )
    await until(lambda: "running" in logs(client) and " -c " in logs(client), what="started")
    await asyncio.sleep(0.3)
    result = await command(client, "faultlens.stopTask", {"task": "LONG"})
    assert result["status"] == "stopped"
    done = await asyncio.wait_for(run, 10)
    assert done["cancelled"] is True


async def test_clear_removes_every_diagnostic(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    await command(client, "faultlens.run", {"command": BUILD, "task": "T2"})
    await until(lambda: client.diagnostics.get(uri(root / TEST_FILE)), what="diagnostics again")
    cleared = await command(client, "faultlens.clear", {})
    assert cleared["cleared"] >= 2  # both example files (and the stopped run's log)
    for u in list(client.diagnostics):
        assert len(client.diagnostics[u]) == 0


async def test_unknown_commands_and_bad_arguments_are_errors(client: LanguageClient):
    with pytest.raises(JsonRpcException):
        await command(client, "faultlens.noSuchCommand", {})
    with pytest.raises(JsonRpcException, match="command"):
        await command(client, "faultlens.run", {"command": 42})
    with pytest.raises(JsonRpcException, match="choice"):
        await command(
            client, "faultlens.acceptConflict", {"uri": "file:///x", "line": 0, "choice": "mine"}
        )
    assert (await command(client, "faultlens.clear", {}))["cleared"] == 0
