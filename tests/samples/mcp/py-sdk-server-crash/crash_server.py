"""An MCP server that crashes while starting (a missing setting)."""
import os
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("notes")
DB = os.environ["NOTES_DB"]  # not set: the server dies before the handshake

@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b

if __name__ == "__main__":
    mcp.run()
