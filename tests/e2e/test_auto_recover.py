"""`autoRecover: true`: the one automatic attempt is made as soon as a fixable
failure arrives (edit through workspace/applyEdit, then verified).

Fixture: tests/samples/typescript/tsc-plain-ts2304.
"""

from __future__ import annotations

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from .conftest import CONFIG, SAMPLES, copy_tree, logs, start, stop, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
SAMPLE = SAMPLES / "typescript" / "tsc-plain-ts2304"


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = copy_tree(SAMPLE, tmp_path_factory.mktemp("ws") / "app")
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, root, settings={"autoRecover": True})
    yield
    await stop(lsp_client)


async def test_a_fixable_failure_is_recovered_without_asking(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    target = root / "src" / "auth" / "middleware.ts"
    client.protocol.notify("faultlens/ingest", {"output": (SAMPLE / "output.txt").read_text()})
    await until(lambda: "recovered compile" in logs(client), what="automatic recovery")
    assert "import { UserProfile } from '../models/user';" in target.read_text()
    assert len(client.applied_edits) == 1  # type: ignore[attr-defined]
    await until(lambda: len(client.diagnostics.get(uri(target), [1])) == 0, what="cleared")
