"""Agent rules for a prompt that does not fit: a context window exceeded, an
output cut at max_tokens; the token numbers go into the hint, with the
reduced `budget` the prompt_delivery recipe retries with."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import NUM, PRIORITY, event_signal, parse_int, provider_of

BUDGET_RATIO = 0.8  # the recipe retries with this share of the limit


def _sdk(line: str) -> str | None:
    m = re.search(r"\b(anthropic|openai|google\.genai\.errors)\.(\w+(?:Error|Exception))\b", line)
    return f"{m.group(1)}.{m.group(2)}" if m else None


_CONTEXT = (
    # Anthropic: "prompt is too long: 208000 tokens > 200000 maximum"
    lazy_compile(rf"prompt is too long: {NUM} tokens > {NUM} maximum"),
    # Claude Code: "Prompt is too long · the request is ~208113 tokens (limit 200000)"
    lazy_compile(rf"Prompt is too long · the request is ~{NUM} tokens \(limit {NUM}\)"),
    # OpenAI: "maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens"
    lazy_compile(
        rf"maximum context length is {NUM} tokens\. However, (?:your messages resulted in|you requested) {NUM} tokens"
    ),
    # Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)"
    lazy_compile(
        rf"input token count \({NUM}\) exceeds the maximum number of tokens allowed \({NUM}\)"
    ),
)
_LIMIT_FIRST = (False, False, True, False)  # which patterns name the limit first


_NEGATED = lazy_compile(r"\b(?:no|not|never|without|0)\s+(?:\w+\s+)?$", re.IGNORECASE)


def budget(limit: int, ratio: float = BUDGET_RATIO) -> int:
    """The token budget the recipe retries with: a share of the limit."""
    return int(limit * ratio)


def _token_hint(line: str) -> dict[str, Any]:
    for pattern, limit_first in zip(_CONTEXT, _LIMIT_FIRST, strict=True):
        found = pattern.search(line)
        if found:
            a, b = parse_int(found.group(1)), parse_int(found.group(2))
            tokens, limit = (b, a) if limit_first else (a, b)
            return {"tokens": tokens, "limit": limit, "budget": budget(limit)}
    return {}


@rule(
    id="agent.context_too_long",
    category=FailureType.PROMPT_DELIVERY,
    tool="llm-api",
    pattern=(
        r"[Pp]rompt is too long|maximum context length is|input token count \(|context_length_exceeded"
        r"|\b[Cc]ontext (?:is )?too long|context window (?:exceeded|is full)|[Tt]oken limit exceeded"
        r"|too many (?:input )?tokens"
    ),
    triggers=(
        "prompt is too long",
        "Prompt is too long",
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
    provider = provider_of(line)
    if provider:
        hint["provider"] = provider
    sdk = _sdk(line)
    if sdk:
        hint["exception"] = sdk
    # the same overflow told again (a stream-json message, then its result) is one
    key = ("agent.context", hint["tokens"], hint["limit"]) if "limit" in hint else None
    return Hit(
        signal=event_signal(line, m.start()),
        code="context_length_exceeded",
        hint=hint,
        key=key,
    )


_MAX_TOKENS = (
    lazy_compile(
        rf"max_tokens: {NUM} > {NUM}, which is the maximum allowed number of output tokens"
    ),
    lazy_compile(
        rf"max_tokens is too large: {NUM}\. This model supports at most {NUM} completion tokens"
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
            hint.update(requested=parse_int(found.group(1)), limit=parse_int(found.group(2)))
            hint["max_tokens"] = hint["limit"]
            break
    provider = provider_of(line)
    if provider:
        hint["provider"] = provider
    return Hit(signal=line.strip(" ⎿\t"), code="max_tokens", hint=hint)
