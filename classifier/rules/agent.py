"""LLM API and agent errors: the prompt did not get delivered.

Context windows and output limits (with the token numbers parsed into the
hint, and a reduced `budget` for the prompt_delivery recipe), rate limits
and overloads of the LLM API, SDK timeouts, and the agent-level signals
(agent failed to respond, empty response, tool call failed, dispatch
timeout).  Formats: the Anthropic, OpenAI and Google Gen AI Python SDKs'
exceptions (which carry the provider's JSON error body) and hosts that
print the body (Claude Code's "API Error: 400 {...}").

Precedence decision: an LLM API's 429 / 529 / 5xx / timeout is
prompt_delivery (it blocks the agent's dispatch, and the recipe's
reduce-and-retry is the right response), not infra; the record carries
`hint["transient"] = True` and `retry_after` when the error says it, so the
recipe backs off before its one retry.  These rules run before the infra
family's generic network rules and before the Python traceback rule (the
SDK's exception line is claimed here; the traceback's own record for that
line is superseded).
"""

from __future__ import annotations

import re
from typing import Any

from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

PRIORITY = 40
BUDGET_RATIO = 0.8  # the recipe retries with this share of the limit

_NUM = r"(\d[\d,_]*)"


def _int(text: str) -> int:
    return int(re.sub(r"[,_]", "", text))


def _provider(line: str) -> str | None:
    low = line.lower()
    if "anthropic" in low or "'type': 'error'" in line or '"type":"error"' in line:
        return "anthropic"
    if "openai" in low or "context_length_exceeded" in line or "rate_limit_exceeded" in line:
        return "openai"
    if "google.genai" in low or "INVALID_ARGUMENT" in line or "RESOURCE_EXHAUSTED" in line:
        return "gemini"
    return None


def _sdk(line: str) -> str | None:
    m = re.search(r"\b(anthropic|openai|google\.genai\.errors)\.(\w+(?:Error|Exception))\b", line)
    return f"{m.group(1)}.{m.group(2)}" if m else None


_CONTEXT = (
    # Anthropic: "prompt is too long: 208000 tokens > 200000 maximum"
    re.compile(rf"prompt is too long: {_NUM} tokens > {_NUM} maximum"),
    # OpenAI: "maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens"
    re.compile(
        rf"maximum context length is {_NUM} tokens\. However, (?:your messages resulted in|you requested) {_NUM} tokens"
    ),
    # Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)"
    re.compile(
        rf"input token count \({_NUM}\) exceeds the maximum number of tokens allowed \({_NUM}\)"
    ),
)
_LIMIT_FIRST = (False, True, False)  # which patterns name the limit first


_NEGATED = re.compile(r"\b(?:no|not|never|without|0)\s+(?:\w+\s+)?$", re.IGNORECASE)


def budget(limit: int, ratio: float = BUDGET_RATIO) -> int:
    """The token budget the recipe retries with: a share of the limit."""
    return int(limit * ratio)


def _token_hint(line: str) -> dict[str, Any]:
    for pattern, limit_first in zip(_CONTEXT, _LIMIT_FIRST, strict=True):
        found = pattern.search(line)
        if found:
            a, b = _int(found.group(1)), _int(found.group(2))
            tokens, limit = (b, a) if limit_first else (a, b)
            return {"tokens": tokens, "limit": limit, "budget": budget(limit)}
    return {}


