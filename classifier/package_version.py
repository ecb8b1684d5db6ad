"""The installed faultlens' version, for every front that says it (the CLI's
--version, SARIF output, the language and MCP servers)."""

from __future__ import annotations

from functools import cache


@cache
def version() -> str:
    """The installed package's version (read on first use: importlib.metadata
    costs ~45 ms at start-up, and only --version, SARIF and the servers need it)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("faultlens")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0.0.0"
