"""The exchange-rates MCP server (stdio)."""

from mcp.server.mcpserver import MCPServer

from ledger.tables import rates_table

server = MCPServer("rates")


@server.tool()
def rate(currency: str) -> float:
    return rates_table[currency]


if __name__ == "__main__":
    server.run()
