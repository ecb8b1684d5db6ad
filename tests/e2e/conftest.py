"""End-to-end fixtures: the real `faultlens serve` over stdio, driven by pytest-lsp.

The test client behaves like an editor that saves what it edits: it answers
`workspace/applyEdit` by writing the edit into the files on disk (so tests
check file contents), records `client/registerCapability` registrations, and
answers `window/showMessageRequest` with a configurable choice.

Each test module starts one server (module scope) on its own copy of a sample
folder; every wait has a timeout and teardown cannot hang.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import shutil
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
import pytest_lsp
from lsprotocol import types as T
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "tests" / "samples"
EXAMPLES = ROOT / "examples"
SERVER = [sys.executable, "-m", "faultlens.cli", "serve", "--stdio"]
TIMEOUT = 15.0


def uri(path: Path) -> str:
    return uris.from_fs_path(str(path)) or path.as_uri()


def path_of(u: str) -> Path:
    fs = uris.to_fs_path(u)
    assert fs is not None
    return Path(fs)


def _offset(text: str, pos: T.Position) -> int:
    """A UTF-16 LSP position as an index into `text`."""
    lines = text.splitlines(keepends=True)
    if pos.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: pos.line])
    line = lines[pos.line]
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return start + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return start + len(line.rstrip("\r\n")) if units < pos.character else start + len(line)


def apply_text_edits(text: str, edits: Sequence[T.TextEdit]) -> str:
    spans = sorted(
        ((_offset(text, e.range.start), _offset(text, e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def apply_workspace_edit(edit: T.WorkspaceEdit) -> None:
    """Apply a WorkspaceEdit to the files on disk (documentChanges or changes)."""
    for change in edit.document_changes or ():
        if isinstance(change, T.CreateFile):
            p = path_of(change.uri)
            p.parent.mkdir(parents=True, exist_ok=True)
            if not p.exists():
                p.write_text("")
        elif isinstance(change, T.TextDocumentEdit):
            p = path_of(change.text_document.uri)
            edits = [e for e in change.edits if isinstance(e, T.TextEdit)]
            p.write_text(apply_text_edits(p.read_text(), edits))
        else:
            raise AssertionError(f"unexpected change {change!r}")
    for u, edits in (edit.changes or {}).items():
        p = path_of(u)
        p.write_text(apply_text_edits(p.read_text(), list(edits)))


@attrs.define
class RawResponse:
    """A response whose result stays plain JSON."""

    id: int | str
    result: Any = None
    jsonrpc: str = "2.0"


def client_factory() -> LanguageClient:
    client = pytest_lsp.make_test_lsp_client()
    # lsprotocol's client-side converter reads a CodeAction that carries a
    # `command` object as a bare Command; keep codeAction results raw and
    # structure them in `code_actions` the way editors do (command: string or not).
    default_result_type = client.protocol.get_result_type

    def result_type(method: str) -> Any:
        return RawResponse if method == T.TEXT_DOCUMENT_CODE_ACTION else default_result_type(method)

    client.protocol.get_result_type = result_type  # type: ignore[method-assign]
    client.applied_edits = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.registered = asyncio.Event()  # type: ignore[attr-defined]
    client.message_requests = []  # type: ignore[attr-defined]
    client.answer = None  # type: ignore[attr-defined]  # title to pick in showMessageRequest

    @client.feature(T.WORKSPACE_APPLY_EDIT)
    def on_apply_edit(
        ls: LanguageClient, params: T.ApplyWorkspaceEditParams
    ) -> T.ApplyWorkspaceEditResult:
        ls.applied_edits.append(params)  # type: ignore[attr-defined]
        try:
            apply_workspace_edit(params.edit)
        except Exception as exc:  # report like an editor would
            return T.ApplyWorkspaceEditResult(applied=False, failure_reason=str(exc))
        return T.ApplyWorkspaceEditResult(applied=True)

    @client.feature(T.CLIENT_REGISTER_CAPABILITY)
    def on_register(ls: LanguageClient, params: T.RegistrationParams) -> None:
        ls.registrations.extend(params.registrations)  # type: ignore[attr-defined]
        ls.registered.set()  # type: ignore[attr-defined]

    @client.feature(T.CLIENT_UNREGISTER_CAPABILITY)
    def on_unregister(ls: LanguageClient, params: T.UnregistrationParams) -> None:
        gone = {u.id for u in params.unregisterations}
        ls.registrations[:] = [r for r in ls.registrations if r.id not in gone]  # type: ignore[attr-defined]

    @client.feature(T.WINDOW_SHOW_MESSAGE_REQUEST)
    def on_message_request(
        ls: LanguageClient, params: T.ShowMessageRequestParams
    ) -> T.MessageActionItem | None:
        ls.message_requests.append(params)  # type: ignore[attr-defined]
        want = ls.answer  # type: ignore[attr-defined]
        for item in params.actions or ():
            if want is not None and want in item.title:
                return item
        return None

    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=client_factory)
TS2304 = SAMPLES / "typescript" / "tsc-plain-ts2304"
"""The workspace most modules serve: real `tsc -p .` output, one TS2304 error
in TS2304_FILE."""
TS2304_FILE = "src/auth/middleware.ts"


def capabilities(
    *, watch: bool = True, pull: bool = False, disabled: bool = True
) -> T.ClientCapabilities:
    """An editor like VS Code: edits, configuration, progress, dynamic watchers."""
    return T.ClientCapabilities(
        general=T.GeneralClientCapabilities(position_encodings=[T.PositionEncodingKind.Utf16]),
        workspace=T.WorkspaceClientCapabilities(
            apply_edit=True,
            workspace_edit=T.WorkspaceEditClientCapabilities(
                document_changes=True,
                resource_operations=[T.ResourceOperationKind.Create],
            ),
            configuration=True,
            did_change_configuration=T.DidChangeConfigurationClientCapabilities(
                dynamic_registration=False
            ),
            did_change_watched_files=T.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=watch, relative_pattern_support=True
            ),
            execute_command=T.ExecuteCommandClientCapabilities(),
            diagnostics=T.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
        ),
        text_document=T.TextDocumentClientCapabilities(
            synchronization=T.TextDocumentSyncClientCapabilities(),
            hover=T.HoverClientCapabilities(content_format=[T.MarkupKind.Markdown]),
            publish_diagnostics=T.PublishDiagnosticsClientCapabilities(
                related_information=True,
                code_description_support=True,
                data_support=True,
                version_support=True,
            ),
            code_action=T.CodeActionClientCapabilities(
                code_action_literal_support=T.ClientCodeActionLiteralOptions(
                    code_action_kind=T.ClientCodeActionKindOptions(
                        value_set=[T.CodeActionKind.QuickFix]
                    )
                ),
                is_preferred_support=True,
                disabled_support=disabled,
                data_support=True,
                resolve_support=T.ClientCodeActionResolveOptions(properties=["edit", "command"]),
            ),
            diagnostic=T.DiagnosticClientCapabilities() if pull else None,
        ),
        window=T.WindowClientCapabilities(
            work_done_progress=True,
            show_message=T.ShowMessageRequestClientCapabilities(),
        ),
    )


def copy_tree(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".faultlens", "__pycache__"))
    return dest


def workspace(
    lsp_client: LanguageClient,
    tmp_path_factory: pytest.TempPathFactory,
    sample: Path = TS2304,
    name: str = "app",
) -> Path:
    """A copy of `sample` in a fresh temp folder, kept as `lsp_client.root`."""
    root = copy_tree(sample, tmp_path_factory.mktemp("ws") / name)
    lsp_client.root = root  # type: ignore[attr-defined]
    return root


def ingest_sample(client: LanguageClient, sample: Path = TS2304, **fields: Any) -> None:
    """Send a sample's real output with `faultlens/ingest` (plus fields such as `task`)."""
    client.protocol.notify(
        "faultlens/ingest", {"output": (sample / "output.txt").read_text(), **fields}
    )


