"""`faultlens.run`: a command run by the server, streamed, with $/progress, cancellable.

Fixture: tests/samples/typescript/tsc-plain-ts2304; the command prints the
sample's captured tsc output (`cat output.txt`), so no compiler is needed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import CONFIG, SAMPLES, command, start, stop, until, uri, workspace

pytestmark = pytest.mark.asyncio(loop_scope="module")
PUSH = SAMPLES / "git" / "push-rejected-fetch-first" / "output.txt"


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = workspace(lsp_client, tmp_path_factory)
    (root / "push.txt").write_bytes(PUSH.read_bytes())
    await start(lsp_client, root, settings={"runCommands": {"build": "cat output.txt"}})
    yield
    await stop(lsp_client)


async def test_run_publishes_diagnostics_and_reports_progress(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    result = await command(client, "faultlens.run", {"command": ["cat", "output.txt"]})
    assert result["exitCode"] == 0 and result["failures"] == 1 and result["lines"] == 1
    (d,) = client.diagnostics[uri(root / "src" / "auth" / "middleware.ts")]
    assert d.range.start.line == 41
    kinds = [[type(v).__name__ for v in values] for values in client.progress_reports.values()]
    assert ["WorkDoneProgressBegin", "WorkDoneProgressReport", "WorkDoneProgressEnd"] in [
        [k for i, k in enumerate(ks) if i == 0 or k != ks[i - 1]] for ks in kinds
    ]
    values = list(client.progress_reports.values())[-1]
    begin, end = values[0], values[-1]
    assert begin.cancellable is True and "cat output.txt" in begin.title
    assert any("1 lines" in (v.message or "") for v in values[1:-1])
    assert "1 failure(s)" in (end.message or "")


async def test_a_string_command_is_split_without_a_shell(client: LanguageClient):
    result = await command(client, "faultlens.run", {"command": "cat 'output.txt' ; echo hi"})
    # `;` is an argument of cat, not a shell operator: cat fails on the missing files
    assert result["exitCode"] != 0


async def test_a_named_run_command_comes_from_settings(client: LanguageClient):
    result = await command(client, "faultlens.run", {"name": "build", "task": "TASK-100"})
    assert result["task"] == "TASK-100" and result["failures"] == 1


async def test_a_locationless_failure_is_shown_on_the_run_log_line(client: LanguageClient):
    result = await command(client, "faultlens.run", {"command": ["cat", "push.txt"]})
    assert result["failures"] == 1
    log = Path(result["log"])
    (d,) = await until(lambda: client.diagnostics.get(uri(log)), what="log diagnostic")
    assert log.read_text().splitlines()[d.range.start.line].lstrip().startswith("! [rejected]")


async def test_a_cwd_outside_the_workspace_is_refused(client: LanguageClient):
    with pytest.raises(JsonRpcException, match="outside the workspace"):
        await command(client, "faultlens.run", {"command": ["ls"], "cwd": "../.."})


async def test_a_missing_program_is_reported_not_crashed(client: LanguageClient):
    result = await command(client, "faultlens.run", {"command": ["no-such-program-xyz"]})
    assert "no-such-program-xyz" in result["error"]


async def test_cancelling_the_progress_stops_the_command(client: LanguageClient):
    script = "import time\nfor i in range(600):\n    print(i, flush=True)\n    time.sleep(0.05)\n"
    before = set(client.progress_reports)
    run = asyncio.ensure_future(
        command(client, "faultlens.run", {"command": [sys.executable, "-c", script]})
    )
    token = await until(
        lambda: next(iter(set(client.progress_reports) - before), None), what="progress token"
    )
    await until(lambda: len(client.progress_reports[token]) >= 3, what="some output")
    client.window_work_done_progress_cancel(T.WorkDoneProgressCancelParams(token=token))
    result = await asyncio.wait_for(run, 10)
    assert result["cancelled"] is True and result["lines"] < 600


async def test_cancelling_the_request_stops_the_command(client: LanguageClient):
    script = "import time\nfor i in range(600):\n    print(i, flush=True)\n    time.sleep(0.05)\n"
    params = T.ExecuteCommandParams(
        command="faultlens.run", arguments=[{"command": [sys.executable, "-c", script]}]
    )
    before = set(client.progress_reports)
    msg_id = "cancel-me"
    pending = asyncio.ensure_future(
        client.protocol.send_request_async(T.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)
    )
    token = await until(lambda: next(iter(set(client.progress_reports) - before), None))
    await until(lambda: len(client.progress_reports[token]) >= 3, what="some output")
    client.protocol.notify(T.CANCEL_REQUEST, T.CancelParams(id=msg_id))
    with pytest.raises(JsonRpcException):
        await asyncio.wait_for(pending, 10)
    await until(
        lambda: type(client.progress_reports[token][-1]).__name__ == "WorkDoneProgressEnd",
        what="progress ended",
    )
