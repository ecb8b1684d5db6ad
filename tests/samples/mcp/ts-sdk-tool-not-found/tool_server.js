// An MCP server (TypeScript SDK) that starts fine and offers one tool, "search".
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");

const server = new McpServer({ name: "tickets", version: "1.0.0" });
server.tool("search", async () => ({ content: [{ type: "text", text: "none" }] }));
server.connect(new StdioServerTransport());
