"""Running the server on stdio or TCP, with faultlens' own reader (transport.py).

Over stdio the editor started the server and owns both pipes: nothing else can
talk to it.  Over TCP any local process can connect, and a connected client
can run commands (`faultlens.run`), so `serve_tcp`

* accepts one client: a connection while one is open is closed at once, and
  the server stops when its client's session ends;
* requires a token: the first message must be `initialize` with
  `initializationOptions.token` (or `initializationOptions.faultlens.token`)
  equal to the server's, compared in constant time, within `AUTH_TIMEOUT`
  seconds; otherwise the connection gets an error answer and is closed (the
  token is removed from the message before the server sees it, and is never
  logged);
* binds the address it is given: cli/serve.py allows only loopback addresses
  unless told otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO

from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter

from . import framing, transport
from .protocol import FaultLensProtocol

if TYPE_CHECKING:
    from .app import FaultLensServer

log = logging.getLogger(__name__)

AUTH_TIMEOUT = 10.0  # seconds a new connection has to send its initialize
UNAUTHORIZED = -32600


class Ending:
    """The exit status the client's `exit` asked for (pygls' handler calls
    `sys.exit`: 0 after `shutdown`, 1 without), once it came."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.status: int | None = None

    def exited(self, exc: SystemExit) -> None:
        self.status = exc.code if isinstance(exc.code, int) else 1
        self.stop.set()


def dispatcher(
    server: FaultLensServer, ending: Ending | None = None
) -> tuple[transport.Dispatch, transport.Report]:
    """What the reader calls with each message body, and with each problem.
    An `exit` ends the session here, quietly: over TCP the body is dispatched
    inside asyncio's connection callback, where pygls' `sys.exit` would be
    logged as an unhandled exception with its traceback."""
    protocol = server.protocol
    assert isinstance(protocol, FaultLensProtocol)

    def report(problem: framing.Unreadable) -> None:
        protocol.send_unreadable(problem.code, problem.message)

    def dispatch(body: bytes) -> None:
        try:
            msg = framing.parse_body(body, protocol.structure_message)
            if isinstance(msg, framing.Unreadable):
                log.warning("faultlens: %s", msg.message)
                report(msg)
                return
            protocol.handle_message(msg)
        except SystemExit as exc:
            if ending is None:
                raise
            ending.exited(exc)
        except Exception as exc:  # as pygls' own reader: reported, and the next message read
            log.exception("faultlens: unable to handle a message")
            server.report_server_error(exc, JsonRpcException)

    return dispatch, report


def serve_io(server: FaultLensServer, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Serve one client on a pair of pipes until the input ends or `exit`."""
    server._stop_event = stop = threading.Event()
    source = transport.StdioSource(stdin, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(stdout))
    dispatch, report = dispatcher(server, Ending(stop))
    try:
        asyncio.run(transport.serve(source, dispatch, report, stop.is_set))
    except BrokenPipeError:
        log.error("faultlens: the connection to the client is lost; stopping")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        _shutdown(server)


def _shutdown(server: FaultLensServer) -> None:
    stop: Callable[[], None] = server.shutdown  # pygls leaves it untyped
    stop()


def _frame(msg: dict[str, Any]) -> bytes:
    body = json.dumps(msg).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def authenticate(body: bytes | None, token: str) -> tuple[dict[str, Any] | None, str]:
    """The client's first message with its token removed, when it is an
    `initialize` carrying the right token; else None and why (never the token)."""
    msg = framing.parse_body(body) if body is not None else None
    if not isinstance(msg, dict) or msg.get("method") != "initialize" or "id" not in msg:
        return None, "the first message is not initialize"
    params = msg.get("params")
    options = params.get("initializationOptions") if isinstance(params, dict) else None
    holders = [options] if isinstance(options, dict) else []
    if holders and isinstance(options, dict) and isinstance(options.get("faultlens"), dict):
        holders.append(options["faultlens"])
    given = [h.pop("token") for h in holders if "token" in h]
    ok = len(given) == 1 and isinstance(given[0], str)
    if not (ok and hmac.compare_digest(given[0].encode(), token.encode())):
        return None, "no token or a wrong one"
    return msg, ""


def serve_tcp(
    server: FaultLensServer,
    host: str,
    port: int,
    *,
    token: str,
    on_listening: Callable[[list[tuple[str, int]]], None] = lambda addrs: None,
) -> int:
    """Serve one authenticated client on `host:port` (see the module docstring).
    The exit status: 0 after `shutdown` + `exit` or the end of the connection,
    1 for an `exit` without `shutdown` (LSP)."""
    if not token:
        raise ValueError("serve_tcp needs a token")
    server._stop_event = stop = threading.Event()
    ending = Ending(stop)
    dispatch, report = dispatcher(server, ending)
    state = {"busy": False}
    listening: list[asyncio.Server] = []

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        if state["busy"]:
            log.warning("faultlens: refused a connection from %s: a client is connected", peer)
            writer.close()
            return
        state["busy"] = True
        source = transport.StreamSource(reader)
        try:
            frame = await asyncio.wait_for(transport.read_frame(source), AUTH_TIMEOUT)
            msg, why = authenticate(frame[1] if frame else None, token)
        except (TimeoutError, OSError):
            frame, msg, why = None, None, f"no initialize within {AUTH_TIMEOUT:g} s"
        if msg is None:
            log.warning("faultlens: refused a connection from %s: %s", peer, why)
            first = framing.parse_body(frame[1]) if frame and frame[1] else None
            rid = first.get("id") if isinstance(first, dict) else None
            error = {"code": UNAUTHORIZED, "message": f"faultlens: unauthorized: {why}"}
            try:
                writer.write(_frame({"jsonrpc": "2.0", "id": rid, "error": error}))
                await writer.drain()
            except OSError:
                pass
            writer.close()
            state["busy"] = False
            return
        log.info("faultlens: client connected from %s", peer)
        server.protocol.set_writer(writer)
        dispatch(json.dumps(msg).encode("utf-8"))
        try:
            await transport.serve(source, dispatch, report, stop.is_set)
        finally:
            log.info("faultlens: the client's session ended; stopping")
            for s in listening:
                s.close()

    async def main() -> None:
        tcp = await asyncio.start_server(connection, host, port, limit=framing.MAX_LINE)
        listening.append(tcp)
        on_listening([sock.getsockname()[:2] for sock in tcp.sockets])
        async with tcp:
            with contextlib.suppress(asyncio.CancelledError):  # closed when the session ends
                await tcp.serve_forever()

    try:
        asyncio.run(main())
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        _shutdown(server)
    return ending.status or 0
