"""Watched log files for a client that cannot watch files (Neovim on Linux):
the server polls the globs itself (`watchPollInterval`).

Fixture: tests/samples/typescript/tsc-plain-ts2304.
"""

from __future__ import annotations

import pytest
from pytest_lsp import LanguageClient

from .conftest import TS2304 as SAMPLE
from .conftest import capabilities, logs, served, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = served(caps=capabilities(watch=False), settings={"watchPollInterval": 0.2})


async def test_the_server_polls_when_the_client_cannot_watch(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    await until(lambda: "(polling)" in logs(client), what="polling started")
    assert client.registrations == []  # type: ignore[attr-defined]
    inbox = root / ".faultlens" / "inbox"
    inbox.mkdir(parents=True)
    (inbox / "tsc.log").write_bytes((SAMPLE / "output.txt").read_bytes())
    target = uri(root / "src/auth/middleware.ts")
    (d,) = await until(lambda: client.diagnostics.get(target), what="polled diagnostics")
    assert d.range.start.line == 41
    (inbox / "tsc.log").write_text("Found 0 errors.\n")
    await until(lambda: len(client.diagnostics.get(target, [1])) == 0, what="cleared on change")


async def test_a_deleted_file_is_cleared_when_the_client_cannot_watch(client: LanguageClient):
    """Neovim on Linux sends no deletions: the poll notices the file is gone."""
    root = client.root  # type: ignore[attr-defined]
    gone = root / "src" / "gone.ts"
    gone.write_text("let x: Missing;\n")
    client.protocol.notify(
        "faultlens/ingest",
        {"output": "src/gone.ts(1,8): error TS2304: Cannot find name 'Missing'.\n"},
    )
    target = uri(gone)
    await until(lambda: client.diagnostics.get(target), what="shown")
    gone.unlink()
    await until(
        lambda: target in client.diagnostics and not client.diagnostics[target],
        what="cleared after the file was deleted",
    )
