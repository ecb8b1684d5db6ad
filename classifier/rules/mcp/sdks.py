"""MCP rules for the SDKs' own errors: the Python and TypeScript SDKs, and a
client that cannot connect to its server."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import LOOK_BACK, PRIORITY, SPEC, in_mcp_client, sdk_hit


@rule(
    id="mcp.python_sdk_error",
    category=FailureType.MCP_STARTUP,
    tool="mcp-python-sdk",
    pattern=r"\bmcp\.shared\.exceptions\.M[Cc][Pp]Error: (?P<message>.+)$",
    triggers=("exceptions.MCPError: ", "exceptions.McpError: "),
    url=SPEC,
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
    return sdk_hit(ctx, m.group("message").strip(), "mcp-python-sdk")


@rule(
    id="mcp.python_sdk_timeout",
    category=FailureType.MCP_STARTUP,
    tool="mcp-python-sdk",
    pattern=r"^[\s|]*(?:asyncio\.(?:exceptions\.)?)?TimeoutError\b(?::\s*(?P<message>.*))?$",
    triggers=("TimeoutError",),
    url=SPEC,
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
    before = ctx.before(LOOK_BACK)
    if not any("session.initialize" in line or "in initialize" in line for line in before):
        return None
    if not in_mcp_client(ctx):
        return None
    hit = sdk_hit(ctx, "initialize handshake timed out", "mcp-python-sdk")
    hit.code = "TimeoutError"
    return hit


@rule(
    id="mcp.typescript_sdk_error",
    category=FailureType.MCP_STARTUP,
    tool="mcp-typescript-sdk",
    pattern=r"\bMCP error (?P<code>-?\d+): (?P<message>.+)$",
    triggers=("MCP error -",),
    url=SPEC,
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
    hit = sdk_hit(ctx, message, "mcp-typescript-sdk", **extra)
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
    url=SPEC,
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
    if not in_mcp_client(ctx):
        return None
    if m.group("lib"):
        message, code = m.group("message").strip(), "ConnectError"
    elif m.group("errno"):
        message, code = f"connect {m.group('errno')} {m.group('addr')}", m.group("errno")
    else:
        message, code = "Connection refused", "ECONNREFUSED"
    hit = sdk_hit(ctx, message, "mcp-client", stage="connect")
    hit.code = code
    return hit
