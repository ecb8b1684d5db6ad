"""The agent rule for a request the model API rejected as it was sent: a
malformed conversation (a `tool_use` without its `tool_result`), a request
too large, any other 4xx the API answered; as the agent CLIs print them."""

from __future__ import annotations

import json
import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, NodeErrorDump, provider_of

_TOOL_PAIRING = lazy_compile(
    r"tool use concurrency issues|`tool_use` ids were found without `tool_result`"
    r"|function response turn comes immediately after a function call turn"
    r"|unexpected `tool_use_id` found in `tool_result`"
)
_TOO_LARGE = lazy_compile(
    r"Request too large \(max [\d.]+ ?[KMG]i?B\)|request_too_large|API Error: 413\b"
)
_STATUS = lazy_compile(
    r"API Error: (?P<status>4\d\d)\b|ApiError: \{\"error\":\{\"code\":(?P<code>4(?!29)\d\d),"
)
_RESULT_STATUS = lazy_compile(r'"api_error_status":(?P<status>\d{3})')


def _result_text(line: str) -> str | None:
    """The `result` of a Claude Code `--output-format json` result object."""
    try:
        event = json.loads(line)
    except ValueError:
        return None
    text = event.get("result") if isinstance(event, dict) else None
    return text if isinstance(text, str) else None


@rule(
    id="agent.request_rejected",
    category=FailureType.PROMPT_DELIVERY,
    tool="llm-api",
    pattern=(
        r"tool use concurrency issues|`tool_use` ids were found without `tool_result`"
        r"|unexpected `tool_use_id` found in `tool_result`"
        r"|Request too large \(max |request_too_large|API Error: 4\d\d\b|\"api_error_status\":\d"
        r'|ApiError: \{"error":\{"code":4(?!29)\d\d,'
    ),
    triggers=(
        "tool use concurrency issues",
        "without `tool_result`",
        "found in `tool_result`",
        "Request too large (max ",
        "request_too_large",
        "API Error: 4",
        '"api_error_status":',
        'ApiError: {"error":{"code":4',
    ),
    url="https://docs.anthropic.com/en/api/errors",
    priority=PRIORITY - 1,  # after the context and rate-limit rules: theirs is the finer kind
)
def request_rejected(m: re.Match[str], ctx: LineContext) -> Hit | NodeErrorDump | None:
    """The model API rejected the agent's request as sent (a 4xx that a
    retry of the same request cannot fix).

    What it detects: a conversation whose `tool_use` has no `tool_result`
    after it (the API's `tool_use ids were found without tool_result
    blocks`, `unexpected tool_use_id found in tool_result blocks`, which
    Claude Code prints as `API Error: 400 due to tool use concurrency
    issues.`), a request too large (413 `request_too_large`, Claude Code's
    `Request too large (max 32MB)`), any other `API Error: 4xx ...`, and
    Claude Code's `--output-format json` result object with an
    `api_error_status` (its `result` is the signal).

    Example output (`claude -p "fix the failing test"`, Claude Code 2.1.197, the API answering 400):
        API Error: 400 due to tool use concurrency issues.

    Recipe: prompt_delivery: not transient; a missing tool_result is
    repaired by resending the conversation with the last tool call
    answered (or dropped), a request too large by reducing the scope
    (attachments first) and retrying once.

    References: https://docs.anthropic.com/en/api/errors, https://docs.anthropic.com/en/docs/build-with-claude/tool-use
    """
    line = ctx.line
    text = line.strip(" ⎿\t")
    hint: dict[str, Any] = {"kind": "invalid_request", "transient": False}
    status = _RESULT_STATUS.search(line)
    if status:
        result = _result_text(line.strip())
        if result is None or not 400 <= int(status.group("status")) < 600:
            return None
        hint["status"] = int(status.group("status"))
        text = result.strip()
        if hint["status"] == 429 or hint["status"] >= 500:
            hint.update(kind="api", transient=True)
    else:
        found = _STATUS.search(line)
        if found:
            hint["status"] = int(found.group("status") or found.group("code"))
    if _TOOL_PAIRING.search(text):
        hint["kind"] = "tool_result_missing"
    elif _TOO_LARGE.search(text):
        hint.update(kind="request_too_large", status=413)
    hint["provider"] = provider_of(line) or ("gemini" if "ApiError: {" in line else "anthropic")
    # a CLI that tells the refusal again (Gemini CLI: once a caller) is one failure
    body = text[text.find('{"error"') :] if '{"error"' in text else text
    hit = Hit(signal=text[:500], code=hint["kind"], hint=hint, key=("agent.request", body))
    return NodeErrorDump(hit, ctx.line_no) if "ApiError: {" in line else hit
