"""The life of a diagnostic: replaced per (task, source), moved with the user's
edits until the next run, cleared when its file is deleted or renamed, or
when the watcher that reported it is killed (unless keepDiagnosticsOnStop).

Fixture: tests/samples/typescript/tsc-plain-ts2304 (real `tsc -p .` output:
TS2304 at src/auth/middleware.ts:42), sent with faultlens/ingest or printed by
`cat` under `faultlens.run`.
"""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import (
    TS2304,
    TS2304_FILE,
    code_actions,
    command,
    ingest_sample,
    served,
    until,
    uri,
)
from .watchlib import (
    SCRIPTED_BANNERS,
    kill_all_in,
    processes_in,
    scripted_watcher,
    watcher_pid,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = served()


def cleared(client: LanguageClient, target: str) -> bool:
    return target in client.diagnostics and not client.diagnostics[target]


async def shown(client: LanguageClient, rel: str = TS2304_FILE) -> list[T.Diagnostic]:
    """Publish the sample's failure (task LIFE) and wait for it."""
    root = client.root  # type: ignore[attr-defined]
    path = root / rel
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((TS2304 / TS2304_FILE).read_bytes())
    output = (TS2304 / "output.txt").read_text().replace(TS2304_FILE, rel)
    client.diagnostics.pop(uri(path), None)
    client.protocol.notify("faultlens/ingest", {"output": output, "task": f"LIFE {rel}"})
    return list(await until(lambda: client.diagnostics.get(uri(path)), what=f"{rel} shown"))


async def test_a_deleted_files_diagnostics_are_cleared(client: LanguageClient) -> None:
    root = client.root  # type: ignore[attr-defined]
    await shown(client, "src/gone.ts")
    (root / "src/gone.ts").unlink()
    client.workspace_did_delete_files(
        T.DeleteFilesParams(files=[T.FileDelete(uri=uri(root / "src/gone.ts"))])
    )
    await until(lambda: cleared(client, uri(root / "src/gone.ts")), what="cleared on delete")


async def test_a_deleted_folder_clears_the_files_under_it(client: LanguageClient) -> None:
    root = client.root  # type: ignore[attr-defined]
    await shown(client, "lib/deep/a.ts")
    for p in sorted((root / "lib").rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    (root / "lib").rmdir()
    client.workspace_did_delete_files(
        T.DeleteFilesParams(files=[T.FileDelete(uri=uri(root / "lib"))])
    )
    await until(lambda: cleared(client, uri(root / "lib/deep/a.ts")), what="cleared")


async def test_a_renamed_files_diagnostics_are_cleared_at_its_old_name(
    client: LanguageClient,
) -> None:
    root = client.root  # type: ignore[attr-defined]
    await shown(client, "src/old.ts")
    (root / "src/old.ts").rename(root / "src/new.ts")
    client.workspace_did_rename_files(
        T.RenameFilesParams(
            files=[T.FileRename(old_uri=uri(root / "src/old.ts"), new_uri=uri(root / "src/new.ts"))]
        )
    )
    await until(lambda: cleared(client, uri(root / "src/old.ts")), what="cleared on rename")


async def test_a_watched_deletion_clears_the_file(client: LanguageClient) -> None:
    """VS Code reports deletions through the `**/*` delete watcher the server registers."""
    root = client.root  # type: ignore[attr-defined]
    await until(lambda: client.registrations, what="registration")  # type: ignore[attr-defined]
    (reg,) = client.registrations  # type: ignore[attr-defined]
    deletes = [w for w in reg.register_options["watchers"] if w["kind"] == T.WatchKind.Delete]
    assert [w["globPattern"]["pattern"] for w in deletes] == ["**/*"]
    await shown(client, "src/watched.ts")
    (root / "src/watched.ts").unlink()
    client.workspace_did_change_watched_files(
        T.DidChangeWatchedFilesParams(
            changes=[T.FileEvent(uri=uri(root / "src/watched.ts"), type=T.FileChangeType.Deleted)]
        )
    )
    await until(lambda: cleared(client, uri(root / "src/watched.ts")), what="cleared")


async def test_an_edit_moves_the_diagnostic_until_the_next_run(client: LanguageClient) -> None:
    root = client.root  # type: ignore[attr-defined]
    path = root / TS2304_FILE
    (d,) = await shown(client)
    assert d.range.start.line == 41 and (d.range.start.character, d.range.end.character) == (14, 25)
    text = path.read_text()
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(
                uri=uri(path), language_id="typescript", version=1, text=text
            )
        )
    )
    # the user adds two lines at the top, then widens the type on line 42 (now 44)
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
            content_changes=[
                T.TextDocumentContentChangePartial(
                    range=T.Range(
                        start=T.Position(line=0, character=0), end=T.Position(line=0, character=0)
                    ),
                    text="// one\n// two\n",
                ),
                T.TextDocumentContentChangePartial(
                    range=T.Range(
                        start=T.Position(line=43, character=2), end=T.Position(line=43, character=2)
                    ),
                    text="/* x */ ",
                ),
            ],
        )
    )

    def at_new_place() -> list[T.Diagnostic]:
        ds = client.diagnostics.get(uri(path), ())
        return [d for d in ds if (d.range.start.line, d.range.start.character) == (43, 22)]

    (moved,) = await until(at_new_place, what="the diagnostic moved to 44:23")
    assert len(client.diagnostics[uri(path)]) == 1
    assert moved.data["id"] == d.data["id"]
    lines = text.splitlines()
    assert lines[41][14:25] == "UserProfile"
    # the next run replaces it with what the tool says now
    client.text_document_did_close(
        T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=uri(path)))
    )
    client.protocol.notify(
        "faultlens/ingest", {"output": (TS2304 / "output.txt").read_text(), "task": "LIFE again"}
    )
    await until(
        lambda: [d for d in client.diagnostics.get(uri(path), ()) if d.range.start.line == 41],
        what="the next run's failure at the line the tool names",
    )


