"""A real MCP client (Python SDK, streamable HTTP transport): connect to the
server .vscode/mcp.json declares under the given name (by its url) and initialize.
SDK exceptions are not caught: what it prints is what the SDK raises."""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(name: str, timeout: float) -> None:
    url = json.load(open(".vscode/mcp.json"))["servers"][name]["url"]
    async with streamable_http_client(url) as (read, write, *_):
        async with ClientSession(read, write) as session:
            with anyio.fail_after(timeout):
                await session.initialize()
            print("initialized", name)


anyio.run(main, sys.argv[1], float(sys.argv[2]))
