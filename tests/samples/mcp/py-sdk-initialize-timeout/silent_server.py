"""An MCP server process that never answers initialize."""
import time
time.sleep(60)