async def test_a_clean_run_clears_only_its_own_source_within_a_task(
    client: LanguageClient,
) -> None:
    """Under one task, `tsc` reported a failure; a clean run of another command
    (`true`) does not clear it; a clean run of the same command does."""
    root = client.root  # type: ignore[attr-defined]
    (root / "tsc.txt").write_bytes((TS2304 / "output.txt").read_bytes())
    target = uri(root / TS2304_FILE)
    client.diagnostics.pop(target, None)
    result = await command(client, "faultlens.run", {"command": ["cat", "tsc.txt"], "task": "T-9"})
    assert result["failures"] == 1

    def of_t9() -> list[T.Diagnostic]:
        return [d for d in client.diagnostics.get(target, ()) if "[T-9]" in d.message]

    await until(of_t9, what="shown")
    clean = await command(client, "faultlens.run", {"command": ["true"], "task": "T-9"})
    assert clean["exitCode"] == 0 and clean["task"] == "T-9"
    assert of_t9(), "another source's clean run cleared tsc's failure"
    (root / "tsc.txt").write_text("")
    again = await command(client, "faultlens.run", {"command": ["cat", "tsc.txt"], "task": "T-9"})
    assert again["failures"] == 0
    await until(lambda: not of_t9(), what="cleared by the same source")


async def test_clear_forgets_a_tasks_failures(client: LanguageClient) -> None:
    root = client.root  # type: ignore[attr-defined]
    ingest_sample(client, task="T-CLEAR")
    target = uri(root / TS2304_FILE)
    # this task's own diagnostic (an earlier test's may already be in the file:
    # clearing before the ingest is published would race it)
    await until(
        lambda: any("T-CLEAR" in d.message for d in client.diagnostics.get(target, ())),
        what="shown",
    )
    await command(client, "faultlens.clear", {"task": "T-CLEAR"})
    await until(
        lambda: not any("T-CLEAR" in d.message for d in client.diagnostics.get(target, ())),
        what="cleared",
    )


async def test_task_in_source_names_the_task_for_the_problems_view(client: LanguageClient) -> None:
    """With `taskInSource`, VS Code's Problems view shows (and filters by) each
    failure's task: `faultlens: T-SRC`; its code actions are still offered."""
    root = client.root  # type: ignore[attr-defined]
    target = uri(root / TS2304_FILE)
    client.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(settings={"faultlens": {"taskInSource": True}})
    )
    try:
        ingest_sample(client, task="T-SRC")

        def of_task() -> list[T.Diagnostic]:
            return [d for d in client.diagnostics.get(target, ()) if d.source == "faultlens: T-SRC"]

        (d,) = await until(of_task, what="the task in the source")
        actions = await code_actions(client, root / TS2304_FILE, d.range, [d])
        assert any("UserProfile" in a.title for a in actions), [a.title for a in actions]
    finally:
        client.workspace_did_change_configuration(
            T.DidChangeConfigurationParams(settings={"faultlens": {"taskInSource": False}})
        )


