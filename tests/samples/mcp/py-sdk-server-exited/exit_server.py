"""An MCP server that exits at once with status 3."""
import sys
print("notes-server: config not found, exiting", file=sys.stderr)
sys.exit(3)
