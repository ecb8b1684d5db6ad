"""The language server's state, in one object, and what every part of it
builds on: the workspace (roots, the state folder, the recipe workspace),
messages to the user, background tasks, and the text of files.

The server is one class made in layers, each building on the one before
and never the reverse: this state (`ServerState`), publishing diagnostics
(server/publishing.py), classifying output (server/classifying.py), watched
and opened log files (server/watched_files.py), and `FaultLensServer`
(server/app.py) on top."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import json
import logging
import os
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cattrs import Converter
from lsprotocol import types as T
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest, JsonRpcParseError
from pygls.lsp.server import LanguageServer
from pygls.protocol import default_converter
from pygls.workspace import PositionCodec

from . import convert
from .ci_view import CIState
from .protocol import FaultLensProtocol
from .settings import Settings
from .store import FailureStore

if TYPE_CHECKING:
    from faultlens.recipes import Plan, Workspace
    from faultlens.recipes.watch_board import WatchBoard

# The server's log keeps the name it had before the server was split into layers.
log = logging.getLogger("faultlens.server.app")

VERSION = "0.1.0"
DISK_CACHE_FILES = 512  # files whose text is kept between publishes


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


class ServerState(LanguageServer):
    """The server's state and the operations every layer uses."""

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
