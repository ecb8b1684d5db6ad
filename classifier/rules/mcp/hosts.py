"""MCP rules for the clients that host servers: VS Code, Cursor, Claude Code."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext, lines_above, match_above
from ..registry import rule
from .common import LOOK_BACK, PRIORITY, stage

_VSCODE_START = lazy_compile(r"\[info\] Starting server (?P<server>.+?)\s*$")


@rule(
    id="mcp.vscode",
    category=FailureType.MCP_STARTUP,
    tool="vscode-mcp",
    pattern=(
        r"\[(?:info|error)\] (?:Connection state: Error (?P<message>.+)"
        r"|(?P<exited>Server exited before responding to `initialize` request\.?))\s*$"
    ),
    triggers=("Connection state: Error", "Server exited before responding"),
    url="https://code.visualstudio.com/docs/copilot/customization/mcp-servers#_troubleshoot-and-debug-mcp-servers",
    priority=PRIORITY,
)
def vscode(m: re.Match[str], ctx: LineContext) -> Hit:
    """VS Code's MCP output channel reporting a server that failed to start.

    What it detects: `[info] Connection state: Error <reason>` and `[error]
    Server exited before responding to `initialize` request.`; the server's
    name comes from the `[info] Starting server NAME` line before it.  Both
    lines of one failure make one record.

    Example output (VS Code "MCP: ado" output channel; documented format):
        2025-06-13 16:51:00.111 [info] Connection state: Error Process exited with code 243
        2025-06-13 16:51:00.112 [error] Server exited before responding to `initialize` request.

    Recipe: mcp_startup: restart the server once from its .vscode/mcp.json
    entry; then skip it with a warning on that entry.

    References: https://code.visualstudio.com/docs/copilot/customization/mcp-servers
    """
    server = None
    for line in lines_above(ctx, LOOK_BACK):
        s = _VSCODE_START.search(line)
        if s and not s.group("server").startswith("from "):
            server = s.group("server")
            break
    message = (m.group("message") or m.group("exited") or "").strip()
    exit_code = re.search(r"exited with code (\d+)", message)
    hint: dict[str, object] = {"stage": stage(message)}
    if server:
        hint["server"] = server
    if exit_code:
        hint["exit_code"] = int(exit_code.group(1))
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        hint=hint,
        key=("mcp.vscode", server or ""),
    )


_CURSOR_COMMAND = lazy_compile(r"Starting new stdio process with command: (?P<cmd>.+?)\s*$")


@rule(
    id="mcp.cursor",
    category=FailureType.MCP_STARTUP,
    tool="cursor-mcp",
    pattern=(
        r"\[error\] ?(?P<prefix>[^:\s]*): (?:Error in MCP: (?P<closed>.+?)"
        r"|Failed to reload client: (?P<reload>.+?)|Client error for command (?P<client>.+?))\s*$"
    ),
    triggers=("Error in MCP: ", "Failed to reload client: ", "Client error for command"),
    url="https://docs.cursor.com/context/model-context-protocol",
    priority=PRIORITY + 1,
)
def cursor(m: re.Match[str], ctx: LineContext) -> Hit:
    """Cursor's MCP log reporting a server that closed or failed to start.

    What it detects: `[error] <name>: Error in MCP: Client closed`,
    `[error] <name>: Failed to reload client: MCP error -32000: Connection
    closed` and `Client error for command ...` in Cursor's MCP log.  The
    prefix is a shortened server name, so the server is found from the
    command of the `Starting new stdio process with command: ...` line
    before it; repeated reload cycles of one command are one record.

    Example output (Cursor's "MCP Logs" output; documented format):
        2025-04-08 11:16:16.790 [error] rmcp: Error in MCP: Client closed

    Recipe: mcp_startup: retry the server once from its .cursor/mcp.json
    entry; then skip it with a warning on that entry.

    References: https://docs.cursor.com/context/model-context-protocol
    """
    c = match_above(ctx, _CURSOR_COMMAND, LOOK_BACK, search=True)
    command = c.group("cmd") if c else None
    message = (m.group("closed") or m.group("reload") or m.group("client") or "").strip()
    hint: dict[str, object] = {"stage": stage(message), "log_prefix": m.group("prefix")}
    if command:
        hint["mentions"] = [w for w in command.split() if w not in ("cmd", "/c")]
        hint["command_line"] = command
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        hint=hint,
        key=("mcp.cursor", command or m.group("prefix")),
    )


_CLAUDE_PATTERNS = (
    lazy_compile(r'Connection to MCP server "(?P<server>[^"]+)" timed out after (?P<ms>\d+)ms'),
    lazy_compile(r'MCP server "(?P<server>[^"]+)"[:,]? (?P<message>.*)$'),
    lazy_compile(
        r"^\s*(?P<server>[^\s:][^:]*): (?P<command>.+?) - ✗ (?P<message>Failed to connect)"
    ),
    lazy_compile(r"Failed to reconnect to (?P<server>[^\s.][^\s]*?)\.?\s*$"),
    lazy_compile(r"\[MCP\] (?:[Ss]erver )?[\"']?(?P<server>[\w@./-]+?)[\"']?:? (?P<message>.+)$"),
)
_FAILED = lazy_compile(r"fail|error|timed out|closed|exited|crash|refused|disconnect", re.I)
_STDERR_TRACE = lazy_compile(r"^Server stderr: (?:Traceback \(most recent call last\)|\S+:\d+$)")
# The lines of a relayed traceback or stack: indented frames and code, the
# exception line, a chained traceback's header.
_TRACE_LINE = lazy_compile(
    r"^(?:\s+\S|Traceback \(|During handling|The above exception|[\w.]*(?:Error|Exception|Exit)\b)"
)
_PY_FRAME = lazy_compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')
_JS_FRAME = lazy_compile(r"^\s+at (?:.*? \()?(?P<file>[^\s()]+?):(?P<line>\d+):\d+\)?\s*$")
_LIBRARY_PATH = ("site-packages", "node_modules", "<frozen", "node:", "/lib/python")


@rule(
    id="mcp.host",
    category=FailureType.MCP_STARTUP,
    tool="mcp-host",
    pattern=(
        r'MCP server "[^"]+"'
        r"|✗ Failed to connect"
        r"|Failed to reconnect to \S"
        r"|\[MCP\] \S"
    ),
    triggers=('MCP server "', "✗ Failed to connect", "Failed to reconnect to ", "[MCP] "),
    url="https://code.claude.com/docs/en/mcp",
    priority=PRIORITY,
)
def host(m: re.Match[str], ctx: LineContext) -> Hit | _ServerStderr | None:
    """An MCP host (Claude Code and hosts in its style) naming a server that
    failed to start or connect.

    What it detects: `claude mcp list`'s `NAME: COMMAND - ✗ Failed to
    connect`, `Connection to MCP server "NAME" timed out after 5000ms`,
    `MCP server "NAME" failed to start` / `MCP server "NAME": Connection
    failed ...`, `[MCP] Server "NAME": Connection failed ...`, `Failed to
    reconnect to NAME.`.  A line naming a server
    without a failure word ("MCP server "x": connected") is not a failure.
    The server's own crash relayed by the host (`MCP server "NAME" Server
    stderr: Traceback ...` and the traceback's lines) is read as that
    server's failure: its last frame in the project is a related location
    and its exception the signal, never a compile failure of its own.  All
    a server's lines are one record.

    Example output (`claude mcp list`; documented format):
        tickets: node servers/tickets.js - ✗ Failed to connect

    Recipe: mcp_startup: retry the named server once, then skip it with a
    warning on its entry in .mcp.json.

    References: https://code.claude.com/docs/en/mcp
    """
    line = ctx.line
    for pattern in _CLAUDE_PATTERNS:
        found = pattern.search(line)
        if found is None:
            continue
        groups = found.groupdict()
        message = (groups.get("message") or line).strip()
        if groups.get("message") and _STDERR_TRACE.search(message):
            return _ServerStderr(groups["server"].strip(), ctx.line_no)  # its own crash follows
        if not _FAILED.search(message) and not groups.get("ms"):
            return None
        server = groups["server"].strip()
        hint: dict[str, object] = {"server": server, "stage": stage(line)}
        if groups.get("ms"):
            hint["timeout_ms"] = int(groups["ms"])
        # Claude Code's debug log tells one failure twice ([DEBUG] "Connection
        # failed after 7ms: X", then [ERROR] "Connection failed: X"): one a server
        return Hit(signal=line.strip(), message=line.strip(), hint=hint, key=("mcp.host", server))
    return None


_STREAM_FAILED = lazy_compile(r'\{"name":"(?P<server>[^"]+)","status":"failed"\}')


@rule(
    id="mcp.claude_init",
    category=FailureType.MCP_STARTUP,
    tool="claude-code",
    pattern=r'"mcp_servers":\[.*?\{"name":"[^"]+","status":"failed"\}',
    triggers=('","status":"failed"}',),
    url="https://code.claude.com/docs/en/headless",
    priority=PRIORITY,
)
def claude_init(m: re.Match[str], ctx: LineContext) -> Block:
    """Claude Code's headless `system`/`init` event listing an MCP server
    that failed to start.

    What it detects: the `"mcp_servers":[{"name":"notes","status":"failed"}, ...]`
    list of the first event of `claude -p --output-format stream-json
    --verbose` (and of the SDK's init message): one record for each server
    whose status is `failed` (a `connected` or `pending` one is not a
    failure).

    Example output (`claude -p "list my notes" --mcp-config mcp.json --output-format stream-json --verbose`, Claude Code 2.1.197):
        {"type":"system","subtype":"init",...,"mcp_servers":[{"name":"notes","status":"failed"},{"name":"tickets","status":"failed"}],...}

    Recipe: mcp_startup: restart each failed server once from its entry in
    the MCP config; then skip it with a warning on that entry.

    References: https://code.claude.com/docs/en/headless, https://code.claude.com/docs/en/mcp
    """
    servers = [s.group("server") for s in _STREAM_FAILED.finditer(ctx.line)]
    hits = [
        Hit(
            signal=f'MCP server "{name}" failed to start (Claude Code init: status "failed")',
            hint={"server": name, "stage": "start"},
            log_line=ctx.line_no,
            key=("mcp.host", name),
        )
        for name in servers
    ]
    return _Ready(hits)


class _Ready:
    """A block whose hits are all known from its first line (one record a
    server named in one event)."""

    max_lines = 1

    def __init__(self, hits: list[Hit]) -> None:
        self.hits = hits

    def feed(self, line: str, line_no: int) -> bool:
        return False

    def finish(self) -> list[Hit]:
        return self.hits


class _ServerStderr:
    """A server's crash as its host relays it: the traceback or stack on the
    lines after `MCP server "NAME" Server stderr: ...`."""

    max_lines = 200

    def __init__(self, server: str, line_no: int) -> None:
        self.server, self.line_no = server, line_no
        self.frame: tuple[str, int] | None = None
        self.error = ""

    def feed(self, line: str, line_no: int) -> bool:
        if not _TRACE_LINE.search(line):
            return False
        frame = _PY_FRAME.search(line) or _JS_FRAME.search(line)
        if frame and not any(lib in frame.group("file") for lib in _LIBRARY_PATH):
            if (
                frame.re.pattern == _PY_FRAME.pattern or self.frame is None
            ):  # Python: the last; JS: the first
                self.frame = (frame.group("file"), int(frame.group("line")))
        elif not line[:1].isspace() and not line.startswith(("Traceback", "During", "The above")):
            self.error = line.strip()
        return True

    def finish(self) -> list[Hit]:
        error = self.error or "the server crashed"
        hint: dict[str, object] = {"server": self.server, "stage": "exited", "crash": error[:500]}
        related: list[tuple[str, int | None, int | None, str]] = []
        if self.frame:
            related.append((self.frame[0], self.frame[1], None, error[:300]))
        hit = Hit(
            signal=f'MCP server "{self.server}" crashed at start: {error}'[:500],
            hint=hint,
            related=related,
            log_line=self.line_no,
            key=("mcp.host", self.server),
        )
        return [hit]
