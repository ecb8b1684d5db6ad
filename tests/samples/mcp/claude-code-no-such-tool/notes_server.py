"""An MCP server that starts fine; it offers add_note, not the search_notes the agent asks for."""

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("notes")


@mcp.tool()
def add_note(text: str) -> str:
    return f"saved: {text}"


if __name__ == "__main__":
    mcp.run()
