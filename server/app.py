"""The faultlens language server: state, and the operations the handlers call.

`FaultLensServer` holds the settings, the failure store and the recipe
workspace; `server/assemble.py` builds one and registers the LSP features
(server/features.py) and the commands (server/commands.py), which build on
this module and never the reverse.  Everything that
can take time (classifying output, the recipe engine, the ledger) runs in a
worker thread with `asyncio.to_thread`, so hovers stay fast while a big output
is being classified.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import functools
import hashlib
import json
import logging
import os
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from cattrs import Converter
from lsprotocol import types as T
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest, JsonRpcParseError
from pygls.lsp.server import LanguageServer
from pygls.protocol import default_converter
from pygls.workspace import PositionCodec

from . import convert, placement, watch
from .ci_view import CIState
from .protocol import FaultLensProtocol
from .settings import Settings, parse_settings
from .store import Entry, FailureStore, TaskInfo

if TYPE_CHECKING:
    from faultlens.classifier.engine import Options
    from faultlens.classifier.record import FailureRecord
    from faultlens.classifier.structured import Recogniser
    from faultlens.recipes import Plan, Workspace
    from faultlens.recipes.confirm import Decided
    from faultlens.recipes.watch_board import WatchBoard

log = logging.getLogger(__name__)

VERSION = "0.1.0"
DISK_CACHE_FILES = 512  # files whose text is kept between publishes


@dataclass(slots=True)
class Classified:
    """What one classification produced."""

    records: list[FailureRecord]
    rule_errors: list[tuple[str, str]] = field(default_factory=list)
    secrets: set[str] = field(default_factory=set)  # named by scanners (the run log masks them)
    config_errors: list[str] = field(default_factory=list)  # the project config's, one line each


@dataclass(slots=True)
class PendingPlan:
    """A plan computed for codeAction/resolve, with the files as they were before it."""

    plan: Plan
    before: dict[Path, str | None]
    at: float = field(default_factory=time.monotonic)  # when it was computed (before any edit)
    # The files' bytes before the edit (workspace-relative), kept for a revert.
    raw: dict[str, bytes | None] = field(default_factory=dict)


_default_converter: Callable[[], Converter] = default_converter  # pygls leaves it untyped


def _converter() -> Converter:
    """pygls' converter, passing JSON-ready dicts (diagnostic `data`) through as
    they are, and reading enumerations leniently: a value this lsprotocol does
    not know (a newer client's `symbolKind.valueSet` 1..29) is kept as sent
    instead of failing the whole message, as LSP asks of both sides ("handle
    values outside its set gracefully")."""
    converter = _default_converter()
    converter.register_unstructure_hook(convert.JsonObject, lambda data: data)
    for name in dir(T):
        kind = getattr(T, name)
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            converter.register_structure_hook(kind, _lenient(kind))
    return converter


def _lenient(kind: type[enum.Enum]) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        try:
            return kind(value)
        except ValueError:
            return value

    return structure


class FaultLensServer(LanguageServer):
    """The language server; one instance per process."""

    def __init__(self) -> None:
        super().__init__(
            "faultlens", VERSION, protocol_cls=FaultLensProtocol, converter_factory=_converter
        )
        self.settings = Settings()
        self.init_options: dict[str, Any] = {}
        self.store = FailureStore()
        self.pull_mode = False
        self.pending: dict[str, PendingPlan] = {}
        self.ci = CIState()  # what faultlens.showCI published
        self.running: dict[str, asyncio.Event] = {}  # store task -> stop request
        self.running_task: dict[str, str | None] = {}  # store task -> the user's task
        self.run_requests: dict[Any, str] = {}  # request id of a faultlens.run -> store task
        self.watches: dict[str, WatchBoard] = {}  # store task -> a watcher being followed
        self.watch_registration: str | None = None
        self.watch_lock = asyncio.Lock()
        self.watching: tuple[tuple[str, ...], float] | None = None  # what is set up now
        self.ready = False  # `initialized` has run: requests to the client are allowed
        self.poll_task: asyncio.Task[None] | None = None
        self.background: set[asyncio.Task[Any]] = set()
        # The recipe command for one failure (server/commands.py sets it): what
        # auto-recover calls, so this module never imports the commands.
        self.recover_one: Callable[[str], Awaitable[Any]] | None = None
        self._ws: Workspace | None = None
        self._config_said: set[str] = set()  # config errors already shown to the user
        self._ws_key: tuple[Any, ...] | None = None
        # path -> ((mtime_ns, size), lines): the text of files that are not open
        self._disk_cache: dict[Path, tuple[tuple[int, int], list[str]]] = {}
        self._log_seq: dict[Path, int] = {}  # run log -> the latest write requested
        self._log_lock = threading.Lock()
        self._scratch: Path | None = None  # the state folder when the root does not exist

    # -- transport --------------------------------------------------------------
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on stdio with faultlens' reader (server/transport.py)."""
        from .serving import serve_io

        serve_io(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    def start_tcp(self, host: str, port: int) -> None:
        """pygls' TCP server has no authentication: use serving.serve_tcp."""
        raise RuntimeError("faultlens serves TCP only with a token (server/serving.py)")

    # -- workspace ------------------------------------------------------------
    @property
    def root(self) -> Path:
        """The main workspace root (the server's cwd when the client named none)."""
        try:
            folders = list(self.workspace.folders.values())
            if folders:
                path = convert.uri_to_path(folders[0].uri)
                if path is not None:
                    return path
            if self.workspace.root_path:
                return Path(self.workspace.root_path)
        except RuntimeError:
            pass
        return Path(os.getcwd())

    @property
    def roots(self) -> list[Path]:
        """Every workspace folder (the first is the main root)."""
        out = [self.root]
        try:
            for f in self.workspace.folders.values():
                p = convert.uri_to_path(f.uri)
                if p is not None and p not in out:
                    out.append(p)
        except RuntimeError:
            pass
        return out

    @property
    def state_dir(self) -> Path:
        """Where the state lives, as the Workspace vetted it: `<root>/.faultlens`
        (the stateDir setting), refused (`ws.state` raises) when a checkout
        linked it out of the workspace.  A root that does not exist is never
        created: the session's state then lives in a private temporary
        folder, removed at exit, and the user is told once."""
        path = self.recipe_workspace().state_dir
        assert path is not None
        return path

    def _configured_state(self) -> Path:
        """The state dir as configured, not resolved (the Workspace vets it)."""
        root = self.root
        if root.is_dir():
            return Path(os.path.abspath(root / self.settings.state_dir))
        return self._scratch_state(
            f"the workspace folder {root} does not exist; nothing is created there"
        )

    def _scratch_state(self, why: str) -> Path:
        """A private temporary folder for this session's state, removed at
        exit, when the workspace's cannot be used (`why`, said once)."""
        if self._scratch is None:
            import atexit
            import shutil
            import tempfile

            self._scratch = Path(tempfile.mkdtemp(prefix="faultlens-state-"))
            atexit.register(shutil.rmtree, self._scratch, ignore_errors=True)
            self.warn(
                f"faultlens: {why} (this session's state is kept in {self._scratch}, "
                "removed at exit)",
                show=True,
            )
        return self._scratch

    def recipe_workspace(self, *, rerun: Any = None) -> Workspace:
        """The recipe engine's view of the workspace (rebuilt when settings change).
        `rerun`: what stands for running a command again (a watcher's next
        cycle, `RecipeSettings.rerun`), for this one use."""
        from faultlens.recipes import RecipeSettings, Workspace

        if rerun is not None:
            base = self.recipe_workspace()
            return Workspace(
                roots=list(base.roots),
                state_dir=self.state_dir,
                settings=dataclasses.replace(base.settings, rerun=rerun),
            )

        s = self.settings
        configured = self._configured_state()
        key = (
            tuple(self.roots),
            configured,
            s.max_task_retries,
            s.infra_max_retries,
            s.verify_after_recipe,
        )
        if self._ws is None or key != self._ws_key:
            self._ws = Workspace(
                roots=self.roots,
                state_dir=configured,
                settings=RecipeSettings(
                    max_task_retries=s.max_task_retries,
                    infra_max_retries=s.infra_max_retries,
                    verify=s.verify_after_recipe,
                ),
            )
            self._ws_key = key
        return self._ws

    def recover_state(self, loop: asyncio.AbstractEventLoop) -> None:
        """At start: put back what a killed faultlens left half done (an apply,
        a rebase, scratch space, pending attempts), and from now on tell the
        user about state problems (through `loop`, the server's).  Blocking:
        run it in a thread."""
        from faultlens.recipes import statefs
        from faultlens.recipes.crash_restore import recover_state

        def tell(message: str) -> None:
            loop.call_soon_threadsafe(lambda: self.warn(f"faultlens: {message}", show=True))

        statefs.set_reporter(tell)
        recover_state(self.recipe_workspace())

    # -- messages ---------------------------------------------------------------
    def info(self, message: str) -> None:
        """Tell the client what the server did (window/logMessage)."""
        log.info("%s", message)
        self.window_log_message(T.LogMessageParams(type=T.MessageType.Info, message=message))

    def warn(self, message: str, *, show: bool = False) -> None:
        log.warning("%s", message)
        self.window_log_message(T.LogMessageParams(type=T.MessageType.Warning, message=message))
        if show:
            self.window_show_message(
                T.ShowMessageParams(type=T.MessageType.Warning, message=message)
            )

    def crashed(self, what: str, exc: BaseException) -> None:
        """A crash in a rule, a recipe or a handler: logged, and the server goes on."""
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        log.error("%s failed", what, exc_info=exc)
        self.window_log_message(
            T.LogMessageParams(
                type=T.MessageType.Error, message=f"faultlens: {what} failed: {detail}"
            )
        )

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message the reader cannot take (not JSON, or JSON that is no JSON-RPC
        message) gets JSON-RPC's error answer and a log line, not pygls' default
        "Error in server" pop-up in the user's editor; other out-of-band errors
        keep the default."""
        if source is JsonRpcException:  # raised while reading: the message itself is bad
            if isinstance(error, json.JSONDecodeError | UnicodeDecodeError):
                code, what = JsonRpcParseError.CODE, "Parse error"
            else:
                code, what = JsonRpcInvalidRequest.CODE, "Invalid Request"
            log.warning("faultlens: %s: %s", what, error)
            protocol = self.protocol
            if isinstance(protocol, FaultLensProtocol):
                protocol.send_unreadable(code, f"{what}: {str(error)[:200]}")
            return
        super().report_server_error(error, source)

    def spawn(self, coro: Any, what: str) -> asyncio.Task[Any]:
        """Run a coroutine in the background; a crash is logged, never lost."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.background.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self.background.discard(t)
            if not t.cancelled() and (exc := t.exception()) is not None:
                self.crashed(what, exc)

        task.add_done_callback(done)
        return task

    def on_cancel_request(self, msg_id: Any) -> None:
        """$/cancelRequest of a running faultlens.run: stop its command."""
        key = self.run_requests.get(msg_id)
        if key is not None and key in self.running:
            self.running[key].set()

    # -- settings ---------------------------------------------------------------
    def apply_settings(self, raw: Any, *, base: Settings | None = None) -> list[str]:
        """Take new settings; returns the problems (already shown to the user)."""
        settings, problems = parse_settings(raw, base or self.settings)
        old = self.settings
        self.settings = settings
        for p in problems:
            self.warn(p, show=True)
        if (
            old.watch_globs != settings.watch_globs
            or old.watch_poll_interval != settings.watch_poll_interval
        ):
            self.spawn(self.setup_watching(), "watching log files")
        return problems

    def supports(self, path: str) -> bool:
        return bool(get_capability(self.client_capabilities, path, False))

    # -- documents ------------------------------------------------------------------
    def text_of(self, path: Path) -> tuple[Sequence[str], PositionCodec, int | None]:
        """The lines, codec and version of a file: the open document, else the disk."""
        uri = convert.path_to_uri(path)
        doc = self.workspace.text_documents.get(uri)
        if doc is not None:
            return doc.lines, doc.position_codec, doc.version
        return self._disk_lines(path), self.workspace.position_codec, None

    def _disk_lines(self, path: Path) -> list[str]:
        """A file's lines as on disk, re-read only when its size or mtime changed
        (each publish needs the text of every file that shows a failure).
        Only a regular file inside the workspace roots, of bounded size, is
        read (a failure can name any path); else there are no lines, and the
        failure is shown at its line without a range."""
        try:
            st = path.stat()
        except (OSError, ValueError):
            self._disk_cache.pop(path, None)
            return []
        stamp = (st.st_mtime_ns, st.st_size)
        cached = self._disk_cache.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        from faultlens.classifier.files import inside, text_or_none

        real = inside(path, self.roots)
        text = None if real is None else text_or_none(real)
        if text is None:
            return []
        lines = text.splitlines(keepends=True)
        if len(self._disk_cache) >= DISK_CACHE_FILES:
            self._disk_cache.pop(next(iter(self._disk_cache)))
        self._disk_cache[path] = (stamp, lines)
        return lines

    # -- classification ---------------------------------------------------------------
    def options(
        self,
        *,
        cwd: Path,
        task: str | None,
        command: Any,
        exit_code: int | None,
        log_file: str | None,
    ) -> Options:
        from faultlens.classifier.engine import Options

        return Options(
            cwd=str(cwd), task=task, command=command, exit_code=exit_code, log_file=log_file
        )

    @staticmethod
    def classify_stream(stream: IO[bytes], options: Options) -> Classified:
        """Classify a whole stream (structured or text).  Blocking."""
        from faultlens.classifier.structured import Recogniser

        c = Recogniser(options)
        while data := stream.read(1 << 20):
            c.feed(data)
        return Classified(c.close(), list(c.rule_errors), c.secrets, list(c.config_errors))

    @staticmethod
    def finish(c: Recogniser) -> Classified:
        return Classified(c.close(), list(c.rule_errors), c.secrets, list(c.config_errors))

    def place_all(self, records: Sequence[FailureRecord], cwd: Path) -> list[Entry]:
        """Decide where each record is shown.  Blocking (reads config files)."""
        root = self.root
        out = []
        for r in records:
            try:
                where = placement.place(r, cwd, root)
            except Exception as exc:
                self.crashed(f"placing {r.id}", exc)
                where = None
            out.append(Entry(record=r, task="", cwd=cwd, placement=where))
        return out

    async def take(
        self,
        store_task: str,
        result: Classified,
        cwd: Path,
        info: TaskInfo,
        *,
        write_log: Callable[[], None] | None = None,
        partial: bool = False,
        source: str | None = None,
    ) -> list[Entry]:
        """Replace a task's failures with a new classification and publish.

        `source` (the command and folder, or the log, that produced them):
        only the task's failures from that same source are replaced.
        `partial`: the run did not finish (stopped, cancelled, timed out), so
        what it found is added and nothing it did not re-check is cleared.
        `write_log` saves the run's output (redacted) after publishing, so the
        diagnostics do not wait for it; a failure shown on its output line is
        placed without reading the log (convert.whole_line)."""
        for rule_id, error in result.rule_errors:
            self.window_log_message(
                T.LogMessageParams(
                    type=T.MessageType.Warning, message=f"faultlens: rule {rule_id} failed: {error}"
                )
            )
        for problem in result.config_errors:  # a bad project rule: said once, the rest classify
            if problem not in self._config_said:
                self._config_said.add(problem)
                self.warn(f"faultlens: {problem}", show=True)
        entries = await asyncio.to_thread(self.place_all, result.records, cwd)
        for e in entries:
            e.task = store_task
            e.source = source or ""
        if partial:
            touched = self.store.merge(store_task, entries, info)
        else:
            touched = self.store.replace(store_task, entries, info, source=source)
        self.publish(touched)
        if write_log is not None:
            self.spawn(asyncio.to_thread(write_log), "saving the run log")
        self.spawn(self._record(info, result.records), "ledger and event log")
        files = {e.placement.path for e in entries if e.placement}
        self.info(f"faultlens: {store_task}: {len(entries)} failure(s) in {len(files)} file(s)")
        fixable = [e.record.id for e in entries if e.record.auto_recoverable is True]
        if self.settings.auto_recover and fixable:
            self.spawn(self.auto_recover(fixable), "auto-recover")
        return entries

    async def auto_recover(self, failure_ids: Sequence[str]) -> None:
        """The one automatic attempt for each fixable failure, one after the other
        (two fixes never edit the same file at once), through the recipe command
        that server/commands.py registered (`self.recover_one`)."""
        recover = self.recover_one
        if recover is None:
            return
        for fid in failure_ids:
            if self.store.get(fid) is None:
                continue  # gone meanwhile (a re-run, a previous fix)
            try:
                await recover(fid)
            except Exception as exc:
                self.crashed(f"automatic recipe for {fid}", exc)

    async def _record(self, info: TaskInfo, records: Sequence[FailureRecord]) -> None:
        for d in await asyncio.to_thread(self.record_run, info, records):
            self.info(f"faultlens: {d.state} {d.failure_id} (the fix applied earlier): {d.reason}")

    def record_run(self, info: TaskInfo, records: Sequence[FailureRecord]) -> list[Decided]:
        """The run in the shared ledger (CLI `status` sees it) and `failure.classified`
        events; the fixes applied earlier that nothing verified, decided by this run
        or ingest (recipes/confirm.py).  Blocking."""
        from faultlens.recipes import Ledger
        from faultlens.recipes.observe import RunRecorder

        ws = self.recipe_workspace()
        # One recording for every run (recipes/observe.py): its row with the
        # tree state it ended on, the events, history; a fix applied earlier
        # with nothing to verify it: this run or ingest decides.
        cwd = info.cwd if info.cwd is not None else self.root
        recorder = RunRecorder(
            ws, task=info.task, command=info.argv, cwd=cwd, ledger=Ledger.open(ws)
        )
        # Copies are stamped and stored: the store's records are placed against
        # the root (`root_relative`), where a stamped cwd would count twice.
        stored = [dataclasses.replace(r, hint=dict(r.hint)) for r in records]
        return recorder.finish(info.exit_code, stored)

    def rel_cwd(self, cwd: Path | None) -> str | None:
        """A run's cwd relative to the root (what the recipe engine wants)."""
        if cwd is None:
            return None
        rel = watch.relative(cwd, self.root)
        return None if rel is None else (rel or ".")

    def root_relative(self, entry: Entry) -> FailureRecord:
        """The record with its source file relative to the root (for recipe calls that
        take no cwd)."""
        rec = entry.record
        if not rec.source_file or entry.cwd == self.root:
            return rec
        rel = watch.relative(placement.resolve(rec.source_file, entry.cwd), self.root)
        return rec if rel is None else dataclasses.replace(rec, source_file=rel)

    def command_of(self, store_task: str) -> tuple[list[str] | None, str | None]:
        """The command (and root-relative cwd) that produced a task's failures."""
        info = self.store.tasks.get(store_task)
        if info is None:
            return None, None
        return info.argv, self.rel_cwd(info.cwd)

    def run_log(self, store_task: str) -> Path:
        """Where a run's output is kept (the log line a location-less failure
        points at): named by a hash of the store key, so two keys never share
        a log (`make a`, `make-a`) and the name shows nothing of the command.
        Its folder is made without following a symlink a checkout left."""
        from faultlens.recipes import StateUnavailable, statefs
        from faultlens.recipes.events import unwritable

        ws = self.recipe_workspace()
        try:
            return statefs.ensure_dirs(ws.state, "runs") / run_log_name(store_task)
        except (OSError, StateUnavailable) as exc:
            unwritable(ws, exc)  # and never the vetted path: it may lead out of the workspace
            scratch = self._scratch_state(f"run logs cannot be kept in {ws.state_dir}")
            return statefs.ensure_dirs(scratch, "runs") / run_log_name(store_task)

    def log_writer(
        self, path: Path, data: bytes, vault: set[str] | None = None
    ) -> Callable[[], None]:
        """A function saving `data` (redacted: the log on disk never holds a
        secret, nor one its classification's scanners named: `vault`) as the
        run log `path`.  Of two writes of the same log, only the latest
        requested lands, whichever runs first.  Blocking."""
        seq = self._log_seq[path] = self._log_seq.get(path, 0) + 1

        def write() -> None:
            from faultlens.classifier.logredact import LogRedactor
            from faultlens.recipes import StateUnavailable, statefs
            from faultlens.recipes.events import unwritable

            scrub = LogRedactor(vault or ())
            text = scrub.feed(data) + scrub.close()
            ws = self.recipe_workspace()
            with self._log_lock:
                if self._log_seq.get(path) == seq:
                    try:  # never through a symlink a checkout left under runs/
                        rel = path.relative_to(ws.state).as_posix()
                        statefs.write_state(ws.state, rel, text, durable=False)
                    except (OSError, ValueError, StateUnavailable) as exc:
                        unwritable(ws, exc)

        return write

    # -- diagnostics -----------------------------------------------------------------
    def diagnostics_for(
        self, path: Path, entries: Sequence[Entry] | None = None, hrefs: Hrefs | None = None
    ) -> tuple[list[T.Diagnostic], int | None]:
        """The diagnostics of one file and the version they are for."""
        found, version = self.diagnostics_json(path, entries, hrefs)
        structure = convert.structure_diagnostic
        return [structure(d) for d in found], version

    def diagnostics_json(
        self, path: Path, entries: Sequence[Entry] | None = None, hrefs: Hrefs | None = None
    ) -> tuple[list[convert.JsonObject], int | None]:
        """The diagnostics of one file as JSON, and the version they are for."""
        if entries is None:
            entries = self.store.for_path(path)
        if not entries:
            return [], None
        lines: Sequence[str]
        if all(e.placement and e.placement.kind == "log" for e in entries):
            lines, codec, version = [], self.workspace.position_codec, None  # not needed
            doc = self.workspace.text_documents.get(convert.path_to_uri(path))
            if doc is not None:
                version = doc.version
        else:
            lines, codec, version = self.text_of(path)
        if not lines:
            deepest = max(e.placement.line for e in entries if e.placement)
            lines = ["\n"] * (deepest + 1)
        hrefs = self.recipe_hrefs() if hrefs is None else hrefs
        out = []
        for e in entries:
            try:
                href = hrefs[e.record.failure_type]
                out.append(
                    convert.diagnostic_json(
                        e,
                        lines,
                        codec,
                        recipe_href=href,
                        task_in_source=self.settings.task_in_source,
                    )
                )
            except Exception as exc:
                self.crashed(f"diagnostic for {e.record.id}", exc)
        return out, version

    def recipe_hrefs(self) -> Hrefs:
        """Each failure type's recipe link, computed on first use (for one publish)."""
        return Hrefs(self.state_dir / "recipes")

    def publish(self, paths: set[Path] | Sequence[Path]) -> None:
        """Push (or, in pull mode, ask the client to pull) the diagnostics of these files."""
        if self.pull_mode:
            if self.supports("workspace.diagnostics.refresh_support"):
                self.spawn(self.workspace_diagnostic_refresh_async(None), "diagnostic refresh")
            return
        by_path = self.store.by_path(paths)
        hrefs = self.recipe_hrefs()
        for path in paths:
            diags, version = self.diagnostics_json(path, by_path.get(path, []), hrefs)
            params = convert.JsonObject(uri=convert.path_to_uri(path), diagnostics=diags)
            if version is not None:
                params["version"] = version
            # sent as built (protocol.get_message_type): no lsprotocol round trip
            self.protocol.notify(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

    def entries_at(self, uri: str, rng: T.Range) -> list[tuple[Entry, T.Diagnostic]]:
        """The failures whose diagnostic range touches `rng` (lines) in a document."""
        path = convert.uri_to_path(uri)
        if path is None:
            return []
        entries = self.store.for_path(path)
        if not entries:
            return []
        lines, codec, _ = self.text_of(path)
        hrefs = self.recipe_hrefs()
        out = []
        for e in entries:
            d = convert.diagnostic(
                e,
                lines or ["\n"],
                codec,
                recipe_href=hrefs[e.record.failure_type],
                task_in_source=self.settings.task_in_source,
            )
            if d.range.start.line <= rng.end.line and d.range.end.line >= rng.start.line:
                out.append((e, d))
        return out

    # -- watched files --------------------------------------------------------------
    async def setup_watching(self) -> None:
        """Register the watch globs with the client, or poll them ourselves."""
        async with self.watch_lock:
            wanted = (tuple(self.settings.watch_globs), self.settings.watch_poll_interval)
            if wanted == self.watching:
                return
            await self._setup_watching()
            self.watching = wanted

    async def _setup_watching(self) -> None:
        globs = list(self.settings.watch_globs)
        if self.supports("workspace.did_change_watched_files.dynamic_registration"):
            if self.watch_registration is not None:
                await self.client_unregister_capability_async(
                    T.UnregistrationParams(
                        unregisterations=[
                            T.Unregistration(
                                id=self.watch_registration,
                                method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            )
                        ]
                    )
                )
                self.watch_registration = None
            if not globs:
                return
            reg_id = f"faultlens-watch-{uuid.uuid4()}"
            relative = self.supports("workspace.did_change_watched_files.relative_pattern_support")
            root_uri = convert.path_to_uri(self.root)
            watchers = [
                T.FileSystemWatcher(
                    glob_pattern=T.RelativePattern(base_uri=root_uri, pattern=g) if relative else p,
                    kind=T.WatchKind.Create | T.WatchKind.Change | T.WatchKind.Delete,
                )
                for g, p in zip(globs, watch.watcher_patterns(globs), strict=True)
            ]
            # every deletion (a failure shown in a deleted file is cleared)
            watchers.append(
                T.FileSystemWatcher(
                    glob_pattern=T.RelativePattern(base_uri=root_uri, pattern="**/*")
                    if relative
                    else "**/*",
                    kind=T.WatchKind.Delete,
                )
            )
            await self.client_register_capability_async(
                T.RegistrationParams(
                    registrations=[
                        T.Registration(
                            id=reg_id,
                            method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=T.DidChangeWatchedFilesRegistrationOptions(
                                watchers=watchers
                            ),
                        )
                    ]
                )
            )
            self.watch_registration = reg_id
            self.info(f"faultlens: watching {', '.join(globs)} (client-side)")
            return
        if self.poll_task is not None:
            self.poll_task.cancel()
            self.poll_task = None
        if globs and self.settings.watch_poll_interval > 0:
            self.poll_task = self.spawn(self.poll(), "polling log files")
            self.info(f"faultlens: watching {', '.join(globs)} (polling)")

    async def poll(self) -> None:
        """Classify matching files that appear or change (clients that cannot watch)."""
        globs = list(self.settings.watch_globs)
        seen = await asyncio.to_thread(watch.scan, self.root, globs)
        for path in seen:
            await self.log_file_changed(path)
        while True:
            await asyncio.sleep(self.settings.watch_poll_interval)
            now = await asyncio.to_thread(watch.scan, self.root, globs)
            changed, deleted = watch.diff(seen, now)
            seen = now
            for path in changed:
                await self.log_file_changed(path)
            for path in deleted:
                self.log_file_deleted(path)
            self.files_gone([p for p in self.store.paths() if not p.exists()])

    def log_task(self, path: Path) -> tuple[str, str]:
        rel = watch.relative(path, self.root) or str(path)
        return f"log:{rel}", rel

    async def log_file_changed(self, path: Path) -> None:
        """Classify a watched file (paths in it resolve from the workspace root)."""
        store_task, rel = self.log_task(path)
        opts = self.options(cwd=self.root, task=None, command=None, exit_code=None, log_file=rel)

        def work() -> Classified:
            from faultlens.classifier.files import open_stream

            with open_stream(path) as fh:  # a FIFO or device named like a log: refused
                return self.classify_stream(fh, opts)

        try:
            result = await asyncio.to_thread(work)
        except OSError as exc:
            self.warn(f"faultlens: cannot read {rel}: {exc.strerror or exc}")
            return
        await self.take(store_task, result, self.root, TaskInfo(log_path=path))

    def files_gone(self, paths: Sequence[Path]) -> None:
        """Files (or folders) deleted or renamed: the failures shown in them are
        cleared (a rename's new name gets failures again from the next run)."""
        if not paths:
            return
        touched = self.store.remove_paths(paths)
        if touched:
            self.publish(touched)
            self.info(f"faultlens: cleared {len(touched)} file(s) that were deleted or renamed")

    def follow_edits(self, path: Path, changes: Sequence[Any]) -> bool:
        """Move the failures shown in `path` with the user's edits (until the
        next run replaces them); whether any moved."""
        from .tracking import moved

        entries = [
            e for e in self.store.for_path(path) if e.placement and e.placement.kind != "log"
        ]
        ranged = [c for c in changes if getattr(c, "range", None) is not None]
        if not entries or not ranged:
            return False
        changed = False
        for e in entries:
            assert e.placement is not None
            before = e.placement
            for c in ranged:
                start = (c.range.start.line, c.range.start.character)
                end = (c.range.end.line, c.range.end.character)
                e.placement = moved(e.placement, start, end, c.text)
            changed = changed or e.placement != before
        return changed

    def log_file_deleted(self, path: Path) -> None:
        store_task, _ = self.log_task(path)
        self.publish(self.store.remove_task(store_task))

    async def classify_document(self, uri: str) -> None:
        """An opened log file: classify its text (paths resolve from the root)."""
        path = convert.uri_to_path(uri)
        doc = self.workspace.text_documents.get(uri)
        if path is None or doc is None:
            return
        store_task, rel = self.log_task(path)
        opts = self.options(cwd=self.root, task=None, command=None, exit_code=None, log_file=rel)
        data = doc.source.encode("utf-8", "surrogatepass")

        def work() -> Classified:
            import io

            return self.classify_stream(io.BytesIO(data), opts)

        result = await asyncio.to_thread(work)
        await self.take(store_task, result, self.root, TaskInfo(log_path=path))


def run_log_name(store_task: str) -> str:
    """`<16 hex digits>.log`: the first 64 bits of the key's SHA-256."""
    return hashlib.sha256(store_task.encode("utf-8", "surrogatepass")).hexdigest()[:16] + ".log"


def is_log_document(uri: str, root: Path, state_dir: Path | None = None) -> bool:
    """An opened document classified as output: a *.log file inside the workspace,
    except faultlens' own (saved run output, the seed's session logs)."""
    path = convert.uri_to_path(uri)
    if path is None or path.suffix.lower() != ".log":
        return False
    if state_dir is not None:
        for own in ("runs", "logs"):
            if watch.relative(path, state_dir / own) is not None:
                return False
    return watch.relative(path, root) is not None


class Hrefs(dict[str, "str | None"]):
    """failure type -> its recipe link: the project's override in
    `<state dir>/recipes/` when there is one, else the packaged document."""

    def __init__(self, overrides: Path) -> None:
        super().__init__()
        self.overrides = overrides

    def __missing__(self, failure_type: str) -> str | None:
        override = self.overrides / f"{failure_type}.md"
        href = (
            convert.path_to_uri(override)
            if override.is_file()
            else _packaged_recipe_href(failure_type)
        )
        self[failure_type] = href
        return href


@functools.lru_cache(maxsize=64)
def _packaged_recipe_href(failure_type: str) -> str | None:
    """The installed recipe document's URI (looked up once per type: it is on
    every diagnostic, and importlib.resources is slow)."""
    try:
        from importlib.resources import files

        path = Path(str(files("faultlens.recipes") / f"{failure_type}.md"))
    except (ImportError, TypeError):
        return None
    return convert.path_to_uri(path) if path.is_file() else None


Handler = Callable[..., Any]
