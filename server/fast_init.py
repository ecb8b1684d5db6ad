"""Answer `initialize` while the language server is still loading (stdio only).

Importing pygls and lsprotocol costs most of a second of CPU on a small machine
(lsprotocol defines some 570 attrs classes, and attrs compiles the methods of
each one at import), and an editor shows nothing from a server before the
answer to `initialize`.  That answer is static for faultlens: the capabilities
depend only on the position encoding the client prefers, on push or pull
diagnostics and on whether the client declares will-save notifications.  So
`faultlens serve` reads the first message with the standard library alone,
answers it from a snapshot of what the full server answers
(`capabilities.json`), and meanwhile imports the server on another thread.

The full server then reads that same `initialize` message first and sets itself
up exactly as it would have (workspace, client capabilities, settings); its
own answer is compared with the one already sent and dropped, and a difference
is logged as an error; if the full server rejects that `initialize` (an error
answer), the client is told with window/showMessage and the server exits with
status 1 instead of staying silently half-started.  Messages the client sends
meanwhile wait in the pipe, in order.  Anything unusual — another first
message, a frame the reader would report (server/framing.py: junk, a bad
length, a body that is not JSON or is nested too deeply), params of the wrong
shape, an installed pygls or lsprotocol other than the snapshot's — and the
first message simply goes to the full server, which answers it as before.

`tests/server/test_fast_init.py` keeps the snapshot equal to the full server's
answer over a matrix of clients; `python -m faultlens.server.fast_init`
rewrites it (after a change to the capabilities or a pygls upgrade).

Standard library only at import time: this module runs before pygls is loaded.
"""

from __future__ import annotations

import copy
import io
import json
import logging
import os
import sys
import threading
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any, BinaryIO, Protocol, TypeGuard

from .framing import parse_body, read_frame_sync

log = logging.getLogger(__name__)

SNAPSHOT = Path(__file__).with_name("capabilities.json")
DISABLE_ENV = "FAULTLENS_FAST_INIT"  # "0": always let the full server answer
ENCODINGS = ("utf-8", "utf-16", "utf-32")  # what pygls' position codec supports
PINNED = ("pygls", "lsprotocol")  # the snapshot is valid for these versions only


class Server(Protocol):
    def start_io(self, stdin: Any = None, stdout: Any = None) -> None: ...


