// A real MCP client (TypeScript SDK): start the server .mcp.json declares
// under the given name and connect (initialize handshake) with a timeout.
// SDK errors are not caught: what is printed is what the SDK throws.
const fs = require("node:fs");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

async function main(name, timeout, tool) {
  const entry = JSON.parse(fs.readFileSync(".mcp.json", "utf8")).mcpServers[name];
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args || [], env: { ...process.env, ...entry.env } });
  const client = new Client({ name: "sample-host", version: "1.0.0" });
  await client.connect(transport, { timeout });
  if (tool) {
    const result = await client.callTool({ name: tool, arguments: {} });
    if (result.isError) {
      console.error(result.content[0].text);
      process.exitCode = 1;
    }
  }
  await client.close();
}

main(process.argv[2], Number(process.argv[3]), process.argv[4]);
