"""MCP rule for Codex CLI: the servers of `[mcp_servers.NAME]` in its
config.toml that did not start, as `codex exec` reports them."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, lines_above
from ..registry import rule
from .common import LOOK_BACK, PRIORITY, stage
from .hosts import _JS_FRAME, _LIBRARY_PATH, _PY_FRAME

_REQUIRED = lazy_compile(
    r"required MCP servers failed to initialize: (?P<failures>.+?)(?: \(code -?\d+\))?$"
)
_STARTUP = lazy_compile(
    r'MCP server startup failed server_name="(?P<server>[^"]+)" error=(?P<error>.+)$'
)
_SHUTDOWN = lazy_compile(
    r"failed to initialize MCP client during shutdown: MCP startup failed: (?P<error>.+)$"
)
# the server's stderr as codex-rmcp-client relays it, a line at a time
_STDERR = lazy_compile(r"MCP server stderr \((?P<command>[^)]*)\): (?P<text>.*)$")
# `name: error` pairs of the required servers, joined by "; " (codex-rs/core)
_FAILURE = lazy_compile(r"(?P<server>[\w.@-]+): (?P<error>.+?)(?=; [\w.@-]+: |$)")


class _Servers:
    """The records of the servers one line names (no line after it is theirs)."""

    max_lines = 1

    def __init__(self, hits: list[Hit], line_no: int) -> None:
        for h in hits:
            h.log_line = line_no
        self.hits = hits

    def feed(self, line: str, line_no: int) -> bool:
        return False

    def finish(self) -> list[Hit]:
        return self.hits


def _reason(error: str) -> str:
    low = error.lower()
    if "no such file or directory" in low or "not found" in low:
        return "not-found"
    return stage(error)


def _crash(ctx: LineContext) -> tuple[str | None, tuple[str, int] | None]:
    """The server's crash relayed on its stderr lines just above: its
    exception line and its last frame in the project."""
    error: str | None = None
    frame: tuple[str, int] | None = None
    seen = False
    for line in lines_above(ctx, LOOK_BACK):
        found = _STDERR.search(line)
        if found is None:
            if seen:
                break  # the relayed lines are over
            continue
        seen = True
        text = found.group("text")
        where = _PY_FRAME.search(text) or _JS_FRAME.search(text)
        if where:
            if frame is None and not any(lib in where.group("file") for lib in _LIBRARY_PATH):
                frame = (where.group("file"), int(where.group("line")))
        elif error is None and text and not text[:1].isspace() and "^" not in text:
            error = text.strip()
    return error, frame


def _hit(ctx: LineContext, server: str, error: str, *, crash: bool) -> Hit:
    hint: dict[str, object] = {"server": server, "stage": _reason(error), "error": error[:300]}
    related: list[tuple[str, int | None, int | None, str]] = []
    signal = f'MCP server "{server}" failed to start: {error}'
    if crash:
        exc, frame = _crash(ctx)
        if exc:
            hint["crash"] = exc[:500]
            signal = f'MCP server "{server}" crashed at start: {exc}'
        if frame:
            related.append((frame[0], frame[1], None, (exc or error)[:300]))
    return Hit(
        signal=signal[:500],
        message=ctx.line.strip()[:500],
        hint=hint,
        related=related,
        key=("mcp.codex", server),
    )


@rule(
    id="mcp.codex",
    category=FailureType.MCP_STARTUP,
    tool="codex",
    pattern=(
        r"required MCP servers failed to initialize: "
        r'|MCP server startup failed server_name="'
        r"|failed to initialize MCP client during shutdown: MCP startup failed: "
    ),
    triggers=(
        "required MCP servers failed to initialize: ",
        "MCP server startup failed server_name=",
        "MCP client during shutdown: MCP startup failed: ",
    ),
    url="https://developers.openai.com/codex/mcp",
    priority=PRIORITY,
)
def codex(m: re.Match[str], ctx: LineContext) -> Hit | _Servers | None:
    """An MCP server configured for Codex CLI that did not start.

    What it detects: `codex exec`'s `Failed to create session: required MCP
    servers failed to initialize: NAME: ERROR` (a server with `required =
    true`: the session is not created, exit 1; told twice, as the log's
    ERROR and as the command's `Error: thread/start: …`), and with
    `RUST_LOG` at warn for codex_mcp the log's `MCP server startup failed
    server_name="NAME" error=ERROR` (a server that is not required: the
    session goes on without it and exits 0) and its `failed to initialize
    MCP client during shutdown: MCP startup failed: ERROR` (the same
    failure again, the server unnamed).  `No such file or directory (os
    error 2)` is a command that is not there; `handshaking with MCP server
    failed: connection closed: initialize response` a server that exited
    before it answered `initialize`: its stderr, relayed just above as
    `MCP server stderr (COMMAND): …` at RUST_LOG info, gives its exception
    and its last frame in the project (a related location).

    Example output (`codex exec "look up the EUR rate"`, Codex CLI 0.171.0, a required server not installed):
        Error: thread/start: thread/start failed: error creating thread: Fatal error: Failed to initialize session: required MCP servers failed to initialize: ledger-docs: No such file or directory (os error 2) (code -32603)

    Recipe: mcp_startup: retry the named server once, then skip it with a
    warning on its `[mcp_servers.NAME]` table in config.toml (install the
    command, fix its import).

    References: https://developers.openai.com/codex/mcp, https://developers.openai.com/codex/config-reference
    """
    line = ctx.line.rstrip()
    startup = _STARTUP.search(line)
    if startup:
        return _hit(ctx, startup.group("server"), startup.group("error").strip(), crash=True)
    shutdown = _SHUTDOWN.search(line)
    if shutdown:
        # the server's startup failure told again, unnamed: the one above with that error
        error = shutdown.group("error").strip()
        for above in lines_above(ctx, LOOK_BACK):
            named = _STARTUP.search(above)
            if named and named.group("error").strip() == error:
                return _hit(ctx, named.group("server"), error, crash=False)
        return None
    required = _REQUIRED.search(line)
    if required is None:
        return None
    hits = [
        _hit(ctx, f.group("server"), f.group("error").strip(), crash=False)
        for f in _FAILURE.finditer(required.group("failures"))
    ]
    if len(hits) > 1:
        return _Servers(hits, ctx.line_no)  # a record per server
    return hits[0] if hits else None
