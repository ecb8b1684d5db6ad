"""LSP feature handlers: thin, each calls the server's operations or pure functions.

Notification handlers are guarded: a crash is reported with window/logMessage
and the server keeps serving.  Request handlers raise, and pygls turns the
exception into an error response.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from lsprotocol import types as T

from . import actions, ci_offer, convert
from . import protocol as P
from .app import VERSION, FaultLensServer, is_log_document

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
# workspace/didDeleteFiles and didRenameFiles of every file and folder: a
# failure shown in a file that is gone is cleared.
FILE_OPERATIONS = T.FileOperationRegistrationOptions(
    filters=[T.FileOperationFilter(pattern=T.FileOperationPattern(glob="**/*"))]
)


def guarded(what: str) -> Callable[[F], F]:
    """For notification handlers: log a crash and go on."""

    def deco(fn: F) -> F:
        @functools.wraps(fn)
        async def wrapper(ls: FaultLensServer, params: Any) -> Any:
            try:
                return await fn(ls, params)
            except Exception as exc:
                ls.crashed(what, exc)
                return None

        return wrapper  # type: ignore[return-value]

    return deco


def register(server: FaultLensServer) -> None:
    """Register every LSP feature on `server`."""

    @server.feature(T.INITIALIZE)
    def initialize(ls: FaultLensServer, params: T.InitializeParams) -> None:
        raw = params.initialization_options
        ls.init_options = raw if isinstance(raw, dict) else {}
        ls.apply_settings(ls.init_options)
        wants_pull = ls.settings.diagnostic_mode == "pull"
        can_pull = params.capabilities.text_document is not None and (
            params.capabilities.text_document.diagnostic is not None
        )
        if wants_pull and can_pull:
            ls.pull_mode = True
            register_pull(ls)
        advertise_file_operations(params.capabilities)

    @server.feature(T.INITIALIZED)
    @guarded("initialized")
    async def initialized(ls: FaultLensServer, params: T.InitializedParams) -> None:
        if getattr(ls.protocol, "client_capabilities", None) is None:
            # `initialized` after an `initialize` that was answered with an error
            # (or never sent): there is nothing to start; one line, no traceback.
            log.warning("`initialized` without a successful `initialize`: ignored")
            return
        if ls.supports("workspace.configuration"):
            await fetch_configuration(ls)
        ls.ready = True
        await ls.setup_watching()
        ls.spawn(asyncio.to_thread(ls.recover_state, asyncio.get_running_loop()), "recovery")
        ls.spawn(asyncio.to_thread(warm_up), "warm-up")
        ls.spawn(ci_offer.offer(ls), "ci-offer")
        mode = "pull" if ls.pull_mode else "push"
        ls.info(f"faultlens {VERSION}: root {ls.root}, {mode} diagnostics, state {ls.state_dir}")

    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded("didChangeConfiguration")
    async def did_change_configuration(
        ls: FaultLensServer, params: T.DidChangeConfigurationParams
    ) -> None:
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get("faultlens"), dict):
            ls.apply_settings(settings["faultlens"])
        elif ls.supports("workspace.configuration"):
            await fetch_configuration(ls)
        ls.info("faultlens: settings updated")

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    @guarded("didOpen")
    async def did_open(ls: FaultLensServer, params: T.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        if is_log_document(uri, ls.root, ls.state_dir):
            await ls.classify_document(uri)
            return
        path = convert.uri_to_path(uri)
        if path is not None and ls.store.for_path(path):
            ls.publish([path])  # now in the client's encoding and document version

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    @guarded("didChange")
    async def did_change(ls: FaultLensServer, params: T.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if is_log_document(uri, ls.root, ls.state_dir):
            await ls.classify_document(uri)
            return
        path = convert.uri_to_path(uri)
        if path is not None and ls.follow_edits(path, params.content_changes):
            ls.publish([path])  # the failures moved with the edit, until the next run

    @server.feature(T.WORKSPACE_DID_DELETE_FILES, FILE_OPERATIONS)
    @guarded("didDeleteFiles")
    async def did_delete_files(ls: FaultLensServer, params: T.DeleteFilesParams) -> None:
        ls.files_gone([p for f in params.files if (p := convert.uri_to_path(f.uri))])

    @server.feature(T.WORKSPACE_DID_RENAME_FILES, FILE_OPERATIONS)
    @guarded("didRenameFiles")
    async def did_rename_files(ls: FaultLensServer, params: T.RenameFilesParams) -> None:
        ls.files_gone([p for f in params.files if (p := convert.uri_to_path(f.old_uri))])

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    @guarded("didClose")
    async def did_close(ls: FaultLensServer, params: T.DidCloseTextDocumentParams) -> None:
        path = convert.uri_to_path(params.text_document.uri)
        if path is not None and ls.store.for_path(path):
            ls.publish([path])  # positions now computed from the disk text

    @server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded("didChangeWatchedFiles")
    async def did_change_watched(
        ls: FaultLensServer, params: T.DidChangeWatchedFilesParams
    ) -> None:
        from .watch import matches, relative

        deleted = [
            p
            for c in params.changes
            if c.type == T.FileChangeType.Deleted and (p := convert.uri_to_path(c.uri))
        ]
        ls.files_gone(deleted)
        for change in params.changes:
            path = convert.uri_to_path(change.uri)
            rel = relative(path, ls.root) if path else None
            if path is None or rel is None or not matches(rel, ls.settings.watch_globs):
                continue
            if change.type == T.FileChangeType.Deleted:
                ls.log_file_deleted(path)
            else:
                await ls.log_file_changed(path)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(ls: FaultLensServer, params: T.HoverParams) -> T.Hover | None:
        pos = params.position
        found = ls.entries_at(params.text_document.uri, T.Range(start=pos, end=pos))
        found = [(e, d) for e, d in found if _contains(d.range, pos)] or found
        if not found:
            return None
        # The same failure reported by several tasks is explained once.
        found = list({e.record.id: (e, d) for e, d in reversed(found)}.values())[::-1]
        ws = ls.recipe_workspace()
        texts = await asyncio.to_thread(lambda: [hover_text(ls, e.record, ws) for e, _ in found])
        from .ci_view import hover_header

        for i, (e, _) in enumerate(found):  # a CI job's failure: which job, which run
            header = hover_header(ls, e.task)
            if header:
                texts[i] = f"{header}\n\n{texts[i]}"
        return T.Hover(
            contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value="\n\n---\n\n".join(texts)),
            range=found[0][1].range,
        )

    @server.feature(
        T.TEXT_DOCUMENT_CODE_ACTION,
        T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix], resolve_provider=True),
    )
    async def code_action(ls: FaultLensServer, params: T.CodeActionParams) -> list[T.CodeAction]:
        uri = params.text_document.uri
        found = {e.record.id: (e.record, e.task, d) for e, d in ls.entries_at(uri, params.range)}
        for d in params.context.diagnostics:  # what the client shows, if we lost it
            rec = convert.record_from_data(d.data) if convert.is_ours(d.source) else None
            if rec is not None and rec.id not in found:
                entry = ls.store.get(rec.id)
                found[rec.id] = (entry.record if entry else rec, entry.task if entry else "", d)
        disabled_ok = ls.supports("text_document.code_action.disabled_support")
        ws = ls.recipe_workspace()
        out: list[T.CodeAction] = []
        for rec, store_task, diag in found.values():
            try:
                argv, rel = ls.command_of(store_task)
                offer = await asyncio.to_thread(actions.offer, rec, store_task, ws, argv, rel)
            except Exception as exc:
                ls.crashed(f"recipe for {rec.failure_type} {rec.id}", exc)
                continue
            out += actions.build(offer, diag, disabled_support=disabled_ok)
        out += await conflict_actions(ls, uri, params.range.start.line)
        return out

    @server.feature(T.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: FaultLensServer, action: T.CodeAction) -> T.CodeAction:
        data = actions.action_data(action)
        if data is None:  # Neovim resolves any action without an edit
            return action
        from .commands import resolve_action

        return await resolve_action(ls, action, data)

    @server.feature(P.INGEST)
    @guarded("faultlens/ingest")
    async def ingest(ls: FaultLensServer, params: Any) -> None:
        from .tasks import ingest_output

        args = P.parse_args(P.IngestArgs, params)
        await ingest_output(ls, args)

    @server.feature(P.FAILURES)
    def failures(ls: FaultLensServer, params: Any) -> dict[str, Any]:
        args = P.parse_args(P.FailuresParams, params)
        entries = ls.store.entries()
        if args.task is not None:
            entries = [e for e in entries if e.task == args.task or e.record.task == args.task]
        if args.uri is not None:
            path = convert.uri_to_path(args.uri)
            entries = [e for e in entries if e.placement and e.placement.path == path]
        return {"failures": [convert.listing(e) for e in entries]}

    @server.feature(T.SHUTDOWN)
    def shutdown(ls: FaultLensServer, params: Any) -> None:
        for stop in ls.running.values():
            stop.set()
        if ls.poll_task is not None:
            ls.poll_task.cancel()


def advertise_file_operations(caps: T.ClientCapabilities) -> None:
    """Offer didDeleteFiles / didRenameFiles to every client.  pygls advertises
    a file operation only when the client declares it, but the `initialize`
    answer must not depend on that (server/fast_init.py answers from a static
    snapshot); a client that does not send them loses nothing.  Called before
    pygls builds the capabilities from these (the client's own) capabilities;
    nothing else reads `workspace.fileOperations`."""
    if caps.workspace is None:
        caps.workspace = T.WorkspaceClientCapabilities()
    ops = caps.workspace.file_operations or T.FileOperationClientCapabilities()
    ops.did_delete = ops.did_rename = True
    caps.workspace.file_operations = ops


def warm_up() -> None:
    """Import the classifier and the recipe engine in a worker thread after start-up,
    so `initialize` is answered before they load and the first run does not wait."""
    import faultlens.classifier.detectors
    import faultlens.classifier.engine
    import faultlens.classifier.record
    import faultlens.classifier.record_schema
    import faultlens.classifier.rules.registry
    import faultlens.recipes

    faultlens.classifier.rules.registry.compile_patterns()  # loads the rules, then their regexes
    faultlens.classifier.detectors.finder()  # the secret forms (a run's key is redacted)
    # The validators of the records a client echoes back (convert.record_from_data)
    # are built on first use (record_schema.py: defer_build).
    schema = faultlens.classifier.record_schema
    for model in (schema.FailureRecord, schema.Location, schema.Triage):
        model.model_rebuild()
    del faultlens


def _contains(rng: T.Range, pos: T.Position) -> bool:
    start, end = rng.start, rng.end
    after_start = (pos.line, pos.character) >= (start.line, start.character)
    before_end = (pos.line, pos.character) <= (end.line, end.character)
    return after_start and before_end


def hover_text(ls: FaultLensServer, record: Any, ws: Any) -> str:
    """The hover of one failure.  Blocking (recipe doc, ledger)."""
    from faultlens.recipes import Ledger, availability, recipe_doc

    summary = attempts = retries = box = None
    try:
        summary = recipe_doc(record.failure_type, ws).summary
    except Exception as exc:
        ls.crashed(f"recipe doc {record.failure_type}", exc)
    try:
        avail = availability(record, ws)
        attempts = avail.attempts
        retries = f"Task retries: {avail.task_retries_used} of {avail.max_task_retries} used"
    except Exception as exc:
        ls.crashed("ledger lookup", exc)
    seen = None
    try:
        from faultlens.recipes import history

        found = history.history(Ledger.open(ws), record.id)
        seen = history.describe(found) if found.times > 1 or found.flaky else None
    except Exception as exc:
        ls.crashed("history lookup", exc)
    try:
        from faultlens.recipes.team.sync import team_history

        team = team_history(ws, [record.id]).get(record.id)
        if team is not None:  # the team's: every runner, every clone
            seen = (
                f"{seen}; the team: {team.describe()}" if seen else f"the team: {team.describe()}"
            )
    except Exception as exc:
        ls.crashed("team history lookup", exc)
    # The settled outcome, from the ledger: a fix the editor applied that a terminal
    # run then confirmed reads recovered here too (never a stale in-memory outcome).
    state = None
    try:
        rows = Ledger.open(ws).history(record.id, limit=1)
    except Exception as exc:
        ls.crashed("ledger lookup", exc)
        rows = []
    if rows and rows[0].state != "pending":
        state = rows[0].state
        stored = (rows[0].outcome or {}).get("box")
        box = stored if state == "escalated" and isinstance(stored, str) else None
    return convert.hover_markdown(
        record,
        summary=summary,
        attempts=attempts,
        box=box,
        retries=retries,
        history=seen,
        state=state,
    )


async def conflict_actions(ls: FaultLensServer, uri: str, line: int) -> list[T.CodeAction]:
    """accept current / incoming / both on a conflict hunk under the cursor."""
    doc = ls.workspace.text_documents.get(uri)
    path = convert.uri_to_path(uri)
    if doc is None or path is None or "<<<<<<<" not in doc.source:
        return []
    from faultlens.recipes import conflict_hunks

    try:
        hunks = conflict_hunks(str(path), doc.source)
    except Exception as exc:
        ls.crashed("conflict hunks", exc)
        return []
    return actions.conflict_actions(uri, hunks, line)


async def fetch_configuration(ls: FaultLensServer) -> None:
    """Read the "faultlens" section (initializationOptions stay the base)."""
    from .settings import parse_settings

    result = await ls.workspace_configuration_async(
        T.ConfigurationParams(items=[T.ConfigurationItem(section="faultlens")])
    )
    raw = result[0] if result else None
    base, _ = parse_settings(ls.init_options)
    ls.apply_settings(raw if raw is not None else {}, base=base)


def register_pull(ls: FaultLensServer) -> None:
    """Pull diagnostics (textDocument/diagnostic and workspace/diagnostic)."""

    @ls.feature(
        T.TEXT_DOCUMENT_DIAGNOSTIC,
        T.DiagnosticOptions(
            identifier="faultlens", inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )
    def document_diagnostic(
        ls: FaultLensServer, params: T.DocumentDiagnosticParams
    ) -> T.FullDocumentDiagnosticReport:
        path = convert.uri_to_path(params.text_document.uri)
        items = ls.diagnostics_for(path)[0] if path else []
        return T.FullDocumentDiagnosticReport(items=items)

    @ls.feature(T.WORKSPACE_DIAGNOSTIC)
    def workspace_diagnostic(
        ls: FaultLensServer, params: T.WorkspaceDiagnosticParams
    ) -> T.WorkspaceDiagnosticReport:
        items: list[
            T.WorkspaceFullDocumentDiagnosticReport | T.WorkspaceUnchangedDocumentDiagnosticReport
        ] = []
        for path in sorted(ls.store.paths()):
            diags, version = ls.diagnostics_for(path)
            items.append(
                T.WorkspaceFullDocumentDiagnosticReport(
                    uri=convert.path_to_uri(path), version=version, items=diags
                )
            )
        return T.WorkspaceDiagnosticReport(items=items)
