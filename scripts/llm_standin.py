"""A local stand-in for a model API on 127.0.0.1, answering from a script.

    python3 scripts/llm_standin.py PORT SCRIPT.json [--log requests.log]

SCRIPT.json is a list of answers, one per request in order (the last one
repeats), each an object:

    {"status": 429, "headers": {"retry-after": "3"}, "body": {...}}  a JSON answer
    {"sse": "anthropic", "text": "done"}                             a streamed answer
    {"sse": "anthropic", "tool": {"name": "Bash", "input": {...}}}   a streamed tool call
    {"sse": "openai", "text": "done"}                                a Responses API stream (Codex CLI)
    {"sse": "openai", "fail": {"code": "...", "message": "..."}}     a stream that ends in response.failed
    {"sse": "gemini", "text": "done"}                                a Gemini API answer (Gemini CLI): a
                                                                     stream for `:streamGenerateContent?alt=sse`,
                                                                     one JSON object for `:generateContent`
    {"drop": true}                                                   close the connection unanswered
    {"hang": 30}                                                     accept, answer nothing for N seconds

It serves until killed (the capture kills its process group) and never
binds anything but loopback.  Used to capture the agent CLIs' own output
(tests/samples/agent/, tests/samples/mcp/) with the exact answer recorded in
each sample's cmd.txt.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _anthropic_sse(text: str, tool: dict[str, Any] | None = None) -> bytes:
    """A Messages API stream: one text block, or one tool_use block when
    `tool` is given ({"name": ..., "input": {...}})."""
    if tool is not None:
        block: dict[str, Any] = {
            "type": "tool_use",
            "id": "toolu_standin01",
            "name": tool["name"],
            "input": {},
        }
        delta: dict[str, Any] = {
            "type": "input_json_delta",
            "partial_json": json.dumps(tool.get("input", {})),
        }
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": text}
        stop = "end_turn"
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_standin",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
        ),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        ),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events
    )


def _openai_sse(text: str, fail: dict[str, Any] | None = None) -> bytes:
    """A Responses API stream (POST /v1/responses, `stream: true`): one
    message with one output_text part, ending in response.completed, or in
    response.failed carrying `fail` as the response's error."""
    rid, mid = "resp_standin", "msg_standin"
    item: dict[str, Any] = {
        "id": mid,
        "type": "message",
        "role": "assistant",
        "status": "completed",
    }
    part = {"type": "output_text", "text": text, "annotations": []}
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    base = {"id": rid, "object": "response", "model": "gpt-5", "output": []}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**base, "status": "in_progress"}},
    ]
    if fail is not None:
        events.append(
            {"type": "response.failed", "response": {**base, "status": "failed", "error": fail}}
        )
    else:
        events += [
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {**item, "content": []},
            },
            {
                "type": "response.output_text.delta",
                "item_id": mid,
                "output_index": 0,
                "content_index": 0,
                "delta": text,
            },
            {
                "type": "response.output_item.done",
                "output_index": 0,
                "item": {**item, "content": [part]},
            },
            {
                "type": "response.completed",
                "response": {
                    **base,
                    "status": "completed",
                    "output": [{**item, "content": [part]}],
                    "usage": usage,
                },
            },
        ]
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def _gemini(text: str, stream: bool) -> tuple[str, bytes]:
    """A generateContent answer: (content type, body)."""
    answer = {
        "candidates": [
            {
                "content": {"parts": [{"text": text}], "role": "model"},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-standin",
    }
    if stream:
        return "text/event-stream", f"data: {json.dumps(answer)}\n\n".encode()
    return "application/json", json.dumps(answer).encode()


class _Script:
    def __init__(self, answers: list[dict[str, Any]], log: str | None) -> None:
        self.answers = answers
        self.count = 0
        self.log = log

    def next(self, path: str) -> dict[str, Any]:
        answer = self.answers[min(self.count, len(self.answers) - 1)]
        self.count += 1
        if self.log:
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(f"{self.count} POST {path}\n")
        return answer


def _handler(script: _Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # model lists, health checks
            self._send(200, {"data": [], "object": "list"}, {})

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            answer = script.next(self.path)
            if answer.get("drop"):
                self.connection.shutdown(socket.SHUT_RDWR)
                self.connection.close()
                return
            if answer.get("hang"):
                time.sleep(float(answer["hang"]))
                return
            if answer.get("sse") == "gemini":
                ctype, data = _gemini(str(answer.get("text", "ok")), "alt=sse" in self.path)
                self.send_response(int(answer.get("status", 200)))
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            if answer.get("sse") in ("anthropic", "anthropic-text", "openai"):
                if answer["sse"] == "openai":
                    data = _openai_sse(str(answer.get("text", "ok")), answer.get("fail"))
                else:
                    data = _anthropic_sse(str(answer.get("text", "ok")), answer.get("tool"))
                self.send_response(int(answer.get("status", 200)))
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            self._send(int(answer["status"]), answer.get("body", {}), answer.get("headers", {}))

        def _send(self, status: int, body: Any, headers: dict[str, str]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: llm_standin.py PORT SCRIPT.json [--log FILE]", file=sys.stderr)
        return 2
    port = int(argv[0])
    with open(argv[1], encoding="utf-8") as f:
        answers = json.load(f)
    if not isinstance(answers, list) or not answers:
        print("llm_standin.py: the script must be a non-empty JSON list", file=sys.stderr)
        return 2
    log = argv[argv.index("--log") + 1] if "--log" in argv else None
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(_Script(answers, log)))
    server.daemon_threads = True
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
