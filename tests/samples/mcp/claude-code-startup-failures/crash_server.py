"""An MCP server over stdio that crashes at startup: its storage module was renamed."""

import notes_store  # noqa: F401  (the server dies here, before the handshake)
