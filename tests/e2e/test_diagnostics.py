"""Push diagnostics from output sent with `faultlens/ingest`.

Fixture: tests/samples/typescript/tsc-plain-ts2304 (real `tsc -p .` output),
copied to a temp workspace.
"""

from __future__ import annotations

import pytest
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import TS2304 as SAMPLE
from .conftest import path_of, served, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = served()


def ingest(
    client: LanguageClient, task: str | None = "TASK-007", output: str | None = None
) -> None:
    text = output if output is not None else (SAMPLE / "output.txt").read_text()
    client.protocol.notify(
        "faultlens/ingest",
        {"output": text, "command": "tsc -p .", "cwd": ".", "exitCode": 2, "task": task},
    )


async def test_ingested_tsc_error_is_an_error_diagnostic_at_its_line(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    target = uri(root / "src" / "auth" / "middleware.ts")
    ingest(client)
    (d,) = await until(lambda: client.diagnostics.get(target), what="diagnostics")
    assert d.source == "faultlens"
    assert d.code == "compile"
    assert d.severity == T.DiagnosticSeverity.Error
    assert d.range.start == T.Position(line=41, character=14)
    line = (root / "src/auth/middleware.ts").read_text().splitlines()[41]
    assert line[d.range.start.character : d.range.end.character] == "UserProfile"
    assert "Cannot find name 'UserProfile'" in d.message and "[TASK-007]" in d.message
    assert d.data["failure_type"] == "compile" and d.data["source_line"] == 42
    assert d.data["task"] == "TASK-007" and d.data["id"]
    assert d.code_description is not None and d.code_description.href.endswith("compile.md")


async def test_related_information_points_at_the_output_line(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    (d,) = client.diagnostics[uri(root / "src" / "auth" / "middleware.ts")]
    assert d.related_information
    log = d.related_information[0].location
    path = path_of(log.uri)
    # an ingest's run log is saved (redacted) right after its diagnostics are out
    text = await until(lambda: path.is_file() and path.read_text(), what="the run log")
    assert text.splitlines()[log.range.start.line].startswith("src/auth/middleware.ts(42,15)")


async def test_a_new_run_of_the_task_replaces_and_clears_its_diagnostics(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    target = uri(root / "src" / "auth" / "middleware.ts")
    ingest(client)
    await until(lambda: client.diagnostics.get(target), what="diagnostics")
    ingest(client, output="Found 0 errors.\n")
    await until(lambda: len(client.diagnostics.get(target, [1])) == 0, what="cleared diagnostics")


async def test_tasks_are_independent(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    target = uri(root / "src" / "auth" / "middleware.ts")
    ingest(client, task="TASK-001")
    ingest(client, task="TASK-002")
    await until(lambda: len(client.diagnostics.get(target, [])) == 2, what="two tasks")
    ingest(client, task="TASK-001", output="")
    (d,) = await until(
        lambda: len(client.diagnostics.get(target, [])) == 1 and client.diagnostics[target]
    )
    assert d.data["task"] == "TASK-002"
