"""Infra rules for the network as one client reports it: curl, npm, pip."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..registry import rule
from .common import (
    PRIORITY,
    host_of,
    http_kind,
    infra_hint,
)

# -- HTTP clients and package managers --------------------------------------------

_CURL_KINDS = {
    5: "dns",  # could not resolve proxy
    6: "dns",
    7: "refused",
    28: "timeout",
    35: "tls",
    51: "tls",
    52: "reset",
    53: "tls",
    54: "tls",
    55: "reset",
    56: "reset",
    58: "tls",
    59: "tls",
    60: "tls",
    77: "tls",
    83: "tls",
    90: "tls",
    91: "tls",
}
_CURL_HOST = lazy_compile(
    r"resolve host: (?P<h1>[\w.-]+)|connect to (?P<h2>[\w.:\[\]-]+) port (?P<port>\d+)|Could not resolve proxy: (?P<h3>[\w.-]+)"
)


@rule(
    id="infra.curl",
    category=FailureType.INFRA,
    tool="curl",
    pattern=r"^curl: \((?P<code>\d+)\) (?P<message>.+)$",
    triggers=("curl: (",),
    url="https://curl.se/libcurl/c/libcurl-errors.html",
    priority=PRIORITY,
)
def curl(m: re.Match[str], ctx: LineContext) -> Hit:
    """curl's own error line, `curl: (N) message`.

    What it detects: every curl exit error: (6) could not resolve host, (7)
    failed to connect (refused), (28) operation timed out, (22) the
    requested URL returned error: 503 (with `-f`), (35)/(60) TLS / SSL
    certificate problems, (52)/(56) empty reply / connection reset.

    Example output (`curl -fsS http://127.0.0.1:18503/healthz`, curl 7.88.1):
        curl: (22) The requested URL returned error: 503

    Recipe: infra: DNS, refused, reset, timeout, HTTP 5xx and 429 are
    transient (backoff retry 1 s, 2 s, 4 s); TLS problems and other 4xx are
    permanent and escalated with the host / status.

    References: https://curl.se/libcurl/c/libcurl-errors.html
    """
    code = int(m.group("code"))
    message = m.group("message").strip()
    status = re.search(r"returned error: (\d{3})", message)
    kind = _CURL_KINDS.get(code, "http" if status else "network")
    if status:
        kind = http_kind(int(status.group(1)))
    h = _CURL_HOST.search(message)
    host = None
    if h:
        host = h.group("h1") or h.group("h3") or f"{h.group('h2')}:{h.group('port')}"
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        code=f"curl{code}",
        hint=infra_hint(
            kind, host=host, status=int(status.group(1)) if status else None, curl_exit=code
        ),
    )


_NPM_NETWORK = ("ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH")
_NPM_KIND = {
    "ECONNREFUSED": "refused",
    "ECONNRESET": "reset",
    "ETIMEDOUT": "timeout",
    "ENOTFOUND": "dns",
    "EAI_AGAIN": "dns",
    "ENETUNREACH": "refused",
}
_NPM_FETCH = lazy_compile(r"request to (?P<url>\S+) failed, reason: (?P<reason>.+)$")


class _NpmBlock:
    """The `npm error ...` lines that follow `npm error code E...`."""

    max_lines = 60

    def __init__(self, code: str, ctx: LineContext) -> None:
        self.code = code
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.url: str | None = None
        self.reason: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if not line.startswith(("npm error", "npm ERR!")):
            return False
        f = _NPM_FETCH.search(line)
        if f and self.url is None:
            self.url, self.reason = f.group("url"), f.group("reason").strip()
        return True

    def finish(self) -> Iterable[Hit]:
        kind = _NPM_KIND.get(self.code, "network")
        message = f"npm: request to {self.url} failed: {self.reason}" if self.url else self.signal
        yield Hit(
            signal=self.signal,
            message=message,
            code=self.code,
            log_line=self.log_line,
            hint=infra_hint(kind, host=host_of(self.url) if self.url else None, url=self.url),
        )


@rule(
    id="infra.npm_network",
    category=FailureType.INFRA,
    tool="npm",
    pattern=r"^npm (?:error|ERR!) code (?P<code>" + "|".join(_NPM_NETWORK) + r")\s*$",
    triggers=("npm error code E", "npm ERR! code E"),
    url="https://docs.npmjs.com/common-errors",
    priority=PRIORITY,
)
def npm_network(m: re.Match[str], ctx: LineContext) -> Block:
    """npm cannot reach its registry.

    What it detects: `npm error code ECONNREFUSED` (ECONNRESET, ETIMEDOUT,
    ENOTFOUND, EAI_AGAIN) and the `npm error` lines after it, of which
    `FetchError: request to URL failed, reason: ...` names the registry; the
    whole report is one record.

    Example output (`npm view left-pad --registry http://127.0.0.1:9/`, npm 10):
        npm error code ECONNREFUSED
        npm error FetchError: request to http://127.0.0.1:9/left-pad failed, reason: connect ECONNREFUSED 127.0.0.1:9

    Recipe: infra, transient: backoff retry; the registry host is in the
    hint for the escalation when it persists (proxy, .npmrc registry).

    References: https://docs.npmjs.com/common-errors
    """
    return _NpmBlock(m.group("code"), ctx)


@rule(
    id="infra.pip_network",
    category=FailureType.INFRA,
    tool="pip",
    pattern=(
        r"WARNING: Retrying \(Retry\(total=\d+.*after connection broken by '(?P<exc>\w+)\((?P<message>.*)\)': (?P<path>\S+)"
        r"|^ERROR: (?:Could not find a version that satisfies the requirement|No matching distribution found for) (?P<req>\S+)"
    ),
    triggers=(
        "after connection broken by",
        "ERROR: Could not find a version",
        "ERROR: No matching distribution",
    ),
    url="https://pip.pypa.io/en/stable/topics/configuration/",
    priority=PRIORITY,
)
def pip_network(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """pip cannot reach its package index.

    What it detects: pip's `WARNING: Retrying (Retry(total=N, ...)) after
    connection broken by 'NewConnectionError(...: [Errno 111] Connection
    refused)': /simple/pkg/`, and the `ERROR: Could not find a version
    that satisfies the requirement` / `No matching distribution found` that
    follow it (the package is not missing: the index was unreachable).
    Without a connection warning before it, "No matching distribution" is
    left to the other rules (a wrong package name is not infra).

    Example output (`pip download --index-url http://127.0.0.1:9/simple requests`, pip 23.2):
        WARNING: Retrying (Retry(total=0, ...)) after connection broken by 'NewConnectionError(...: Failed to establish a new connection: [Errno 111] Connection refused')': /simple/requests/

    Recipe: infra, transient: backoff retry; the index URL (from the
    "Looking in indexes:" line) is in the hint.

    References: https://pip.pypa.io/en/stable/topics/configuration/
    """
    before = ctx.before(60)
    index = None
    for prev in reversed(before):
        if prev.startswith("Looking in indexes: "):
            index = prev.split(": ", 1)[1].split(",")[0].strip()
            break
    if m.group("req") and not any("after connection broken by" in p for p in before):
        return None
    text = m.group("message") or ""
    kind = "refused"
    if "Name or service not known" in text or "resolution" in text:
        kind = "dns"
    elif "timed out" in text.lower() or "Timeout" in (m.group("exc") or ""):
        kind = "timeout"
    return Hit(
        signal=ctx.line.strip(),
        message=f"pip cannot reach the package index {index or ''}".strip(),
        hint=infra_hint(kind, host=host_of(index) if index else None, index=index),
        key=("pip-network", index or ""),
    )
