"""The language server, put together: state (server/app.py), the LSP features
(server/features.py) and the faultlens.* commands (server/commands.py).

The one module that knows all three, so that none of them imports another
back (features and commands build on app; app knows neither).
"""

from __future__ import annotations

from . import commands, features
from .app import FaultLensServer


def create_server() -> FaultLensServer:
    """A server with every feature and command registered."""
    ls = FaultLensServer()
    features.register(ls)
    commands.register(ls)
    return ls
