"""Failures without a source location are shown on their config entry: an MCP
server's key in .mcp.json, a plugin manifest.

Fixtures: tests/samples/mcp/claude-code-mcp-list (with its .mcp.json),
tests/samples/plugin/json-tool-manifest (with .claude-plugin/plugin.json),
side by side in one temp workspace, output ingested with each folder as cwd.
"""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import CONFIG, SAMPLES, copy_tree, start, stop, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
MCP = SAMPLES / "mcp" / "claude-code-mcp-list"
PLUGIN = SAMPLES / "plugin" / "json-tool-manifest"


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("ws")
    copy_tree(MCP, root / "mcp")
    copy_tree(PLUGIN, root / "plugin")
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, root)
    yield
    await stop(lsp_client)


def ingest(client: LanguageClient, folder: str) -> None:
    root = client.root  # type: ignore[attr-defined]
    client.protocol.notify(
        "faultlens/ingest",
        {"output": (root / folder / "output.txt").read_text(), "cwd": folder, "task": folder},
    )


async def test_an_mcp_failure_is_shown_on_its_server_key(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    config = root / "mcp" / ".mcp.json"
    ingest(client, "mcp")
    (d,) = await until(lambda: client.diagnostics.get(uri(config)), what=".mcp.json diagnostic")
    assert d.code == "mcp_startup" and d.severity == T.DiagnosticSeverity.Warning
    line = config.read_text().splitlines()[d.range.start.line]
    assert line[d.range.start.character : d.range.end.character] == '"tickets"'


async def test_a_plugin_failure_is_shown_in_its_manifest(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    manifest = root / "plugin" / ".claude-plugin" / "plugin.json"
    ingest(client, "plugin")
    (d,) = await until(lambda: client.diagnostics.get(uri(manifest)), what="manifest diagnostic")
    assert d.code == "plugin_startup" and d.severity == T.DiagnosticSeverity.Warning
    assert d.range.start.line == 7
