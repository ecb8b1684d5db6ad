"""MCP server start-up and handshake failures, as the MCP SDKs (Python,
TypeScript) and the clients that host servers (Claude Code, VS Code) print
them.

The record names the server in `hint["server"]` when the output does; when
it does not (an SDK exception), `hint["mentions"]` keeps what the output said
about it (script file names in the stack, host:port) so that
`classifier.mcpconfig.place_records` can find the server's entry in
`.mcp.json`, `.vscode/mcp.json` or `.cursor/mcp.json` and put the record
there.

Precedence: these rules run before the generic network rules of the infra
family (PRIORITY > infra's), so "connection refused" while an MCP client
connects is mcp_startup, not infra; outside an MCP client's output they
return None and the infra rules see the line.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..taxonomy import FailureType
from .base import Hit, LineContext, match_above
from .registry import rule

PRIORITY = 60
_SPEC = "https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle"
_LOOK_BACK = 90

# Lines that show we are inside an MCP client's output.
_CONTEXT = (
    "mcp/client/",
    "mcp/shared/",
    "mcp\\client\\",
    "@modelcontextprotocol/sdk",
    "MCP server",
    "MCP error",
    "[MCP]",
)
_SCRIPT = re.compile(r"[\w.~/\\-]*?([\w.-]+\.(?:py|js|mjs|cjs|ts))\b")
_SCRIPT_EXTS = (".py", ".js", ".mjs", ".cjs", ".ts")
_HOSTPORT = re.compile(r"\b((?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-fA-F:]+\]):\d{2,5})\b")
_LIBRARY = ("site-packages", "node_modules", "<frozen", "node:internal", "/lib/python", "Node.js v")


def _in_mcp_client(ctx: LineContext) -> bool:
    # one search per marker in the joined lines (no marker holds a newline,
    # so none is found across two lines)
    text = "\n".join(ctx.before(_LOOK_BACK))
    return any(marker in text for marker in _CONTEXT)


def _mentions(ctx: LineContext) -> list[str]:
    """Script names and host:port pairs in the lines before this one (library
    frames left out): what the output says about which server failed."""
    found: list[str] = []
    lines = (*ctx.before(_LOOK_BACK), ctx.line)
    # _SCRIPT is slow on long lines it cannot match: try it only where an
    # extension it needs is present; _HOSTPORT only where a ':' is (first
    # asked of all the lines at once: most look-backs hold neither)
    text = "\n".join(lines)
    scripts = any(e in text for e in _SCRIPT_EXTS)
    ports = ":" in text
    for line in lines:
        if (
            scripts
            and any(e in line for e in _SCRIPT_EXTS)
            and not any(lib in line for lib in _LIBRARY)
        ):
            found.extend(_scripts_in(line) if len(line) <= 1024 else _find_scripts(line))
        if ports and ":" in line:
            found.extend(m.group(1) for m in _HOSTPORT.finditer(line))
    return list(dict.fromkeys(found))


def _find_scripts(line: str) -> tuple[str, ...]:
    """The script names _SCRIPT finds in a line."""
    return tuple(m.group(1) for m in _SCRIPT.finditer(line))


# Cached for lines of up to 1,024 characters (pure: its lazy prefix makes it
# slow, and the same stack frames repeat from one failed start to the next).
_scripts_in = lru_cache(maxsize=2048)(_find_scripts)


def _sdk_hit(ctx: LineContext, message: str, sdk: str, **extra: object) -> Hit:
    hint: dict[str, object] = {"mentions": _mentions(ctx), "stage": _stage(message)}
    hint.update(extra)
    return Hit(signal=ctx.line.strip(" |"), message=message, tool=sdk, hint=hint)


def _stage(message: str) -> str:
    low = message.lower()
    if "timed out" in low or "timeout" in low:
        return "initialize-timeout"
    if "closed" in low or "exited" in low:
        return "exited"
    if "refused" in low or "connect" in low:
        return "connect"
    return "start"


@rule(
    id="mcp.python_sdk_error",
    category=FailureType.MCP_STARTUP,
    tool="mcp-python-sdk",
    pattern=r"\bmcp\.shared\.exceptions\.M[Cc][Pp]Error: (?P<message>.+)$",
    triggers=("exceptions.MCPError: ", "exceptions.McpError: "),
    url=_SPEC,
    priority=PRIORITY,
)
def python_sdk_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """The MCP Python SDK's MCPError ending a client's traceback.

    What it detects: `mcp.shared.exceptions.MCPError: Connection closed` (or
    `McpError` in mcp 1.x), raised by `ClientSession.initialize()` when the
    server process exits or crashes before it answers the handshake.

    Example output (a `stdio_client` + `ClientSession.initialize()` client,
    mcp 2.3.0, server exits at start):
        | mcp.shared.exceptions.MCPError: Connection closed

    Recipe: mcp_startup: re-spawn the server from its .mcp.json entry and
    retry the handshake once; then skip it with a warning on the entry.

    References: https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle
    """
    return _sdk_hit(ctx, m.group("message").strip(), "mcp-python-sdk")


@rule(
    id="mcp.python_sdk_timeout",
    category=FailureType.MCP_STARTUP,
    tool="mcp-python-sdk",
    pattern=r"^[\s|]*(?:asyncio\.(?:exceptions\.)?)?TimeoutError\b(?::\s*(?P<message>.*))?$",
    triggers=("TimeoutError",),
    url=_SPEC,
    priority=PRIORITY,
)
def python_sdk_timeout(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Python MCP client's handshake timing out.

    What it detects: a `TimeoutError` whose traceback passes through
    `ClientSession.initialize()` (the client wrapped the handshake in a
    timeout, the server never answered).  Any other TimeoutError is left to
    the other rules.

    Example output (mcp 2.3.0 client, `anyio.fail_after(3)` around
    `session.initialize()`, a server that never answers):
          |     await session.initialize()
        ...
          | TimeoutError

    Recipe: mcp_startup: retry the server once with the handshake timeout;
    then skip it with a warning on its config entry.

    References: https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#timeouts
    """
    before = ctx.before(_LOOK_BACK)
    if not any("session.initialize" in line or "in initialize" in line for line in before):
        return None
    if not _in_mcp_client(ctx):
        return None
    hit = _sdk_hit(ctx, "initialize handshake timed out", "mcp-python-sdk")
    hit.code = "TimeoutError"
    return hit