def served(
    *,
    settings: dict[str, Any] | None = None,
    init: dict[str, Any] | None = None,
    caps: T.ClientCapabilities | None = None,
    ingest: dict[str, Any] | None = None,
) -> Any:
    """A module's `client` fixture: one server on a copy of TS2304, started with
    these `start()` arguments and stopped after the module's last test; with
    `ingest`, the sample's output is sent (with those fields) and its
    diagnostics awaited first.  Use as `client = served(...)`; the tests then
    need `pytestmark = pytest.mark.asyncio(loop_scope="module")`."""

    @pytest_lsp.fixture(scope="module", config=CONFIG)
    async def client(
        lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
    ) -> AsyncIterator[None]:
        root = workspace(lsp_client, tmp_path_factory)
        await start(lsp_client, root, settings=settings, init=init, caps=caps)
        if ingest is not None:
            ingest_sample(lsp_client, **ingest)
            target = uri(root / TS2304_FILE)
            await until(lambda: lsp_client.diagnostics.get(target), what="diagnostics")
        yield
        await stop(lsp_client)

    return client


async def start(
    client: LanguageClient,
    root: Path,
    *,
    settings: dict[str, Any] | None = None,
    init: dict[str, Any] | None = None,
    caps: T.ClientCapabilities | None = None,
) -> float:
    """initialize + initialized; returns the initialize latency in seconds."""
    client.set_configuration(settings or {}, section="faultlens")
    began = time.monotonic()
    await asyncio.wait_for(
        client.initialize_session(
            T.InitializeParams(
                capabilities=caps or capabilities(),
                root_uri=uri(root),
                workspace_folders=[T.WorkspaceFolder(uri=uri(root), name=root.name)],
                initialization_options=init,
            )
        ),
        TIMEOUT,
    )
    return time.monotonic() - began


