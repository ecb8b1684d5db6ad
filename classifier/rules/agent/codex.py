"""The agent rule for Codex CLI's own report that a turn failed: `codex exec`
prints the error that ended the turn as `ERROR: …` (twice: as the event and
as the turn's last message), `codex exec --json` as an `error` event and a
`turn.failed` event; the model API's answer is in it (its status, its body,
or Codex's own words for a context window that ran out)."""

from __future__ import annotations

import json
import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY

# what ended the turn, as codex-rs/core's errors word it (CodexErr's Display)
_CONTEXT = lazy_compile(r"ran out of room in the model's context window")
_RETRY_LIMIT = lazy_compile(r"exceeded retry limit, last status: (?P<status>\d{3})")
_UNEXPECTED = lazy_compile(r"unexpected status (?P<status>\d{3})\b")
_DROPPED = lazy_compile(r"stream disconnected before completion: (?P<why>.+)")
_BODY = lazy_compile(r'^\{"error": ?\{')
_TOOL_OUTPUT_MISSING = lazy_compile(r"No tool output found for function call|function_call_output")
_JSON_EVENT = lazy_compile(r'^\{"type":"(?:turn\.failed|error)",')


def _event_message(line: str) -> str | None:
    """The message of a `codex exec --json` `error` / `turn.failed` event."""
    try:
        event = json.loads(line)
    except ValueError:
        return None
    if not isinstance(event, dict):
        return None
    error = event.get("error") if event.get("type") == "turn.failed" else event
    message = error.get("message") if isinstance(error, dict) else None
    return message if isinstance(message, str) else None


def _body_error(message: str) -> dict[str, Any] | None:
    """The `error` object of the API's JSON body Codex printed as it came."""
    try:
        body = json.loads(message)
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, dict) else None


class _RetryNotice:
    """`Reconnecting... 2/5 (…)`: Codex retrying; the turn's own error
    follows when the retries run out.  The line is claimed (the generic
    network rule would file its `429 Too Many Requests`) and gives nothing."""

    max_lines = 1

    def feed(self, line: str, line_no: int) -> bool:
        return False

    def finish(self) -> list[Hit]:
        return []


_RETRYING = "Reconnecting... "


def _kind(message: str) -> dict[str, Any] | None:
    """The hint for what ended the turn, or None for a message that is not
    a failure of the request (a warning)."""
    if _CONTEXT.search(message):
        return {"kind": "context", "transient": False}
    found = _RETRY_LIMIT.search(message) or _UNEXPECTED.search(message)
    if found:
        status = int(found.group("status"))
        kind = (
            "rate_limit"
            if status == 429
            else "overloaded"
            if status in (503, 529)
            else "server_error"
            if status >= 500
            else "invalid_request"
        )
        return {"kind": kind, "status": status, "transient": status == 429 or status >= 500}
    dropped = _DROPPED.search(message)
    if dropped:
        return {"kind": "connection", "transient": True, "reason": dropped.group("why").strip()}
    error = _body_error(message) if _BODY.search(message) else None
    if error is not None:
        hint: dict[str, Any] = {"kind": "invalid_request", "transient": False}
        text = str(error.get("message") or "")
        if _TOOL_OUTPUT_MISSING.search(text):
            hint["kind"] = "tool_result_missing"
        for field in ("type", "code", "param"):
            if error.get(field):
                hint[f"error_{field}"] = error[field]
        hint["api_message"] = text[:500]
        return hint
    return None


@rule(
    id="agent.codex",
    category=FailureType.PROMPT_DELIVERY,
    tool="codex",
    pattern=(
        r"^ERROR: (?:exceeded retry limit, last status: \d{3}|unexpected status \d{3}\b"
        r"|stream disconnected before completion: |Codex ran out of room in the model's context"
        r'|\{"error": ?\{|Reconnecting\.\.\. \d+/\d+)'
        r'|^\{"type":"(?:turn\.failed|error)",'
    ),
    triggers=(
        "ERROR: exceeded retry limit",
        "ERROR: unexpected status ",
        "ERROR: stream disconnected",
        "ERROR: Codex ran out of room",
        'ERROR: {"error":',
        "ERROR: Reconnecting... ",
        '{"type":"turn.failed",',
        '{"type":"error",',
    ),
    url="https://developers.openai.com/codex/noninteractive",
    priority=PRIORITY + 1,  # before the generic network rules and the other API rules
)
def codex(m: re.Match[str], ctx: LineContext) -> Hit | _RetryNotice | None:
    """Codex CLI's turn ended because the model API did not take the request.

    What it detects: `codex exec`'s `ERROR: exceeded retry limit, last
    status: 429 Too Many Requests`, `ERROR: unexpected status 503 Service
    Unavailable: …, url: …`, `ERROR: stream disconnected before
    completion: …` (a dropped connection, after its retries), `ERROR: Codex
    ran out of room in the model's context window. …`, and the API's JSON
    body printed as it came (`ERROR: {"error": {"message": "No tool output
    found for function call …", "type": "invalid_request_error", …}}`: a
    400); `codex exec --json`'s `{"type":"error",…}` and
    `{"type":"turn.failed","error":{"message":…}}` with the same messages.
    `Reconnecting... N/M` lines are retries, not failures; the turn's error
    told twice (the event, the turn's end) is one failure.

    Example output (`codex exec "fix the failing test"`, Codex CLI 0.171.0, the API answering 429):
        ERROR: exceeded retry limit, last status: 429 Too Many Requests

    Recipe: prompt_delivery: a 429, 5xx or dropped connection is transient
    (Codex already retried: back off, then retry once); a context window
    that ran out is reduced and resent; a 400 is repaired (a missing
    function_call_output answered or dropped), never resent as it was.

    References: https://developers.openai.com/codex/noninteractive, https://platform.openai.com/docs/guides/error-codes
    """
    line = ctx.line.strip()
    json_event = _JSON_EVENT.search(line)
    message = _event_message(line) if json_event else line.removeprefix("ERROR: ")
    if not message:
        return None
    if message.startswith(_RETRYING):
        return _RetryNotice()
    hint = _kind(message)
    if hint is None:
        return None
    hint["provider"] = "openai"
    return Hit(
        signal=message[:500],
        message=message[:500],
        code=hint["kind"],
        hint=hint,
        key=("agent.codex", hint["kind"], hint.get("status")),
    )
