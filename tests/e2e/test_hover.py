"""textDocument/hover on a failure: category, severity, signal, recipe summary,
attempts; nothing elsewhere.  (The escalation box: test_example.py.)

Fixture: tests/samples/typescript/tsc-plain-ts2304.
"""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import CONFIG, TIMEOUT, ingest_sample, start, stop, until, uri, workspace

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = workspace(lsp_client, tmp_path_factory)
    await start(lsp_client, root)
    ingest_sample(lsp_client, task="TASK-7")
    target = uri(root / "src" / "auth" / "middleware.ts")
    await until(lambda: lsp_client.diagnostics.get(target), what="diagnostics")
    yield
    await stop(lsp_client)


async def hover(client: LanguageClient, line: int, character: int) -> T.Hover | None:
    root = client.root  # type: ignore[attr-defined]
    return await asyncio.wait_for(
        client.text_document_hover_async(
            T.HoverParams(
                text_document=T.TextDocumentIdentifier(uri=uri(root / "src/auth/middleware.ts")),
                position=T.Position(line=line, character=character),
            )
        ),
        TIMEOUT,
    )


async def test_hover_on_a_failure_explains_it(client: LanguageClient):
    h = await hover(client, 41, 18)
    assert h is not None and isinstance(h.contents, T.MarkupContent)
    assert h.contents.kind == T.MarkupKind.Markdown
    text = h.contents.value
    assert "compile" in text and "blocking" in text and "auto-recoverable: yes" in text
    assert "error TS2304: Cannot find name 'UserProfile'" in text
    assert "Recipe: " in text and "Attempts so far: 0 of 1" in text
    assert "Task retries: 0 of 2 used" in text
    assert "╔" not in text  # not escalated
    assert h.range is not None and h.range.start == T.Position(line=41, character=14)


async def test_hover_elsewhere_is_empty(client: LanguageClient):
    assert await hover(client, 0, 0) is None