async def _watched(client: LanguageClient, task: str) -> tuple[dict[str, Any], str]:
    """The scripted watcher (tests/e2e/watchlib.py) under `task`, its first cycle
    printing tsc's real TS2304 output; the run's answer and the file's uri."""
    root = client.root  # type: ignore[attr-defined]
    for name in ("watcher.pid", "report.txt"):
        (root / name).unlink(missing_ok=True)
    argv = scripted_watcher(root, (TS2304 / "output.txt").read_text())
    result = await command(
        client, "faultlens.run", {"command": argv, "task": task, **SCRIPTED_BANNERS}
    )
    assert result["watch"] is True and result["task"] == task, result
    return result, uri(root / TS2304_FILE)


def of_task(client: LanguageClient, target: str, task: str) -> list[T.Diagnostic]:
    return [d for d in client.diagnostics.get(target, ()) if f"[{task}]" in d.message]


async def test_a_killed_watchers_diagnostics_are_cleared(client: LanguageClient) -> None:
    """Killed from outside (SIGKILL, not faultlens.stopTask): its last cycle
    is not trusted any more, its diagnostics go, no process is left."""
    root = client.root  # type: ignore[attr-defined]
    _, target = await _watched(client, "W-KILL")
    await until(lambda: of_task(client, target, "W-KILL"), what="the first cycle's failure")
    pid = await until(lambda: watcher_pid(root), what="the watcher's pid")
    os.kill(pid, signal.SIGKILL)
    await until(lambda: not of_task(client, target, "W-KILL"), what="cleared when killed")
    assert not processes_in(root), "a process is left"


async def test_a_stopped_watcher_keeps_its_last_cycle_with_keep_diagnostics_on_stop(
    client: LanguageClient,
) -> None:
    root = client.root  # type: ignore[attr-defined]
    client.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(settings={"faultlens": {"keepDiagnosticsOnStop": True}})
    )
    try:
        result, target = await _watched(client, "W-KEEP")
        await until(lambda: of_task(client, target, "W-KEEP"), what="the first cycle's failure")
        await command(client, "faultlens.stopTask", {"task": result["task"]})
        await until(lambda: not processes_in(root), what="the watcher ended")
        await asyncio.sleep(0.5)  # the task's end has been handled
        assert of_task(client, target, "W-KEEP"), "the last cycle's failure was not kept"
        await command(client, "faultlens.clear", {"task": "W-KEEP"})
        await until(lambda: not of_task(client, target, "W-KEEP"), what="cleared by clear")
    finally:
        client.workspace_did_change_configuration(
            T.DidChangeConfigurationParams(settings={"faultlens": {"keepDiagnosticsOnStop": False}})
        )
        kill_all_in(root)


async def test_an_edit_moves_a_watchers_diagnostic_until_its_next_cycle(
    client: LanguageClient,
) -> None:
    root = client.root  # type: ignore[attr-defined]
    result, target = await _watched(client, "W-EDIT")
    try:
        (d,) = await until(lambda: of_task(client, target, "W-EDIT"), what="the first cycle")
        assert d.range.start.line == 41
        path = root / TS2304_FILE
        client.text_document_did_open(
            T.DidOpenTextDocumentParams(
                text_document=T.TextDocumentItem(
                    uri=target, language_id="typescript", version=1, text=path.read_text()
                )
            )
        )
        client.text_document_did_change(  # two lines added at the top, not saved
            T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=target, version=2),
                content_changes=[
                    T.TextDocumentContentChangePartial(
                        range=T.Range(start=T.Position(0, 0), end=T.Position(0, 0)),
                        text="// one\n// two\n",
                    )
                ],
            )
        )
        await until(
            lambda: [x for x in of_task(client, target, "W-EDIT") if x.range.start.line == 43],
            what="moved with the edit",
        )
        # the watcher's next cycle says where the tool sees it now
        (root / "report.txt").write_text((TS2304 / "output.txt").read_text() + "\n")
        await until(
            lambda: [x for x in of_task(client, target, "W-EDIT") if x.range.start.line == 41],
            what="placed by the next cycle",
        )
        client.text_document_did_close(
            T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=target))
        )
    finally:
        await command(client, "faultlens.stopTask", {"task": result["task"]})
        await until(lambda: not processes_in(root), what="the watcher ended")
        kill_all_in(root)
