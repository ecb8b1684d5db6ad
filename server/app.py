"""The faultlens language server: `FaultLensServer`, one instance per process.

It is made in layers, each building on the one before: the state and basic
operations (server/server_state.py), publishing diagnostics
(server/publishing.py), classifying output (server/classifying.py), watched
and opened log files (server/watched_files.py); this module adds the
transport and the settings on top.  `server/assemble.py` builds one and registers the LSP
features (server/features.py) and the commands (server/commands.py), which
build on this module and never the reverse.  Everything that can take time
(classifying output, the recipe engine, the ledger) runs in a worker thread
with `asyncio.to_thread`, so hovers stay fast while a big output is being
classified.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from .classifying import Classified, run_log_name
from .publishing import Hrefs
from .server_state import VERSION, PendingPlan
from .settings import Settings, parse_settings
from .watched_files import WatchingServer, is_log_document

__all__ = [
    "VERSION",
    "Classified",
    "FaultLensServer",
    "Handler",
    "Hrefs",
    "PendingPlan",
    "is_log_document",
    "run_log_name",
]


class FaultLensServer(WatchingServer):
    """The language server; one instance per process."""

    # -- transport --------------------------------------------------------------
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on stdio with faultlens' reader (server/transport.py)."""
        from .serving import serve_io

        serve_io(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    def start_tcp(self, host: str, port: int) -> None:
        """pygls' TCP server has no authentication: use serving.serve_tcp."""
        raise RuntimeError("faultlens serves TCP only with a token (server/serving.py)")

    # -- settings ---------------------------------------------------------------
    def apply_settings(self, raw: Any, *, base: Settings | None = None) -> list[str]:
        """Take new settings; returns the problems (already shown to the user)."""
        settings, problems = parse_settings(raw, base or self.settings)
        old = self.settings
        self.settings = settings
        for p in problems:
            self.warn(p, show=True)
        if (
            old.watch_globs != settings.watch_globs
            or old.watch_poll_interval != settings.watch_poll_interval
        ):
            self.spawn(self.setup_watching(), "watching log files")
        return problems


Handler = Callable[..., Any]
