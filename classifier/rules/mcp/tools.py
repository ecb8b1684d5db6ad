"""The MCP rule for a tool the server does not have or cannot serve."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, in_mcp_client, mentions

_NO_SUCH_TOOL = lazy_compile(
    r"No such tool available: (?P<tool>mcp__(?P<server>.+?)__(?P<name>[^\s<\"]+))"
)
_UNAVAILABLE = lazy_compile(
    r"\b[Tt]ool ['\"`]?(?!is )(?P<name>[\w.:/-]+)['\"`]? (?:is )?not available"
    r"|Unknown tool:? ['\"`]?(?P<unknown>[\w.:/-]+)"
)


@rule(
    id="mcp.tool_not_available",
    category=FailureType.MCP_STARTUP,
    tool="mcp-host",
    pattern=r"No such tool available: \S|\b[Tt]ool (?!is )\S+ (?:is )?not available|Unknown tool:? \S",
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
    found = _NO_SUCH_TOOL.search(line) or _UNAVAILABLE.search(line)
    if found is None:
        return None
    if "server" in found.groupdict():  # mcp__SERVER__TOOL
        hint.update(tool=found.group("name"), server=found.group("server"))
    else:
        name = found.group("name") or found.group("unknown")
        if "mcp" not in name.lower() and "MCP" not in line and not in_mcp_client(ctx):
            return None  # "tool x is not available" outside MCP output: any tool
        hint["tool"] = name
        hint["mentions"] = mentions(ctx)
    # a JSON event (Claude Code's stream-json tool_result) is told by its error
    signal = f"Error: {found.group(0)}" if line.lstrip().startswith("{") else line.strip()
    return Hit(signal=signal, message=signal, hint=hint)