@rule(
    id="agent.context_too_long",
    category=FailureType.PROMPT_DELIVERY,
    tool="llm-api",
    pattern=(
        r"prompt is too long|maximum context length is|input token count \(|context_length_exceeded"
        r"|\b[Cc]ontext (?:is )?too long|context window (?:exceeded|is full)|[Tt]oken limit exceeded"
        r"|too many (?:input )?tokens"
    ),
    triggers=(
        "prompt is too long",
        "maximum context length is",
        "input token count (",
        "context_length_exceeded",
        "ontext too long",
        "ontext is too long",
        "context window",
        "oken limit exceeded",
        "too many tokens",
        "too many input tokens",
    ),
    url="https://docs.anthropic.com/en/api/errors",
    priority=PRIORITY,
)
def context_too_long(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """The prompt does not fit the model's context window.

    What it detects: Anthropic's `prompt is too long: 208000 tokens > 200000
    maximum`, OpenAI's `This model's maximum context length is 128000
    tokens. However, your messages resulted in 130000 tokens`
    (`context_length_exceeded`), Gemini's `The input token count (1200000)
    exceeds the maximum number of tokens allowed (1048576)`, as raised by
    their Python SDKs or printed by a host, and the generic "context too
    long" / "token limit exceeded".

    Example output (anthropic Python SDK 2.14.0, a 400 from the API):
        anthropic.BadRequestError: Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'prompt is too long: 208000 tokens > 200000 maximum'}}

    Recipe: prompt_delivery: reduce the scope and retry once within
    hint["budget"] (80% of hint["limit"]); hint["tokens"] is what was sent.

    References: https://docs.anthropic.com/en/api/errors, https://platform.openai.com/docs/guides/error-codes, https://ai.google.dev/gemini-api/docs/troubleshooting
    """
    line = ctx.line
    if _NEGATED.search(line[: m.start()]):
        return None  # "no token limit exceeded", "context is not too long"
    hint: dict[str, Any] = {"kind": "context", "transient": False}
    hint.update(_token_hint(line))
    provider = _provider(line)
    if provider:
        hint["provider"] = provider
    sdk = _sdk(line)
    if sdk:
        hint["exception"] = sdk
    return Hit(
        signal=line.strip(" ⎿\t"),
        code="context_length_exceeded",
        hint=hint,
    )


_MAX_TOKENS = (
    re.compile(
        rf"max_tokens: {_NUM} > {_NUM}, which is the maximum allowed number of output tokens"
    ),
    re.compile(
        rf"max_tokens is too large: {_NUM}\. This model supports at most {_NUM} completion tokens"
    ),
)


@rule(
    id="agent.max_tokens",
    category=FailureType.PROMPT_DELIVERY,
    tool="llm-api",
    pattern=r"max_tokens: \d+ > \d+|max_tokens is too large: \d+",
    triggers=("max_tokens: ", "max_tokens is too large"),
    url="https://docs.anthropic.com/en/api/errors",
    priority=PRIORITY,
)
def max_tokens(m: re.Match[str], ctx: LineContext) -> Hit:
    """The request asked for more output tokens than the model allows.

    What it detects: Anthropic's `max_tokens: 64000 > 32000, which is the
    maximum allowed number of output tokens for <model>` and OpenAI's
    `max_tokens is too large: 20000. This model supports at most 16384
    completion tokens`.

    Example output (anthropic Python SDK 2.14.0, a 400 from the API):
        anthropic.BadRequestError: Error code: 400 - {... 'message': 'max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-1-20250805'}}

    Recipe: prompt_delivery: retry once with max_tokens = hint["limit"].

    References: https://docs.anthropic.com/en/api/errors
    """
    line = ctx.line
    hint: dict[str, Any] = {"kind": "max_tokens", "transient": False}
    for pattern in _MAX_TOKENS:
        found = pattern.search(line)
        if found:
            hint.update(requested=_int(found.group(1)), limit=_int(found.group(2)))
            hint["max_tokens"] = hint["limit"]
            break
    provider = _provider(line)
    if provider:
        hint["provider"] = provider
    return Hit(signal=line.strip(" ⎿\t"), code="max_tokens", hint=hint)


_SDK_EXC = re.compile(
    r"\b(?P<sdk>anthropic|openai)\.(?P<exc>RateLimitError|OverloadedError|InternalServerError"
    r"|ServiceUnavailableError|APITimeoutError|APIConnectionError|DeadlineExceededError)\b"
)
_GENAI_EXC = re.compile(
    r"\bgoogle\.genai\.errors\.(?P<exc>ClientError|ServerError): (?P<status>\d{3}) (?P<state>[A-Z_]+)"
)
_BODY_TYPE = re.compile(
    r"['\"](?:type|code)['\"]:\s*['\"](?P<type>rate_limit_error|overloaded_error|api_error|rate_limit_exceeded"
    r"|insufficient_quota|server_error|timeout_error)['\"]"
)
_HOST_API_ERROR = re.compile(
    r"API Error:? \(?(?P<status>429|5\d\d)\b|API Error: (?P<msg>Request timed out|Connection error)"
)
_RETRY_IN = re.compile(r"(?:try again in|Retrying in) (?P<s>[\d.]+) ?s(?:econds?)?\b")
_PERMANENT_TYPES = frozenset({"insufficient_quota"})
_TRANSIENT_STATES = frozenset(
    {"RESOURCE_EXHAUSTED", "UNAVAILABLE", "DEADLINE_EXCEEDED", "INTERNAL"}
)


@rule(
    id="agent.api_error",
    category=FailureType.PROMPT_DELIVERY,
    tool="llm-api",
    pattern=(
        r"\b(?:anthropic|openai)\.(?:RateLimitError|OverloadedError|InternalServerError|ServiceUnavailableError"
        r"|APITimeoutError|APIConnectionError|DeadlineExceededError)\b"
        r"|\bgoogle\.genai\.errors\.(?:ClientError|ServerError): (?:429|5\d\d) "
        r"|API Error:? \(?(?:429|5\d\d)\b|API Error: (?:Request timed out|Connection error)"
        r"|['\"](?:type|code)['\"]:\s*['\"](?:rate_limit_error|overloaded_error|rate_limit_exceeded|insufficient_quota)['\"]"
    ),
    triggers=(
        "anthropic.",
        "openai.",
        "google.genai.errors.",
        "API Error",
        "rate_limit_error",
        "overloaded_error",
        "rate_limit_exceeded",
        "insufficient_quota",
    ),
    url="https://docs.anthropic.com/en/api/rate-limits",
    priority=PRIORITY,
)
def api_error(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """The LLM API refused or dropped the request: rate limit, overload,
    server error, timeout, connection error.

    What it detects: the SDK exceptions `anthropic.RateLimitError` /
    `OverloadedError` / `InternalServerError` / `APITimeoutError` /
    `APIConnectionError` (and openai's), `google.genai.errors.ClientError:
    429 RESOURCE_EXHAUSTED` / `ServerError: 503 UNAVAILABLE`, error bodies
    of type `rate_limit_error`, `overloaded_error`, `rate_limit_exceeded`,
    `insufficient_quota`, and a host's `API Error: 429 {...}` / `API Error:
    Request timed out.`

    Example output (anthropic Python SDK 2.14.0, a 429 from the API):
        anthropic.RateLimitError: Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': '...'}}

    Recipe: prompt_delivery, transient (except `insufficient_quota`):
    wait hint["retry_after"] seconds when given (else the backoff), then
    retry once with a reduced prompt.  A 429 from an LLM API is
    prompt_delivery, not infra (see the module docstring).

    References: https://docs.anthropic.com/en/api/rate-limits, https://platform.openai.com/docs/guides/error-codes
    """
    line = ctx.line
    hint: dict[str, Any] = {"kind": "api", "transient": True}
    status: int | None = None
    exc = _SDK_EXC.search(line)
    genai = _GENAI_EXC.search(line)
    body = _BODY_TYPE.search(line)
    host = _HOST_API_ERROR.search(line)
    if genai:
        status = int(genai.group("status"))
        if status != 429 and status < 500 and genai.group("state") not in _TRANSIENT_STATES:
            return None
        hint["exception"] = f"google.genai.errors.{genai.group('exc')}"
        hint["state"] = genai.group("state")
    elif exc:
        hint["exception"] = f"{exc.group('sdk')}.{exc.group('exc')}"
    code = re.search(r"Error code: (\d{3})", line)
    if code:
        status = int(code.group(1))
    elif host and host.group("status"):
        status = int(host.group("status"))
    if body:
        hint["error_type"] = body.group("type")
        if body.group("type") in _PERMANENT_TYPES:
            hint["transient"] = False
    kind = (
        "timeout"
        if re.search(r"Timeout|timed out", line)
        else "connection"
        if "Connection" in line
        else "api"
    )
    if status == 429 or (body and "rate_limit" in body.group("type")):
        kind = "rate_limit"
    elif status == 529 or (body and body.group("type") == "overloaded_error"):
        kind = "overloaded"
    elif status and status >= 500:
        kind = "server_error"
    hint["kind"] = kind
    if status:
        hint["status"] = status
    retry = _RETRY_IN.search(line)
    if retry:
        hint["retry_after"] = float(retry.group("s"))
    provider = _provider(line)
    if provider:
        hint["provider"] = provider
    return Hit(signal=line.strip(" ⎿\t"), code=kind, hint=hint)


_DISPATCH = (
    (
        "no_response",
        re.compile(r"\b[Aa]gent (?:\S+ )?(?:failed to respond|did not respond|not responding)"),
    ),
    ("no_response", re.compile(r"\bno response from (?:the )?agent\b", re.I)),
    (
        "empty_response",
        re.compile(r"\bempty (?:agent |model |LLM )?(?:response|reply|completion)\b", re.I),
    ),
    ("tool_call", re.compile(r"\btool call failed\b|\bTool call (?:error|failed)\b", re.I)),
    (
        "dispatch_timeout",
        re.compile(
            r"\bdispatch(?:ing)? (?:timeout|timed out)\b|\bagent dispatch timed out\b", re.I
        ),
    ),
)
_TOOL = re.compile(r"tool call failed:? (?P<tool>[\w.:-]+)", re.I)
_AGENT = re.compile(r"\b(?P<worker>worker-\d+|agent-\d+)\b")
_TASK = re.compile(r"\b(?P<task>[A-Z][A-Z0-9]+-\d+)\b")
_SECONDS = re.compile(r"within (?P<s>\d+)\s*s\b")


@rule(
    id="agent.dispatch",
    category=FailureType.PROMPT_DELIVERY,
    tool="agent",
    pattern=(
        r"\b[Aa]gent (?:\S+ )?(?:failed to respond|did not respond|not responding)"
        r"|[Nn]o response from (?:the )?agent|[Ee]mpty (?:agent |model |LLM )?(?:response|reply|completion)"
        r"|[Tt]ool call (?:failed|error)|[Dd]ispatch(?:ing)? (?:timeout|timed out)"
    ),
    triggers=(
        "failed to respond",
        "did not respond",
        "not responding",
        "o response from",
        "mpty response",
        "mpty agent",
        "mpty model",
        "mpty LLM",
        "mpty reply",
        "mpty completion",
        "ool call failed",
        "ool call error",
        "ispatch timeout",
        "ispatch timed out",
        "ispatching timeout",
        "ispatching timed out",
    ),
    url="https://docs.anthropic.com/en/docs/build-with-claude/tool-use",
    priority=PRIORITY,
)
def dispatch(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """An agent that was dispatched a prompt and did not deliver.

    What it detects: "agent failed to respond" (a dispatch timeout), "no
    response from agent", "empty response" from the agent or model, "tool
    call failed", "dispatch timeout", as agent runners and coordinators log
    them (the failure taxonomy's prompt_delivery signals).  The worker,
    task id, tool name and timeout go into the hint.

    Example output (a coordinator's dispatch log; documented format):
        [2026-01-20T10:30:00Z] worker-3: agent failed to respond within 300s (dispatch timeout)

    Recipe: prompt_delivery: reduce the prompt's scope and dispatch once
    more; a tool call failure is retried once with the tool's error in the
    prompt.

    References: https://docs.anthropic.com/en/docs/build-with-claude/tool-use
    """
    line = ctx.line
    kind = None
    for name, pattern in _DISPATCH:
        if pattern.search(line):
            kind = name
            break
    if kind is None:
        return None
    hint: dict[str, Any] = {"kind": kind, "transient": kind != "tool_call"}
    tool = _TOOL.search(line)
    if kind == "tool_call" and tool:
        hint["tool"] = tool.group("tool")
    worker = _AGENT.search(line)
    if worker:
        hint["worker"] = worker.group("worker")
    task = _TASK.search(line)
    if task:
        hint["task"] = task.group("task")
    seconds = _SECONDS.search(line)
    if seconds:
        hint["timeout_s"] = int(seconds.group("s"))
    return Hit(signal=line.strip(), code=kind, hint=hint, task=hint.get("task"))
