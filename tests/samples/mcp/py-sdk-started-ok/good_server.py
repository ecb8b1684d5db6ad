"""An MCP server that starts fine and logs that it did."""
import sys
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("notes")

@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b

if __name__ == "__main__":
    print("notes: Server started, 0 errors", file=sys.stderr)
    mcp.run()
