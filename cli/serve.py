"""`faultlens serve`: the language server (stdio by default, or TCP).

Over TCP any local process could connect and run commands through the
server, so TCP is guarded (server/serving.py): one client, a token in
`initializationOptions.token`, and a loopback address unless `--allow-remote`
says otherwise (with a loud warning).  The token is made up and printed on
start, or read from `--token-file` (a regular file of this user with mode
0600 or stricter; created with a fresh token when missing).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .main import UsageError

MIN_TOKEN = 16  # characters


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the language server (stdio; --tcp HOST:PORT)",
        description="Run the faultlens language server. It speaks LSP on stdin/stdout unless "
        "--tcp is given; logs go to stderr only. Over TCP it takes one client, which must "
        "send the server's token as initializationOptions.token.",
    )
    p.add_argument(
        "--stdio", action="store_true", help="use stdio (the default; accepted and ignored)"
    )
    p.add_argument(
        "--tcp",
        metavar="HOST:PORT",
        help="listen on a TCP address instead of stdio (loopback only; port 0: any free port)",
    )
    p.add_argument(
        "--token-file",
        metavar="PATH",
        type=Path,
        help="--tcp: read the token from PATH (mode 0600; created with a new token when "
        "missing) instead of printing a new one",
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="--tcp: allow a non-loopback HOST (anyone who reaches it with the token can run "
        "commands as you)",
    )
    p.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="stderr log level (default: WARNING)",
    )
    p.set_defaults(func=run)


def parse_address(value: str) -> tuple[str, int]:
    """HOST:PORT (HOST may be empty for 127.0.0.1; PORT 0 for any free port)."""
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) < 65536:
        raise UsageError(f"--tcp wants HOST:PORT, got {value!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def is_loopback(host: str) -> bool:
    """Whether every address `host` names is a loopback address."""
    import ipaddress
    import socket

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(ipaddress.ip_address(a[4][0]).is_loopback for a in found)


def read_token_file(path: Path) -> str:
    """The token in `path`, which must be this user's regular file with no
    access for group or others; a missing file is created with a new token."""
    import secrets
    import stat

    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    except OSError as exc:
        raise UsageError(f"--token-file {path}: {exc.strerror or exc}") from None
    else:
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_urlsafe(32) + "\n")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise UsageError(f"--token-file {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"--token-file {path}: not a regular file")
        if st.st_uid != os.getuid():
            raise UsageError(f"--token-file {path}: owned by another user")
        if st.st_mode & 0o077:
            mode = stat.S_IMODE(st.st_mode)
            raise UsageError(
                f"--token-file {path}: readable by others (mode {mode:04o}); chmod 600 {path}"
            )
        token = fh.read(4096).decode("utf-8", "replace").strip()
    if len(token) < MIN_TOKEN or any(c.isspace() for c in token):
        raise UsageError(
            f"--token-file {path}: the token must be one word of at least {MIN_TOKEN} characters"
        )
    return token


def run(args: argparse.Namespace) -> int:
    import logging

    address = parse_address(args.tcp) if args.tcp else None
    if address is None and (args.token_file or args.allow_remote):
        raise UsageError("--token-file and --allow-remote go with --tcp")
    if address is not None and not is_loopback(address[0]) and not args.allow_remote:
        raise UsageError(
            f"--tcp {address[0]} is not a loopback address: a client there could run commands "
            "as you; listen on 127.0.0.1, or add --allow-remote"
        )
    logging.basicConfig(
        stream=sys.stderr,
        level=args.log_level,
        format="faultlens %(levelname)s %(name)s: %(message)s",
    )
    from .shown import scrub_logging

    scrub_logging()
    if address is None:  # answers `initialize` while the server loads
        from faultlens.server.fast_init import serve_stdio

        return serve_stdio(_create_server, sys.stdin.buffer, sys.stdout.buffer)
    return _serve_tcp(address, args)


def _serve_tcp(address: tuple[str, int], args: argparse.Namespace) -> int:
    import secrets

    host, port = address
    token = read_token_file(args.token_file) if args.token_file else secrets.token_urlsafe(32)
    if not is_loopback(host):
        sys.stderr.write(
            "faultlens: WARNING: listening on a non-loopback address "
            f"({host}): anyone who can reach it and holds the token can run commands "
            "as you. Use it only on a network you trust.\n"
        )
    from faultlens.server.serving import serve_tcp

    def listening(addrs: list[tuple[str, int]]) -> None:
        where = ", ".join(f"{h}:{p}" if ":" not in h else f"[{h}]:{p}" for h, p in addrs)
        shown = f"token in {args.token_file}" if args.token_file else f"token {token}"
        print(
            f"faultlens: listening on {where}, one client; {shown} "
            "(send it as initializationOptions.token)",
            flush=True,
        )

    return serve_tcp(_create_server(), host, port, token=token, on_listening=listening)


def _create_server() -> Any:
    """The server, with pygls imported (most of the start-up time)."""
    from faultlens.server.assemble import create_server

    return create_server()
