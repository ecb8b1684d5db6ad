"""Pull diagnostics (textDocument/diagnostic, workspace/diagnostic), chosen with
initializationOptions `diagnosticMode: "pull"` by a client that supports it;
then nothing is pushed (no duplicates in clients that do both).

Fixture: tests/samples/typescript/tsc-plain-ts2304; a watcher's cycles are
printed by the scripted watcher of tests/e2e/watchlib.py.
"""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import (
    CONFIG,
    TIMEOUT,
    TS2304,
    capabilities,
    command,
    ingest_sample,
    stop,
    until,
    uri,
    workspace,
)
from .watchlib import SCRIPTED_BANNERS, kill_all_in, processes_in, scripted_watcher

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = workspace(lsp_client, tmp_path_factory)
    lsp_client.init_result = None  # type: ignore[attr-defined]
    lsp_client.set_configuration({}, section="faultlens")
    result = await asyncio.wait_for(
        lsp_client.initialize_session(
            T.InitializeParams(
                capabilities=capabilities(pull=True),
                root_uri=uri(root),
                initialization_options={"diagnosticMode": "pull"},
            )
        ),
        TIMEOUT,
    )
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await stop(lsp_client)


async def test_the_server_advertises_pull_diagnostics(client: LanguageClient):
    caps = client.init_result.capabilities  # type: ignore[attr-defined]
    assert caps.diagnostic_provider is not None
    assert caps.diagnostic_provider.identifier == "faultlens"
    assert caps.diagnostic_provider.workspace_diagnostics is True


async def test_documents_pull_their_failures_and_nothing_is_pushed(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    refreshes = client.diagnostic_refresh_count
    ingest_sample(client)
    await until(lambda: client.diagnostic_refresh_count > refreshes, what="diagnostic refresh")
    report = await asyncio.wait_for(
        client.text_document_diagnostic_async(
            T.DocumentDiagnosticParams(
                text_document=T.TextDocumentIdentifier(uri=uri(root / "src/auth/middleware.ts"))
            )
        ),
        TIMEOUT,
    )
    assert report.kind == "full"
    (d,) = report.items
    assert d.code == "compile" and d.range.start.line == 41
    assert client.diagnostics == {}


async def test_workspace_diagnostics_list_every_file(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    report = await asyncio.wait_for(
        client.workspace_diagnostic_async(T.WorkspaceDiagnosticParams(previous_result_ids=[])),
        TIMEOUT,
    )
    by_uri = {item.uri: item for item in report.items}
    assert list(by_uri) == [uri(root / "src/auth/middleware.ts")]


async def _pulled(client: LanguageClient, task: str) -> list[T.Diagnostic]:
    """`workspace/diagnostic`'s items of one task (a failure's message names its task)."""
    report = await asyncio.wait_for(
        client.workspace_diagnostic_async(T.WorkspaceDiagnosticParams(previous_result_ids=[])),
        TIMEOUT,
    )
    return [d for item in report.items for d in item.items if f"[{task}]" in d.message]


async def test_workspace_diagnostics_follow_a_watchers_cycles(client: LanguageClient):
    """A pull client is told to pull again after each cycle of a watcher, and
    `workspace/diagnostic` returns what the last cycle found: the failure, then
    nothing after a clean cycle (scripted watcher, tsc's real output)."""
    root = client.root  # type: ignore[attr-defined]
    refreshes = client.diagnostic_refresh_count
    argv = scripted_watcher(root, (TS2304 / "output.txt").read_text())
    try:
        result = await command(
            client, "faultlens.run", {"command": argv, "task": "W-PULL", **SCRIPTED_BANNERS}
        )
        assert result["watch"] is True
        await until(lambda: client.diagnostic_refresh_count > refreshes, what="a refresh")
        found: list[T.Diagnostic] = []
        for _ in range(200):
            if found := await _pulled(client, "W-PULL"):
                break
            await asyncio.sleep(0.05)
        (d,) = found
        assert d.code == "compile" and d.range.start.line == 41
        refreshes = client.diagnostic_refresh_count
        (root / "report.txt").write_text("")  # the next cycle is clean
        await until(lambda: client.diagnostic_refresh_count > refreshes, what="a refresh")
        for _ in range(200):
            if not await _pulled(client, "W-PULL"):
                break
            await asyncio.sleep(0.05)
        assert not await _pulled(client, "W-PULL"), "the clean cycle did not clear it"
        assert client.diagnostics == {}, "a pull client got pushed diagnostics"
        await command(client, "faultlens.stopTask", {"task": result["task"]})
        await until(lambda: not processes_in(root), what="the watcher ended")
    finally:
        kill_all_in(root)
