// An MCP server (TypeScript SDK) that crashes while starting: a missing setting.
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");

const server = new McpServer({ name: "tickets", version: "1.0.0" });
if (!process.env.TICKETS_TOKEN) throw new Error("TICKETS_TOKEN is not set");
server.connect(new StdioServerTransport());
