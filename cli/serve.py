"""`faultlens serve`: the language server (stdio by default, or TCP)."""

from __future__ import annotations

import argparse
from typing import Any

from .main import UsageError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the language server (stdio; --tcp HOST:PORT)",
        description="Run the faultlens language server. It speaks LSP on stdin/stdout unless "
        "--tcp is given; logs go to stderr only.",
    )
    p.add_argument(
        "--stdio", action="store_true", help="use stdio (the default; accepted and ignored)"
    )
    p.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead of stdio")
    p.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="stderr log level (default: WARNING)",
    )
    p.set_defaults(func=run)


def parse_address(value: str) -> tuple[str, int]:
    """HOST:PORT (HOST may be empty for 127.0.0.1)."""
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--tcp wants HOST:PORT, got {value!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    import logging
    import sys

    address = parse_address(args.tcp) if args.tcp else None
    logging.basicConfig(
        stream=sys.stderr,
        level=args.log_level,
        format="faultlens %(levelname)s %(name)s: %(message)s",
    )
    if address is None:  # answers `initialize` while the server loads
        from faultlens.server.fast_init import serve_stdio

        serve_stdio(_create_server, sys.stdin.buffer, sys.stdout.buffer)
    else:
        _create_server().start_tcp(*address)
    return 0


def _create_server() -> Any:
    """The server, with pygls imported (most of the start-up time)."""
    from faultlens.server.app import create_server

    return create_server()
