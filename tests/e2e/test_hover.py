"""textDocument/hover on a failure: category, severity, signal, recipe summary,
attempts; nothing elsewhere.  (The escalation box: test_example.py.)

Fixture: tests/samples/typescript/tsc-plain-ts2304.
"""

from __future__ import annotations

import pytest
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import hover, served

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = served(ingest={"task": "TASK-7"})


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


async def test_the_same_failure_from_another_task_is_explained_once(client: LanguageClient):
    from .conftest import ingest_sample, until

    ingest_sample(client, task="TASK-8")
    await until(
        lambda: [m for m in client.log_messages if m.message.startswith("faultlens: TASK-8:")],
        timeout=30,
        what="TASK-8 classified",
    )
    h = await hover(client, 41, 18)
    assert h is not None and isinstance(h.contents, T.MarkupContent)
    assert h.contents.value.count("error TS2304: Cannot find name 'UserProfile'") == 1
