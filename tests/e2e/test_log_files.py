"""Log files: watched (client/registerCapability + workspace/didChangeWatchedFiles)
and opened in the editor (textDocument/didOpen of a *.log).

Fixtures: tests/samples/typescript/tsc-plain-ts2304 (workspace and tsc output),
tests/samples/git/push-rejected-fetch-first/output.txt (a failure with no
source location, shown on its log line).
"""

from __future__ import annotations

import pytest
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import SAMPLES, logs, request, served, until, uri
from .conftest import TS2304 as SAMPLE

pytestmark = pytest.mark.asyncio(loop_scope="module")
PUSH = SAMPLES / "git" / "push-rejected-fetch-first" / "output.txt"

client = served()


async def test_watch_globs_are_registered_with_the_client(client: LanguageClient):
    await until(lambda: client.registered.is_set(), what="registerCapability")  # type: ignore[attr-defined]
    (reg,) = client.registrations  # type: ignore[attr-defined]
    assert reg.method == T.WORKSPACE_DID_CHANGE_WATCHED_FILES
    patterns = [w["globPattern"]["pattern"] for w in reg.register_options["watchers"]]
    assert patterns == [".faultlens/inbox/*.log", "**/junit*.xml", "**/*"]
    # the last one watches deletions only (a deleted file's failures are cleared)
    assert reg.register_options["watchers"][-1]["kind"] == T.WatchKind.Delete
    base = reg.register_options["watchers"][0]["globPattern"]["baseUri"]
    assert base == uri(client.root)  # type: ignore[attr-defined]


async def test_a_changed_inbox_log_is_classified_with_paths_from_the_root(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    inbox = root / ".faultlens" / "inbox"
    inbox.mkdir(parents=True)
    log = inbox / "build.log"
    log.write_bytes((SAMPLE / "output.txt").read_bytes())
    client.workspace_did_change_watched_files(
        T.DidChangeWatchedFilesParams(
            changes=[T.FileEvent(uri=uri(log), type=T.FileChangeType.Created)]
        )
    )
    target = uri(root / "src" / "auth" / "middleware.ts")  # not .faultlens/inbox/src/...
    (d,) = await until(lambda: client.diagnostics.get(target), what="diagnostics from the log")
    assert d.range.start.line == 41
    assert d.data["log_file"] == ".faultlens/inbox/build.log"


async def test_a_deleted_watched_log_clears_its_failures(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    log = root / ".faultlens" / "inbox" / "build.log"
    log.unlink()
    client.workspace_did_change_watched_files(
        T.DidChangeWatchedFilesParams(
            changes=[T.FileEvent(uri=uri(log), type=T.FileChangeType.Deleted)]
        )
    )
    target = uri(root / "src" / "auth" / "middleware.ts")
    await until(lambda: len(client.diagnostics.get(target, [1])) == 0, what="cleared")


async def test_files_outside_the_globs_are_ignored(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    other = root / "notes.txt"
    other.write_bytes((SAMPLE / "output.txt").read_bytes())
    before = len(client.log_messages)
    client.workspace_did_change_watched_files(
        T.DidChangeWatchedFilesParams(
            changes=[T.FileEvent(uri=uri(other), type=T.FileChangeType.Created)]
        )
    )
    failures = await request(client, "faultlens/failures", {})
    assert failures.failures == []
    assert "notes.txt" not in logs(client)[before:]


async def test_an_opened_log_is_classified_and_a_locationless_failure_sits_on_its_line(
    client: LanguageClient,
):
    root = client.root  # type: ignore[attr-defined]
    log = root / "logs" / "push.log"
    log.parent.mkdir()
    text = PUSH.read_text()
    log.write_text(text)
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri(log), language_id="log", version=1, text=text)
        )
    )
    (d,) = await until(lambda: client.diagnostics.get(uri(log)), what="diagnostic on the log")
    assert d.code == "branch_divergence"
    assert text.splitlines()[d.range.start.line].lstrip().startswith("! [rejected]")


async def test_an_opened_log_resolves_paths_from_the_root_not_its_folder(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    log = root / "logs" / "tsc.log"
    text = (SAMPLE / "output.txt").read_text()
    log.write_text(text)
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri(log), language_id="log", version=1, text=text)
        )
    )
    target = uri(root / "src" / "auth" / "middleware.ts")
    (d,) = await until(lambda: client.diagnostics.get(target), what="diagnostics")
    assert d.data["log_file"] == "logs/tsc.log"
    # editing the log re-classifies it: the failure goes away with the text
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri(log), version=2),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text="all good\n")],
        )
    )
    await until(lambda: len(client.diagnostics.get(target, [1])) == 0, what="cleared")
