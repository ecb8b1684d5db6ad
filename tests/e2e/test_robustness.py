"""Robustness: malformed requests get an error and the server keeps serving;
a bad notification is logged; classifying a large output does not hold up a hover.

Fixture: tests/samples/typescript/tsc-plain-ts2304 (its real tsc output, the
large input is that output's line repeated among filler build lines).
"""

from __future__ import annotations

import asyncio
import time

import pytest
import pytest_lsp
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import (
    CONFIG,
    TIMEOUT,
    ingest_sample,
    raw_request,
    request,
    start,
    stop,
    until,
    uri,
    workspace,
)
from .conftest import TS2304 as SAMPLE

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = workspace(lsp_client, tmp_path_factory)
    await start(lsp_client, root)
    ingest_sample(lsp_client, task="small")
    await until(lambda: lsp_client.diagnostics.get(uri(root / "src/auth/middleware.ts")))
    yield
    await stop(lsp_client)


async def hover(client: LanguageClient) -> T.Hover | None:
    root = client.root  # type: ignore[attr-defined]
    return await asyncio.wait_for(
        client.text_document_hover_async(
            T.HoverParams(
                text_document=T.TextDocumentIdentifier(uri=uri(root / "src/auth/middleware.ts")),
                position=T.Position(line=41, character=16),
            )
        ),
        TIMEOUT,
    )


async def test_a_malformed_request_gets_an_error_and_the_server_goes_on(client: LanguageClient):
    with pytest.raises(JsonRpcException):
        await raw_request(
            client, T.TEXT_DOCUMENT_HOVER, {"textDocument": {"uri": 5}, "position": "x"}
        )
    with pytest.raises(JsonRpcException):
        await raw_request(client, T.WORKSPACE_EXECUTE_COMMAND, {"command": ["not", "a", "string"]})
    with pytest.raises(JsonRpcException):
        await request(client, "faultlens/noSuchRequest", {})
    assert await hover(client) is not None


async def test_a_malformed_notification_is_logged_and_ignored(client: LanguageClient):
    client.protocol.notify("faultlens/ingest", {"output": 42})
    await until(
        lambda: any("faultlens/ingest failed" in m.message for m in client.log_messages),
        what="logMessage",
    )
    assert await hover(client) is not None


async def test_hover_stays_fast_while_a_large_output_is_classified(client: LanguageClient):
    line = (SAMPLE / "output.txt").read_text().splitlines()[0]
    filler = "".join(f"[build] compiling module {i} of 400000\n" for i in range(400_000))
    big = filler + line + "\n"
    assert len(big) > 10_000_000
    client.protocol.notify("faultlens/ingest", {"output": big, "task": "big"})
    await asyncio.sleep(0.3)  # the ingest is being classified now
    slowest = 0.0
    for _ in range(5):
        began = time.monotonic()
        assert await hover(client) is not None
        slowest = max(slowest, time.monotonic() - began)
        await asyncio.sleep(0.05)
    done = await until(
        lambda: [m for m in client.log_messages if m.message.startswith("faultlens: big:")],
        timeout=60,
        what="big classified",
    )
    assert "1 failure(s)" in done[0].message
    assert slowest < 0.5, f"hover took {slowest:.2f}s while classifying"
