"""An MCP server that never answers initialize (it waits on a lock that never comes)."""

import time

while True:
    time.sleep(1)
