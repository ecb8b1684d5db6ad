"""`autoRecover: true`: the one automatic attempt is made as soon as a fixable
failure arrives (edit through workspace/applyEdit, then verified).

Fixture: tests/samples/typescript/tsc-plain-ts2304.
"""

from __future__ import annotations

import pytest
from pytest_lsp import LanguageClient

from .conftest import ingest_sample, logs, served, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = served(settings={"autoRecover": True})


async def test_a_fixable_failure_is_fixed_without_asking(client: LanguageClient):
    """Ingested output names no command: the fix is applied, and said to be
    unverified until the next run of the build (recipes/confirm.py)."""
    root = client.root  # type: ignore[attr-defined]
    target = root / "src" / "auth" / "middleware.ts"
    ingest_sample(client)
    await until(lambda: "applied compile" in logs(client), what="automatic recovery")
    assert "applied, not verified" in logs(client)
    assert "import { UserProfile } from '../models/user';" in target.read_text()
    assert len(client.applied_edits) == 1  # type: ignore[attr-defined]
    await until(lambda: len(client.diagnostics.get(uri(target), [1])) == 0, what="cleared")
