"""The agent rule for an LLM API's error: rate limits, overloads, 5xx and
timeouts (transient, with `retry_after` when the error says it) and the
permanent ones, from the SDKs' exceptions and the hosts that print the
provider's JSON body."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, NodeErrorDump, provider_of

_SDK_EXC = lazy_compile(
    r"\b(?P<sdk>anthropic|openai)\.(?P<exc>RateLimitError|OverloadedError|InternalServerError"
    r"|ServiceUnavailableError|APITimeoutError|APIConnectionError|DeadlineExceededError)\b"
)
_GENAI_EXC = lazy_compile(
    r"\bgoogle\.genai\.errors\.(?P<exc>ClientError|ServerError): (?P<status>\d{3}) (?P<state>[A-Z_]+)"
)
# Gemini CLI (its bundled @google/genai): `_ApiError: {"error":{"code":429,...,"status":"RESOURCE_EXHAUSTED"}}`
_GENAI_JS = lazy_compile(
    r'ApiError: \{"error":\{"code":(?P<status>\d{3}),.*?"status":"(?P<state>[A-Z_]+)"'
)
_BODY_TYPE = lazy_compile(
    r"['\"](?:type|code)['\"]:\s*['\"](?P<type>rate_limit_error|overloaded_error|api_error|rate_limit_exceeded"
    r"|insufficient_quota|server_error|timeout_error)['\"]"
)
_HOST_API_ERROR = lazy_compile(
    r"API Error:? \(?(?P<status>429|5\d\d)\b|API Error: Request rejected \((?P<rejected>429|5\d\d)\)"
    r"|API Error: (?P<msg>Request timed out|Connection error|Unable to connect to API)"
)
_RETRY_IN = lazy_compile(r"(?:try again in|Retrying in) (?P<s>[\d.]+) ?s(?:econds?)?\b")
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
        r'|ApiError: \{"error":\{"code":(?:429|5\d\d),|\b(?:Retryable|Terminal)QuotaError: '
        r"|API Error:? \(?(?:429|5\d\d)\b|API Error: Request rejected \((?:429|5\d\d)\)"
        r"|API Error: (?:Request timed out|Connection error|Unable to connect to API)"
        r"|(?:Error when talking to Gemini API|Retrying with backoff\.\.\.) .*?\bError: exception TypeError: fetch failed"
        r"|['\"](?:type|code)['\"]:\s*['\"](?:rate_limit_error|overloaded_error|rate_limit_exceeded|insufficient_quota)['\"]"
    ),
    triggers=(
        "anthropic.",
        "openai.",
        "google.genai.errors.",
        'ApiError: {"error":{"code":',
        "QuotaError: ",
        "API Error",
        "TypeError: fetch failed",
        "rate_limit_error",
        "overloaded_error",
        "rate_limit_exceeded",
        "insufficient_quota",
    ),
    url="https://docs.anthropic.com/en/api/rate-limits",
    priority=PRIORITY,
)
def api_error(m: re.Match[str], ctx: LineContext) -> Hit | NodeErrorDump | None:
    """The LLM API refused or dropped the request: rate limit, overload,
    server error, timeout, connection error.

    What it detects: the SDK exceptions `anthropic.RateLimitError` /
    `OverloadedError` / `InternalServerError` / `APITimeoutError` /
    `APIConnectionError` (and openai's), `google.genai.errors.ClientError:
    429 RESOURCE_EXHAUSTED` / `ServerError: 503 UNAVAILABLE`, error bodies
    of type `rate_limit_error`, `overloaded_error`, `rate_limit_exceeded`,
    `insufficient_quota`, a host's `API Error: 429 {...}` / `API Error:
    Request timed out.`, and Gemini CLI's `Error when talking to Gemini API
    … Error: exception TypeError: fetch failed sending request` (a dropped
    connection, after its `Attempt N failed. Retrying with backoff...`
    lines: one failure) and its QuotaErrors, whose own `status` (printed
    under them) says what they wrap: a 429, or a 503 overload.

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
    genai = _GENAI_EXC.search(line) or _GENAI_JS.search(line)
    body = _BODY_TYPE.search(line)
    host = _HOST_API_ERROR.search(line)
    if genai:
        status = int(genai.group("status"))
        if status != 429 and status < 500 and genai.group("state") not in _TRANSIENT_STATES:
            return None
        exc_name = genai.groupdict().get("exc")
        hint["exception"] = f"google.genai.errors.{exc_name}" if exc_name else "ApiError"
        hint["state"] = genai.group("state")
    elif exc:
        hint["exception"] = f"{exc.group('sdk')}.{exc.group('exc')}"
    code = re.search(r"Error code: (\d{3})", line)
    if code:
        status = int(code.group(1))
    elif host and (host.group("status") or host.group("rejected")):
        status = int(host.group("status") or host.group("rejected"))
    if body:
        hint["error_type"] = body.group("type")
        if body.group("type") in _PERMANENT_TYPES:
            hint["transient"] = False
    kind = (
        "timeout"
        if re.search(r"Timeout|timed out", line)
        else "connection"
        if "Connection" in line or "Unable to connect" in line or "fetch failed" in line
        else "api"
    )
    quota = re.search(r"\b(Retryable|Terminal)QuotaError: ", line)
    if quota:  # Gemini CLI's own errors for a 429 it retried / gave up on
        status = 429
        hint["exception"] = f"{quota.group(1)}QuotaError"
        hint["transient"] = quota.group(1) == "Retryable"
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
    provider = provider_of(line)
    if provider:
        hint["provider"] = provider
    # a CLI that retries tells the same refusal once an attempt: one failure
    hit = Hit(
        signal=line.strip(" ⎿\t"), code=kind, hint=hint, key=("agent.api_error", kind, status)
    )
    if quota:
        return _QuotaErrorDump(hit, ctx.line_no)  # its stack and `{ ..., status: 503 }` follow
    if genai is not None and "ApiError: {" in line:
        return NodeErrorDump(hit, ctx.line_no)  # its stack and `{ status: 429 }` follow
    return hit


_OWN_STATUS = lazy_compile(r"^  status: (?P<status>\d{3}),?$")


class _QuotaErrorDump(NodeErrorDump):
    """Gemini CLI's RetryableQuotaError / TerminalQuotaError: what it wraps
    is in the error's own `status` (a 503 `The model is overloaded` too,
    not only a 429): the record takes it, so it is one failure with the
    attempts' `ApiError` of that status."""

    def feed(self, line: str, line_no: int) -> bool:
        took = super().feed(line, line_no)
        own = _OWN_STATUS.match(line) if took else None
        if own is not None:
            status = int(own.group("status"))
            hint = self.hit.hint
            kind = (
                "rate_limit"
                if status == 429
                else "overloaded"
                if status == 529
                else "server_error"
                if status >= 500
                else str(hint.get("kind"))
            )
            hint.update(status=status, kind=kind)
            self.hit.code = kind
            self.hit.key = ("agent.api_error", kind, status)
        return took