class Readable(Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...

    def read(self, n: int = -1, /) -> bytes: ...


# -- reading the first message ---------------------------------------------------------
def read_message(stream: Readable) -> tuple[bytes, dict[str, Any] | None]:
    """The raw bytes of the first message and, when it is a well-formed frame
    holding a JSON object, that object.  Reads exactly one message (or up to a
    header block it does not accept, or the end of the stream); never raises
    on what it reads (a body nested too deeply is simply not answered here:
    the full server's reader answers it with Parse error)."""
    raw, _, body = read_frame_sync(stream)
    msg = parse_body(body) if body is not None else None
    return raw, msg if isinstance(msg, dict) else None


class Prefixed:
    """A binary stream that first gives back bytes already read from `stream`
    (what pygls' reader needs: `readline` and `read`)."""

    def __init__(self, prefix: bytes, stream: BinaryIO) -> None:
        self._prefix = prefix
        self._stream = stream

    def readline(self, size: int = -1) -> bytes:
        if not self._prefix:
            return self._stream.readline(size)
        nl = self._prefix.find(b"\n") + 1  # 0: no line end in the prefix
        cut = nl or len(self._prefix)
        if size >= 0:
            cut = min(cut, size)
        line, self._prefix = self._prefix[:cut], self._prefix[cut:]
        if (nl and cut == nl) or (size >= 0 and len(line) >= size):
            return line
        # the prefix ended inside a line: the rest of it comes from the stream
        return line + self._stream.readline(size - len(line) if size >= 0 else -1)

    def read(self, n: int = -1) -> bytes:
        if not self._prefix:
            return self._stream.read(n)
        if n < 0:
            rest, self._prefix = self._prefix, b""
            return rest + self._stream.read()
        head, self._prefix = self._prefix[:n], self._prefix[n:]
        if len(head) < n:
            head += self._stream.read(n - len(head))
        return head

    def close(self) -> None:
        self._stream.close()


# -- the answer ------------------------------------------------------------------------
# The client capabilities one level below a section that are no object (LSP 3.17).
_NOT_OBJECTS: dict[str, type] = {
    "workspace.applyEdit": bool,
    "workspace.workspaceFolders": bool,
    "workspace.configuration": bool,
    "window.workDoneProgress": bool,
    "general.positionEncodings": list,
}


def _is(value: Any, *types: type) -> bool:
    return value is None or (isinstance(value, types) and not isinstance(value, bool))


def plausible(params: Any) -> TypeGuard[dict[str, Any]]:
    """Params whose shape the full server accepts (checked as far as the answer
    depends on it; a client sending anything stranger is answered by pygls)."""
    if not isinstance(params, dict):
        return False
    caps = params.get("capabilities")
    if not isinstance(caps, dict) or not all(
        _is(params.get(k), str) for k in ("rootUri", "rootPath", "locale")
    ):
        return False
    if not _is(params.get("processId"), int) or not _is(params.get("workspaceFolders"), list):
        return False
    for folder in params.get("workspaceFolders") or []:
        if not (
            isinstance(folder, dict)
            and isinstance(folder.get("uri"), str)
            and isinstance(folder.get("name"), str)
        ):
            return False
    if params.get("trace") not in (None, "off", "messages", "verbose"):
        return False
    if not _is(params.get("clientInfo"), dict):
        return False
    for section, value in caps.items():
        if section == "experimental":
            continue
        if not isinstance(value, dict):
            return False
        for key, v in value.items():
            # Every client capability one level down is an object, but for the
            # few LSP types as a flag or a list: a wrong type (`"hover": true`)
            # is answered by the full server, with the error (never a success
            # answer followed by the server's exit).
            kind = _NOT_OBJECTS.get(f"{section}.{key}", dict)
            if v is not None and not isinstance(v, kind):
                return False
    encodings = caps.get("general", {}).get("positionEncodings")
    return encodings is None or (
        isinstance(encodings, list) and all(isinstance(e, str) for e in encodings)
    )


def position_encoding(params: dict[str, Any]) -> str:
    """The client's first preferred encoding the server supports; UTF-16 otherwise
    (pygls' rule)."""
    general = params["capabilities"].get("general") or {}
    for encoding in general.get("positionEncodings") or ():
        if encoding in ENCODINGS:
            return str(encoding)
    return "utf-16"


def diagnostic_mode(params: dict[str, Any]) -> str:
    """ "pull" when the settings in initializationOptions ask for it and the client
    can pull (server/features.py decides the same way), else "push"."""
    raw = params.get("initializationOptions")
    if isinstance(raw, dict) and isinstance(raw.get("faultlens"), dict):
        raw = raw["faultlens"]
    if not isinstance(raw, dict):
        return "push"
    wanted = raw.get("diagnosticMode", raw.get("diagnostic_mode"))
    text_document = params["capabilities"].get("textDocument")
    can_pull = isinstance(text_document, dict) and text_document.get("diagnostic") is not None
    return "pull" if wanted == "pull" and can_pull else "push"


def installed_versions() -> dict[str, str] | None:
    """The installed versions of pygls and lsprotocol, read from their
    .dist-info folders (importlib.metadata alone takes tens of milliseconds)."""
    out = {}
    for name in PINNED:
        spec = find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            return None
        site = Path(next(iter(spec.submodule_search_locations))).parent
        found = sorted(site.glob(f"{name}-*.dist-info"))
        if len(found) != 1:
            return None
        out[name] = found[0].name[len(name) + 1 : -len(".dist-info")]
    return out


def load_snapshot(path: Path = SNAPSHOT) -> dict[str, Any] | None:
    """The snapshot, if it was taken with the installed pygls and lsprotocol."""
    try:
        snap = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(snap, dict) or snap.get("versions") != installed_versions():
        return None
    return snap


def answer(msg: dict[str, Any] | None, snapshot: dict[str, Any] | None) -> dict[str, Any] | None:
    """The full server's response to `msg`, when it is an `initialize` request the
    snapshot answers; None otherwise."""
    if snapshot is None or msg is None:
        return None
    if msg.get("jsonrpc") != "2.0" or msg.get("method") != "initialize":
        return None
    rid = msg.get("id")
    if not isinstance(rid, int | str) or isinstance(rid, bool):
        return None
    params = msg.get("params")
    if not plausible(params):
        return None
    result = copy.deepcopy(snapshot["results"][diagnostic_mode(params)])
    result["capabilities"]["positionEncoding"] = position_encoding(params)
    sync = result["capabilities"].get("textDocumentSync")
    if isinstance(sync, dict):
        sync.update(will_save_answers(params))
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def will_save_answers(params: dict[str, Any]) -> dict[str, bool]:
    """`willSave` / `willSaveWaitUntil` as pygls answers them: false (faultlens
    handles neither) for each the client declares at all, absent otherwise
    (Neovim and VS Code declare both)."""
    text_document = params["capabilities"].get("textDocument")
    sync = text_document.get("synchronization") if isinstance(text_document, dict) else None
    if not isinstance(sync, dict):
        return {}
    return {key: False for key in ("willSave", "willSaveWaitUntil") if sync.get(key) is not None}


# -- writing: the full server's duplicate answer is dropped -----------------------------
class Deduplicating:
    """stdout for the full server: its answer to the `initialize` already
    answered is checked against the one sent and not sent again."""

    def __init__(self, out: BinaryIO, sent: dict[str, Any] | None) -> None:
        self._out = out
        self._sent = sent
        self._lock = threading.Lock()
        self.rejected = False  # the full server refused the initialize answered early

    def write(self, data: bytes) -> int:
        with self._lock:
            if self._sent is not None and self._is_duplicate(data):
                return len(data)
            return self._out.write(data)

    def _is_duplicate(self, data: bytes) -> bool:
        assert self._sent is not None
        _, sep, body = data.partition(b"\r\n\r\n")
        try:
            msg = json.loads(body) if sep else None
        except ValueError:
            return False
        if not (isinstance(msg, dict) and "method" not in msg and "id" in msg):
            return False
        if msg.get("id") != self._sent["id"]:
            return False
        if "error" in msg:
            self._rejected(msg["error"])
        if msg != self._sent:
            log.error(
                "faultlens: the initialize answer sent early differs from the server's: "
                "sent %s, the server's %s (rewrite server/capabilities.json: "
                "python -m faultlens.server.fast_init)",
                json.dumps(self._sent, sort_keys=True),
                json.dumps(msg, sort_keys=True),
            )
        self._sent = None
        return True

    def _rejected(self, error: Any) -> None:
        """The full server refused the `initialize` the early answer accepted:
        the client believes the server started, and it did not.  It is told
        (window/showMessage, an Error) and the server stops (exit status 1),
        as a client told so in the answer itself would stop it."""
        detail = error.get("message") if isinstance(error, dict) else None
        text = (
            f"faultlens could not start: it rejects this editor's initialize "
            f"({detail or error}); the server stops. Please report it with the editor's "
            f"name and version (FAULTLENS_FAST_INIT=0 answers initialize with the error)."
        )
        log.error("%s", text)
        note = {
            "jsonrpc": "2.0",
            "method": "window/showMessage",
            "params": {"type": 1, "message": text},
        }
        body = json.dumps(note).encode("utf-8")
        self._out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self._out.flush()
        self.rejected = True
        raise SystemExit(1)  # out of the server's loop, like pygls' own `exit`

    def flush(self) -> None:
        self._out.flush()

    def close(self) -> None:
        self._out.close()


# -- serving ------------------------------------------------------------------------
def serve_stdio(create: Callable[[], Server], stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Serve LSP on stdin/stdout, answering `initialize` before `create()` (which
    imports pygls) has finished.  The exit status: 1 when the full server
    rejected the initialize answered early, else 0."""
    if os.environ.get(DISABLE_ENV) == "0":
        create().start_io(stdin, stdout)
        return 0
    made: list[Server] = []
    failed: list[BaseException] = []

    def load() -> None:
        try:
            made.append(create())
        except BaseException as exc:  # re-raised on the main thread
            failed.append(exc)

    loader = threading.Thread(target=load, name="faultlens-load", daemon=True)
    loader.start()
    raw, msg = read_message(stdin)
    sent = answer(msg, load_snapshot())
    if sent is not None:
        body = json.dumps(sent, separators=(",", ":")).encode("utf-8")
        stdout.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdout.flush()
        log.info("initialize answered while the server loads")
    else:
        log.info("the first message goes to the server as it is (not a plain initialize)")
    loader.join()
    if failed:
        raise failed[0]
    out = Deduplicating(stdout, sent)
    made[0].start_io(Prefixed(raw, stdin), out)
    return 1 if out.rejected else 0


# -- the snapshot ------------------------------------------------------------------------
def take_snapshot(argv: list[str] | None = None) -> dict[str, Any]:
    """Ask the full server (the early answer switched off) for its `initialize`
    answer in push and in pull mode."""
    import subprocess

    argv = argv or [sys.executable, "-m", "faultlens.cli", "serve"]
    env = {**os.environ, DISABLE_ENV: "0"}
    results = {}
    for mode in ("push", "pull"):
        params: dict[str, Any] = {
            "processId": None,
            "rootUri": None,
            "capabilities": {"textDocument": {"diagnostic": {}}},
            "initializationOptions": {"diagnosticMode": mode},
        }
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
        data = b"Content-Length: %d\r\n\r\n" % len(body) + body.encode()
        proc = subprocess.run(argv, input=data, capture_output=True, env=env, timeout=60)
        _, msg = read_message(io.BytesIO(proc.stdout))
        if msg is None or "result" not in msg:
            raise RuntimeError(f"no initialize answer from {argv}: {proc.stderr.decode()[-500:]}")
        results[mode] = msg["result"]
    return {"versions": installed_versions(), "results": results}


def main() -> int:
    """Rewrite the snapshot from the installed server."""
    SNAPSHOT.write_text(json.dumps(take_snapshot(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {SNAPSHOT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
