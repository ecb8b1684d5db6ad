"""An MCP server over stdio that never answers the initialize request (a hung startup)."""

import sys
import time

sys.stdin.readline()
time.sleep(60)
