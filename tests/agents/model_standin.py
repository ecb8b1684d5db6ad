"""Local stand-ins for the model APIs the agent CLIs call, scripted for one test.

Each answers the first turn with one shell tool call (the command the test
gives) and every later turn with a short text, and keeps every request body,
so a test can read what the CLI sent the model (the tool result, a hook's
additional context, the tool list).  Loopback only; bounded by the test.

* `ModelStandIn`: the Anthropic Messages API (Claude Code's streamed
  `POST /v1/messages`, answered with server-sent events in the API's format).
* `GeminiStandIn`: the Gemini API (Gemini CLI's
  `POST /v1beta/models/M:streamGenerateContent?alt=sse`, a `functionCall` of
  `run_shell_command`).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

_S = TypeVar("_S", bound="_StandIn")


def _sse(events: list[tuple[str, dict[str, Any]]]) -> bytes:
    return "".join(f"event: {n}\ndata: {json.dumps(d)}\n\n" for n, d in events).encode()


def _message(block: dict[str, Any], stop: str) -> bytes:
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_standin",
            "type": "message",
            "role": "assistant",
            "model": "claude-standin",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }
    if block["type"] == "text":
        opened = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    else:
        opened = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    return _sse(
        [
            ("message_start", start),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": opened},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop},
                    "usage": {"output_tokens": 5},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
    )


def _has_tool_result(body: dict[str, Any]) -> bool:
    for m in body.get("messages", []):
        content = m.get("content")
        if isinstance(content, list) and any(c.get("type") == "tool_result" for c in content):
            return True
    return False


class _StandIn:
    """An HTTP server on loopback that records each POST and answers it with
    `self.answer(path, body) -> (content type, bytes)`."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.requests: list[dict[str, Any]] = []
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(size) or b"{}")
                standin.requests.append({"path": self.path, "body": body})
                self._send(*standin.answer(self.path, body))

            def _send(self, kind: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def answer(self, path: str, body: dict[str, Any]) -> tuple[str, bytes]:
        raise NotImplementedError

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self: _S) -> _S:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class ModelStandIn(_StandIn):
    """`with ModelStandIn("npm test") as api:` then point ANTHROPIC_BASE_URL at api.url."""

    def answer(self, path: str, body: dict[str, Any]) -> tuple[str, bytes]:
        if not path.startswith("/v1/messages") or "count_tokens" in path:
            return "application/json", b'{"input_tokens": 10}'
        if _has_tool_result(body):
            return "text/event-stream", _message({"type": "text", "text": "done"}, "end_turn")
        call = {"command": self.command, "description": "build"}
        block = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": call}
        return "text/event-stream", _message(block, "tool_use")

    def model_requests(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if "messages" in r["body"]]


class GeminiStandIn(_StandIn):
    """`with GeminiStandIn("npm test") as api:` then point GOOGLE_GEMINI_BASE_URL at api.url."""

    def answer(self, path: str, body: dict[str, Any]) -> tuple[str, bytes]:
        answered = any(
            "functionResponse" in part
            for c in body.get("contents", [])
            for part in c.get("parts", [])
        )
        if answered:
            parts: list[dict[str, Any]] = [{"text": "done"}]
        else:
            args = {"command": self.command, "description": "build"}
            parts = [{"functionCall": {"name": "run_shell_command", "args": args}}]
        reply = {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 5,
                "totalTokenCount": 15,
            },
        }
        if "alt=sse" in path:
            return "text/event-stream", f"data: {json.dumps(reply)}\r\n\r\n".encode()
        return "application/json", json.dumps(reply).encode()

    def model_requests(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if "contents" in r["body"]]