@rule(
    id="mcp.typescript_sdk_error",
    category=FailureType.MCP_STARTUP,
    tool="mcp-typescript-sdk",
    pattern=r"\bMCP error (?P<code>-?\d+): (?P<message>.+)$",
    triggers=("MCP error -",),
    url=_SPEC,
    priority=PRIORITY,
)
def typescript_sdk_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """The MCP TypeScript SDK's McpError.

    What it detects: `McpError: MCP error -32000: Connection closed` (server
    exited), `MCP error -32001: Request timed out` (no answer to
    `initialize` within the timeout), `MCP error -32602: Tool x not found`
    (the tool is not available on that server).

    Example output (`@modelcontextprotocol/sdk` 1.32.2, node 20):
        McpError: MCP error -32000: Connection closed

    Recipe: mcp_startup: re-spawn and re-handshake once, then skip with a
    warning on the server's config entry.  The JSON-RPC code is the record's
    code; a missing tool's name goes into hint["tool"].

    References: https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle
    """
    message = m.group("message").strip()
    extra: dict[str, object] = {"jsonrpc_code": int(m.group("code"))}
    tool = re.match(r"Tool (\S+) not found", message)
    if tool:
        extra["tool"] = tool.group(1)
        extra["stage"] = "tool"
    hit = _sdk_hit(ctx, message, "mcp-typescript-sdk", **extra)
    hit.code = f"MCP{m.group('code')}"
    return hit


