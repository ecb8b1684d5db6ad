"""MCP server start-up and handshake failures, as the MCP SDKs (Python,
TypeScript) and the clients that host servers (Claude Code, VS Code, Codex CLI, Gemini CLI) print
them; one module per kind of output.

The record names the server in `hint["server"]` when the output does; when
it does not (an SDK exception), `hint["mentions"]` keeps what the output said
about it (script file names in the stack, host:port) so that
`classifier.mcpconfig.place_records` can find the server's entry in
`.mcp.json`, `.vscode/mcp.json` or `.cursor/mcp.json` and put the record
there.

Precedence: these rules run before the generic network rules of the infra
family (common.PRIORITY > infra's), so "connection refused" while an MCP client
connects is mcp_startup, not infra; outside an MCP client's output they
return None and the infra rules see the line.
"""

from __future__ import annotations

from . import codex, gemini, hosts, sdks, tools

__all__ = ["codex", "gemini", "hosts", "sdks", "tools"]
