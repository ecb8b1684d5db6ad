"""An MCP server over stdio that answers initialize with a protocol version nobody speaks."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        result = {
            "protocolVersion": "2023-01-01",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "legacy-search", "version": "0.1.0"},
        }
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