async def stop(client: LanguageClient) -> None:
    """Shut the server down; kill it if it does not answer."""
    try:
        await asyncio.wait_for(client.shutdown_session(), 5)
    except (TimeoutError, RuntimeError):
        if client._server is not None and client._server.returncode is None:
            client._server.kill()


async def hover(client: LanguageClient, line: int, character: int) -> T.Hover | None:
    """textDocument/hover in TS2304_FILE of the client's workspace."""
    root = client.root  # type: ignore[attr-defined]
    return await asyncio.wait_for(
        client.text_document_hover_async(
            T.HoverParams(
                text_document=T.TextDocumentIdentifier(uri=uri(root / TS2304_FILE)),
                position=T.Position(line=line, character=character),
            )
        ),
        TIMEOUT,
    )


async def until(
    predicate: Callable[[], Any], timeout: float = TIMEOUT, what: str = "condition"
) -> Any:
    """Poll `predicate` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def eventually(check: Callable[[], Any], timeout: float = TIMEOUT, what: str = "it") -> Any:
    """Await `check()` (a coroutine function) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def command(
    client: LanguageClient, name: str, args: dict[str, Any] | None = None, timeout: float = 60
) -> Any:
    params = T.ExecuteCommandParams(command=name, arguments=[args] if args is not None else None)
    return await asyncio.wait_for(client.workspace_execute_command_async(params), timeout)


async def request(
    client: LanguageClient, method: str, params: Any, timeout: float = TIMEOUT
) -> Any:
    return await asyncio.wait_for(client.protocol.send_request_async(method, params), timeout)


async def code_actions(
    client: LanguageClient, path: Path, rng: T.Range, diagnostics: Sequence[T.Diagnostic] = ()
) -> list[T.CodeAction]:
    """textDocument/codeAction, results structured like an editor reads them."""
    raw = await asyncio.wait_for(
        client.text_document_code_action_async(
            T.CodeActionParams(
                text_document=T.TextDocumentIdentifier(uri=uri(path)),
                range=rng,
                context=T.CodeActionContext(
                    diagnostics=list(diagnostics), only=[T.CodeActionKind.QuickFix]
                ),
            )
        ),
        TIMEOUT,
    )
    conv = client.protocol._converter
    out = []
    for item in raw or []:
        assert not isinstance(item.get("command"), str), f"bare Command {item}"
        out.append(conv.structure(item, T.CodeAction))
    return out


async def raw_request(client: LanguageClient, method: str, params: Any) -> Any:
    """A request sent as raw JSON (malformed on purpose: the client's types would refuse it)."""
    msg_id = str(uuid.uuid4())
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    client.protocol._request_futures[msg_id] = future
    client.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
    return await asyncio.wait_for(asyncio.wrap_future(future), TIMEOUT)


def logs(client: LanguageClient) -> str:
    return "\n".join(m.message for m in client.log_messages)
