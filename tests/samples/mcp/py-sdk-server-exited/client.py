"""A real MCP client (Python SDK): start the server that .mcp.json declares
under the given name and complete the initialize handshake, with a timeout.
SDK exceptions are not caught: what it prints is what the SDK raises."""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(name: str, timeout: float) -> None:
    entry = json.load(open(".mcp.json"))["mcpServers"][name]
    command = sys.executable if entry["command"] == "python" else entry["command"]
    params = StdioServerParameters(command=command, args=entry.get("args", []))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            with anyio.fail_after(timeout):
                await session.initialize()
            print("initialized", name)


anyio.run(main, sys.argv[1], float(sys.argv[2]))