@rule(
    id="mcp.client_connect",
    category=FailureType.MCP_STARTUP,
    tool="mcp-client",
    pattern=(
        r"(?:(?P<lib>httpx2?|httpcore2?)\.Connect(?:Error|Timeout): (?P<message>.+)$"
        r"|connect (?P<errno>ECONNREFUSED|ECONNRESET|ETIMEDOUT) (?P<addr>[\w.:\[\]-]+)"
        r"|\[Errno 111\] Connect(?:ion refused| call failed)"
        r"|\bConnection refused\b)"
    ),
    triggers=(
        "ConnectError: ",
        "ConnectTimeout: ",
        "connect E",
        "[Errno 111]",
        "Connection refused",
    ),
    url=_SPEC,
    priority=PRIORITY,
)
def client_connect(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """An MCP client that cannot reach an HTTP/SSE server.

    What it detects: connection refused / connect errors (`httpx.ConnectError:
    All connection attempts failed`, node's `connect ECONNREFUSED
    127.0.0.1:8765`) printed inside an MCP client's output (an MCP SDK frame,
    or an MCP host line, shortly before).  Outside such output the line is
    left to the infra network rules.

    Example output (`@modelcontextprotocol/sdk` 1.32.2 StreamableHTTPClientTransport,
    nothing listening):
          [cause]: Error: connect ECONNREFUSED 127.0.0.1:8765

    Recipe: mcp_startup: retry the connection once; then skip the server with
    a warning on its entry (its url) in the MCP config.

    References: https://modelcontextprotocol.io/specification/2025-06-18/basic/transports
    """
    if not _in_mcp_client(ctx):
        return None
    if m.group("lib"):
        message, code = m.group("message").strip(), "ConnectError"
    elif m.group("errno"):
        message, code = f"connect {m.group('errno')} {m.group('addr')}", m.group("errno")
    else:
        message, code = "Connection refused", "ECONNREFUSED"
    hit = _sdk_hit(ctx, message, "mcp-client", stage="connect")
    hit.code = code
    return hit


_VSCODE_START = re.compile(r"\[info\] Starting server (?P<server>.+?)\s*$")


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
    for line in reversed(ctx.before(_LOOK_BACK)):
        s = _VSCODE_START.search(line)
        if s and not s.group("server").startswith("from "):
            server = s.group("server")
            break
    message = (m.group("message") or m.group("exited") or "").strip()
    exit_code = re.search(r"exited with code (\d+)", message)
    hint: dict[str, object] = {"stage": _stage(message)}
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


_CURSOR_COMMAND = re.compile(r"Starting new stdio process with command: (?P<cmd>.+?)\s*$")


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
    c = match_above(ctx, _CURSOR_COMMAND, _LOOK_BACK, search=True)
    command = c.group("cmd") if c else None
    message = (m.group("closed") or m.group("reload") or m.group("client") or "").strip()
    hint: dict[str, object] = {"stage": _stage(message), "log_prefix": m.group("prefix")}
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
    re.compile(r'Connection to MCP server "(?P<server>[^"]+)" timed out after (?P<ms>\d+)ms'),
    re.compile(r'MCP server "(?P<server>[^"]+)"[:,]? (?P<message>.*)$'),
    re.compile(r"^\s*(?P<server>[^\s:][^:]*): (?P<command>.+?) - ✗ (?P<message>Failed to connect)"),
    re.compile(r"Failed to reconnect to (?P<server>[^\s.][^\s]*?)\.?\s*$"),
    re.compile(r"\[MCP\] (?:[Ss]erver )?[\"']?(?P<server>[\w@./-]+?)[\"']?:? (?P<message>.+)$"),
)
_FAILED = re.compile(r"fail|error|timed out|closed|exited|crash|refused|disconnect", re.I)


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
def host(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """An MCP host (Claude Code and hosts in its style) naming a server that
    failed to start or connect.

    What it detects: `claude mcp list`'s `NAME: COMMAND - ✗ Failed to
    connect`, `Connection to MCP server "NAME" timed out after 5000ms`,
    `MCP server "NAME" failed to start` / `MCP server "NAME": Connection
    failed ...`, `[MCP] Server "NAME": Connection failed ...`, `Failed to
    reconnect to NAME.`.  A line naming a server
    without a failure word ("MCP server "x": connected") is not a failure.

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
        if not _FAILED.search(message) and not groups.get("ms"):
            return None
        hint: dict[str, object] = {"server": groups["server"].strip(), "stage": _stage(line)}
        if groups.get("ms"):
            hint["timeout_ms"] = int(groups["ms"])
        return Hit(signal=line.strip(), message=line.strip(), hint=hint)
    return None


_NO_SUCH_TOOL = re.compile(
    r"No such tool available: (?P<tool>mcp__(?P<server>.+?)__(?P<name>[^\s]+))"
)
_UNAVAILABLE = re.compile(
    r"[Tt]ool ['\"`]?(?P<name>[\w.:/-]+)['\"`]? (?:is )?not available"
    r"|Unknown tool:? ['\"`]?(?P<unknown>[\w.:/-]+)"
)


@rule(
    id="mcp.tool_not_available",
    category=FailureType.MCP_STARTUP,
    tool="mcp-host",
    pattern=r"No such tool available: \S|[Tt]ool \S+ (?:is )?not available|Unknown tool:? \S",
    triggers=("No such tool available", "not available", "Unknown tool"),
    url="https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling",
    priority=PRIORITY,
)
def tool_not_available(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A tool call to an MCP tool that is not there (its server did not
    start, or does not offer it).

    What it detects: Claude Code's `No such tool available:
    mcp__SERVER__TOOL` (the server's name is in the tool name), and `tool X
    is not available` / an MCP server's `Unknown tool: X` when the line or
    the output before it is about MCP (otherwise it may be any tool).

    Example output (Claude Code; documented format):
        Error: No such tool available: mcp__tickets__create_ticket

    Recipe: mcp_startup: restart the server the tool belongs to once and
    list its tools; then skip it with a warning on its config entry.

    References: https://modelcontextprotocol.io/specification/2025-06-18/server/tools
    """
    line = ctx.line
    hint: dict[str, object] = {"stage": "tool"}
    found = _NO_SUCH_TOOL.search(line)
    if found:
        hint.update(tool=found.group("name"), server=found.group("server"))
    else:
        other = _UNAVAILABLE.search(line)
        if other is None:
            return None
        name = other.group("name") or other.group("unknown")
        if "mcp" not in name.lower() and "MCP" not in line and not _in_mcp_client(ctx):
            return None  # "tool x is not available" outside MCP output: any tool
        hint["tool"] = name
        hint["mentions"] = _mentions(ctx)
    return Hit(signal=line.strip(), message=line.strip(), hint=hint)
