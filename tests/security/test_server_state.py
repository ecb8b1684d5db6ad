"""The language server on a checkout whose `.faultlens/` is hostile (issue 19,
items 1, 10, 17, 18): links out of the workspace for the run logs, the text
logs, the event log and the ledger's WAL, a recipe override linked to
/dev/zero, and a committed journal aimed at a file outside.

The real server (`faultlens serve --stdio`, driven by pytest-lsp) starts,
classifies an ingested log, shows its diagnostics and answers a hover, tells
the user once about the journal it refuses, and writes, reads, chmods and
deletes nothing outside the workspace.
"""

from __future__ import annotations

import base64
import json
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from tests.e2e.conftest import (
    CONFIG,
    TS2304_FILE,
    ingest_sample,
    logs,
    start,
    stop,
    until,
    uri,
    workspace,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def _outside_snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _plant(root: Path, outside: Path) -> None:
    """What a hostile repository can commit under .faultlens/."""
    for name in ("runs", "logs"):
        (outside / name).mkdir(parents=True)
    (outside / "victim.txt").write_text("keep me\n")
    (outside / "wal").write_bytes(b"")
    state = root / ".faultlens"
    (state / "journal").mkdir(parents=True)
    (state / "recipes").mkdir()
    (state / "runs").symlink_to(outside / "runs", target_is_directory=True)
    (state / "logs").symlink_to(outside / "logs", target_is_directory=True)
    (state / "events.jsonl").symlink_to(outside / "victim.txt")
    (state / "ledger.sqlite3-wal").symlink_to(outside / "wal")
    (state / "recipes" / "compile.md").symlink_to("/dev/zero")
    journal = {
        "pid": 1,
        "targets": [
            {
                "path": str(outside / "victim.txt"),
                "tmp": None,
                "original": base64.b64encode(b"pwned\n").decode(),
                "mode": 0o777,
            }
        ],
    }
    (state / "journal" / "1-0123456789ab.json").write_text(json.dumps(journal))


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    root = workspace(lsp_client, tmp_path_factory)
    outside = root.parent / "outside"
    _plant(root, outside)
    lsp_client.outside = outside  # type: ignore[attr-defined]
    lsp_client.before = _outside_snapshot(outside)  # type: ignore[attr-defined]
    await start(lsp_client, root)
    yield
    await stop(lsp_client)


async def test_the_server_classifies_and_answers_on_a_hostile_state_dir(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    ingest_sample(client)
    target = uri(root / TS2304_FILE)
    (d,) = await until(lambda: client.diagnostics.get(target), what="diagnostics")
    hover = await client.text_document_hover_async(
        T.HoverParams(text_document=T.TextDocumentIdentifier(uri=target), position=d.range.start)
    )
    assert hover is not None and "faultlens" in str(hover.contents)


async def test_the_committed_journal_is_refused_and_the_user_told(client: LanguageClient):
    await until(lambda: "nothing in it is acted on" in logs(client), what="the refusal")
    shown = [m.message for m in client.messages if "journal" in m.message]
    assert len(shown) == 1, shown


async def test_nothing_outside_the_workspace_was_written_chmodded_or_deleted(
    client: LanguageClient,
):
    outside = client.outside  # type: ignore[attr-defined]
    assert _outside_snapshot(outside) == client.before  # type: ignore[attr-defined]
    assert not list((outside / "runs").iterdir())
    assert not list((outside / "logs").iterdir())
