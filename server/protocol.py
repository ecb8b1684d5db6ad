"""faultlens' own messages: command arguments, `faultlens/ingest`, `faultlens/failures`.

Command arguments and custom params are validated with pydantic models
(camelCase on the wire, snake_case accepted); a bad payload becomes a JSON-RPC
*Invalid Params* error and the server keeps serving.  The protocol subclass
also answers a request whose params cannot be read at all with an error
response (pygls would otherwise drop it and the client would wait forever).
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from typing import Any, Literal, TypeVar

import attrs
from cattrs.errors import ClassValidationError
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCRequestMessage

log = logging.getLogger(__name__)

INGEST = "faultlens/ingest"
FAILURES = "faultlens/failures"
# server -> client notification: the branch's last CI run failed (server/ci_offer.py)
CI_FAILED = "faultlens/ciFailed"
PUBLISH_DIAGNOSTICS = "textDocument/publishDiagnostics"

CMD_RUN = "faultlens.run"
CMD_APPLY = "faultlens.applyRecipe"
CMD_RETRY = "faultlens.retryTask"
CMD_SKIP = "faultlens.skipTask"
CMD_STOP = "faultlens.stopTask"
CMD_CLEAR = "faultlens.clear"
CMD_CONFLICT = "faultlens.acceptConflict"
CMD_REVIEWED = "faultlens.markReviewed"
CMD_REVERT = "faultlens.revertFix"
CMD_CI = "faultlens.showCI"
COMMANDS = (
    CMD_RUN,
    CMD_APPLY,
    CMD_RETRY,
    CMD_SKIP,
    CMD_STOP,
    CMD_CLEAR,
    CMD_CONFLICT,
    CMD_REVIEWED,
    CMD_REVERT,
    CMD_CI,
)


class _Args(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class RunArgs(_Args):
    """`faultlens.run`: a command (argv list, or a string split with shlex) or a settings name.

    `watch`: true follows the command as a watcher (published per cycle, the
    request answered at once), false runs it to its end; unset: a watcher when
    the command names one (`tsc --watch`).  `begin` / `end`: regular
    expressions for this watcher's cycle banners (as VS Code's background
    problem matchers' beginsPattern / endsPattern)."""

    command: list[str] | str | None = None
    name: str | None = None
    cwd: str | None = None
    task: str | None = None
    watch: bool | None = None
    begin: str | None = Field(default=None, max_length=1000)
    end: str | None = Field(default=None, max_length=1000)


class CIArgs(_Args):
    """`faultlens.showCI`: a CI run, job, pull request or pipeline URL; none:
    the latest run of the workspace's branch on its origin remote."""

    url: str | None = Field(default=None, max_length=2000)


class IngestArgs(_Args):
    """`faultlens/ingest`: output captured by the client (a terminal, a task)."""

    output: str
    command: list[str] | str | None = None
    cwd: str | None = None
    exit_code: int | None = None
    task: str | None = None


class FailureArgs(_Args):
    """Commands acting on one failure (by record id)."""

    failure_id: str = Field(validation_alias=AliasChoices("failureId", "failure_id", "id"))
    edit_applied: bool = False


class TaskArgs(_Args):
    """retry / skip / stop a task."""

    task: str
    failure_id: str | None = Field(
        default=None, validation_alias=AliasChoices("failureId", "failure_id", "id")
    )


class ClearArgs(_Args):
    """`faultlens.clear`: one task, or everything."""

    task: str | None = None


class ConflictArgs(_Args):
    """`faultlens.acceptConflict`: the hunk at `line` (0-based) of `uri`."""

    uri: str
    line: int = Field(ge=0)
    choice: Literal["current", "incoming", "both"]


class RecipeActionData(_Args):
    """`data` of a recipe code action (resolved lazily)."""

    kind: Literal["recipe"]
    failure_id: str


class ReviewActionData(_Args):
    """`data` of a trust_gate "mark reviewed" code action."""

    kind: Literal["review"]
    failure_id: str


class ConflictActionData(_Args):
    """`data` of an "accept current / incoming / both" code action."""

    kind: Literal["conflict"]
    uri: str
    line: int = Field(ge=0)
    choice: Literal["current", "incoming", "both"]


class ActionData(_Args):
    """What a code action being resolved carries back (the client may have
    changed it: it is validated like any other params)."""

    data: RecipeActionData | ReviewActionData | ConflictActionData = Field(discriminator="kind")


class FailuresParams(_Args):
    """`faultlens/failures` filters."""

    task: str | None = None
    uri: str | None = None


M = TypeVar("M", bound=BaseModel)

ACTION_KINDS = ("recipe", "review", "conflict")


def parse_action_data(data: Any) -> RecipeActionData | ReviewActionData | ConflictActionData:
    """A resolved code action's `data`, or an Invalid Params error."""
    return parse_args(ActionData, {"data": data}).data


def invalid(message: str) -> Exception:
    """The Invalid Params error a command raises for arguments it cannot use."""
    return JsonRpcInvalidParams(message)


def parse_args(model: type[M], args: tuple[Any, ...] | Any) -> M:
    """The first command argument (or the params) as `model`, or an Invalid Params error."""
    if isinstance(args, tuple):
        value: Any = args[0] if args else {}
    else:
        value = args if args is not None else {}
    if hasattr(value, "_asdict"):  # an untyped pygls Object
        value = value._asdict()
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "arguments"
        raise JsonRpcInvalidParams(f"{where}: {first['msg']}") from None


