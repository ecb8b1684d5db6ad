"""The `faultlens/failures` request: the current records, where they are shown,
filtered by task or file; bad params are an error and the server goes on.

Fixtures: tests/samples/typescript/tsc-plain-ts2304 and
tests/samples/git/status-diverged (a failure without any location).
"""

from __future__ import annotations

import pytest
import pytest_lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import (
    CONFIG,
    SAMPLES,
    eventually,
    ingest_sample,
    request,
    start,
    stop,
    until,
    uri,
    workspace,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
DIVERGED = SAMPLES / "git" / "status-diverged" / "output.txt"


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = workspace(lsp_client, tmp_path_factory)
    await start(lsp_client, root)
    ingest_sample(lsp_client, task="build")
    lsp_client.protocol.notify(
        "faultlens/ingest",
        {"output": DIVERGED.read_text(), "task": "sync", "command": "git status"},
    )
    yield
    await stop(lsp_client)


def as_dict(obj):
    return obj._asdict() if hasattr(obj, "_asdict") else obj


async def all_failures(client: LanguageClient, **params) -> list[dict]:
    result = await request(client, "faultlens/failures", params)
    return [as_dict(f) for f in result.failures]


async def test_failures_lists_every_current_record(client: LanguageClient):
    async def both():
        found = await all_failures(client)
        return found if len(found) == 2 else None

    failures = await eventually(both, what="both ingested")
    by_task = {f["task"]: f for f in failures}
    assert set(by_task) == {"build", "sync"}
    build = by_task["build"]
    assert as_dict(build["record"])["failure_type"] == "compile"
    assert build["uri"] == uri(client.root / "src/auth/middleware.ts")  # type: ignore[attr-defined]
    assert build["line"] == 41 and build["shownAt"] == "source"


async def test_a_failure_without_location_is_listed_on_its_log(client: LanguageClient):
    (sync,) = await all_failures(client, task="sync")
    record = as_dict(sync["record"])
    assert record["failure_type"] == "branch_divergence" and record["source_file"] is None
    assert sync["shownAt"] in ("log", None)


async def test_failures_filter_by_file(client: LanguageClient):
    target = uri(client.root / "src/auth/middleware.ts")  # type: ignore[attr-defined]
    (only,) = await all_failures(client, uri=target)
    assert only["task"] == "build"


async def test_bad_params_are_an_error_and_the_server_goes_on(client: LanguageClient):
    with pytest.raises(JsonRpcException, match="task"):
        await request(client, "faultlens/failures", {"task": 42})
    assert len(await all_failures(client)) == 2


async def test_diagnostics_of_the_listed_file_match(client: LanguageClient):
    target = uri(client.root / "src/auth/middleware.ts")  # type: ignore[attr-defined]
    (d,) = await until(lambda: client.diagnostics.get(target))
    (only,) = await all_failures(client, uri=target)
    assert as_dict(only["record"])["id"] == d.data["id"]
