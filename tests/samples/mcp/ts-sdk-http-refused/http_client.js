// A real MCP client (TypeScript SDK, streamable HTTP transport): connect to the
// server .cursor/mcp.json declares under the given name (by its url).
// SDK errors are not caught: what is printed is what the SDK throws.
const fs = require("node:fs");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");

async function main(name) {
  const entry = JSON.parse(fs.readFileSync(".cursor/mcp.json", "utf8")).mcpServers[name];
  const client = new Client({ name: "sample-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url)));
  await client.close();
}

main(process.argv[2]);