@attrs.define
class RawNotification:
    """A notification whose params stay plain JSON (validated by the handler)."""

    method: str
    params: Any = None
    jsonrpc: str = "2.0"


@attrs.define
class BuiltNotification:
    """An outgoing notification whose params the server built as JSON itself
    (publishDiagnostics): sent as they are.  No defaults: the converter leaves
    out fields equal to their default, and `jsonrpc` must always be sent."""

    method: str
    params: Any
    jsonrpc: str


@attrs.define
class RawRequest:
    """A request whose params stay plain JSON (validated by the handler)."""

    id: int | str
    method: str
    params: Any = None
    jsonrpc: str = "2.0"


@attrs.define
class _Dropped:
    """An unreadable message already answered; `handle_message` ignores it."""

    jsonrpc: str = "dropped"


REQUEST_ID: ContextVar[int | str | None] = ContextVar("faultlens_request_id", default=None)


_KEPT_KEYS = frozenset({"newText", "uri", "targetUri", "jsonrpc", "method"})


def shown_message(value: Any, key: str | None = None) -> Any:
    """A JSON message with every string redacted but those of `_KEPT_KEYS`."""
    from faultlens.classifier.redact import COMMAND_KEYS, scrub

    if isinstance(value, dict):
        return {k: v if k in _KEPT_KEYS else shown_message(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return scrub(value) if key in COMMAND_KEYS else [shown_message(v) for v in value]
    return scrub(value) if isinstance(value, str) else value


class FaultLensProtocol(LanguageServerProtocol):
    """The LSP protocol plus raw custom messages, errors for unreadable requests, and
    `$/cancelRequest` reaching commands that are already running (pygls 2.1 only
    cancels a request that has not started)."""

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        token = REQUEST_ID.set(msg_id)  # handlers started from here see their request id
        try:
            super()._handle_request(msg_id, method_name, params)
        finally:
            REQUEST_ID.reset(token)

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        super()._handle_cancel_notification(msg_id)
        on_cancel = getattr(self._server, "on_cancel_request", None)
        if on_cancel is not None:
            on_cancel(msg_id)

    def _send_data(self, data: Any) -> None:
        """Every message leaves through the redactor (the server's one sink):
        diagnostics, hovers, listings, command results, log and show messages,
        progress titles, whoever built them.  Text edits' new text is the
        user's file content and is kept as it is."""
        if data:
            data = shown_message(json.loads(json.dumps(data, default=self._serialize_message)))
        super()._send_data(data)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Dropped):  # answered already; pygls would warn of it
            return
        super().handle_message(message)

    def send_unreadable(self, code: int, message: str) -> None:
        """JSON-RPC's answer to a message that cannot be read (Parse error for one
        that is not JSON, Invalid Request for one that is no JSON-RPC message),
        which pygls does not send.  The id is null: it is unknown, and it has to be
        there, so this is built as plain JSON."""
        self._send_data({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}})

    def get_message_type(self, method: str) -> type[Any] | None:  # type: ignore[override]
        if method == INGEST:
            return RawNotification
        if method == FAILURES:
            return RawRequest
        if method == PUBLISH_DIAGNOSTICS:  # outgoing only: the server builds the JSON itself
            return BuiltNotification
        return super().get_message_type(method)

    def structure_message(self, data: dict[str, Any]) -> Any:
        if _is_request(data):
            # A request is structured here, not by pygls, which logs the whole
            # cattrs traceback (pages for `"hover": true` in the capabilities)
            # before it raises: a malformed request is one warning line and an
            # error answer.
            kind = self.get_message_type(data["method"]) or JsonRPCRequestMessage
            try:
                return self._converter.structure(data, kind)
            except Exception as exc:
                invalid = isinstance(exc, ClassValidationError | TypeError | ValueError)
                why = _why(exc)
                error = (
                    JsonRpcInvalidParams(f"Invalid Params: {why}")
                    if invalid
                    else (JsonRpcInternalError())
                )
                log.warning(
                    "malformed %s request answered with an error: %s", data["method"][:100], why
                )
                self._send_response(data["id"], error=error.to_response_error())
                return _Dropped()
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                log.warning("malformed %s request answered with an error", data.get("method"))
                self._send_response(data["id"], error=exc.to_response_error())
                return _Dropped()
            raise


def _is_request(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and "jsonrpc" in data
        and "id" in data
        and "error" not in data
        and isinstance(data.get("method"), str)
    )


def _why(exc: BaseException) -> str:
    """Where and why a (cattrs) structuring failed, in one line: the attributes
    down to the first bad value (`params.capabilities.text_document.hover`)."""
    path: list[str] = []
    while True:
        for note in getattr(exc, "__notes__", ()):
            if isinstance(note, str) and " @ attribute " in note:
                path.append(note.rpartition(" @ attribute ")[2])
        if not (isinstance(exc, BaseExceptionGroup) and exc.exceptions):
            break
        exc = exc.exceptions[0]
    reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    return f"{'.'.join(path)}: {reason}" if path else reason
