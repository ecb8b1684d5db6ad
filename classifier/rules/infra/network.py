"""The generic network rule: a refused, reset, unresolved or timed-out
connection or an HTTP error on any line, after every other family."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, lines_above
from ..registry import rule
from .common import (
    NETWORK_PRIORITY,
    host_of,
    http_kind,
    infra_hint,
)

# -- generic network -----------------------------------------------------------

_NET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dns", lazy_compile(r"Could not resolve host:? '?(?P<host>[\w.-]+)")),
    ("dns", lazy_compile(r"getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?P<host>[\w.-]+)")),
    # the JVM's cause at the end of a chain (Maven's, Gradle's `Caused by:`)
    ("dns", lazy_compile(r"UnknownHostException: (?P<host>[\w.-]+)")),
    (
        "dns",
        lazy_compile(
            r"Temporary failure in name resolution|Name or service not known|nodename nor servname provided|no such host"
        ),
    ),
    ("refused", lazy_compile(r"connect ECONNREFUSED (?P<host>[\w.:\[\]-]+)")),
    (
        "refused",
        lazy_compile(
            r"(?:dial tcp (?P<host>[\w.:\[\]-]+): )?connect: connection refused|Connection refused|connection refused"
        ),
    ),
    (
        "reset",
        lazy_compile(r"Connection reset by peer|read ECONNRESET|socket hang up|connection reset"),
    ),
    (
        "timeout",
        lazy_compile(
            r"connect ETIMEDOUT (?P<host>[\w.:\[\]-]+)|Connection timed out|Operation timed out|i/o timeout"
        ),
    ),
    ("refused", lazy_compile(r"Network is unreachable|No route to host|ENETUNREACH|EHOSTUNREACH")),
    (
        "tls",
        lazy_compile(
            r"SSL certificate problem: .+|certificate verify failed|CERT_HAS_EXPIRED|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|x509: certificate"
        ),
    ),
    (
        "http",
        lazy_compile(
            r"\b(?:HTTP(?:/[\d.]+)?|[Ss]tatus(?: code)?:?|returned error:?|responded with) (?P<status>5\d\d|429)\b"
        ),
    ),
    (
        "http",
        lazy_compile(
            r"\b(?P<status>5\d\d|429) (?:Service Unavailable|Bad Gateway|Gateway Time-?out|Internal Server Error|Too Many Requests)\b"
        ),
    ),
)
_URL = lazy_compile(r"(?:https?|ssh|git)://[^\s'\"<>)]+")
# The header Node.js prints above the source line of an uncaught error's
# throw site (`file:///app/db.js:2`, `/app/db.js:2`): the line under it is
# code quoted from the program, not something that happened.
_THROW_SITE_HEADER = lazy_compile(r"^\S+\.[cm]?[jt]sx?:\d+$")
# A tool's own usage statistics that did not upload: the error is the
# telemetry's, not the run's (Gemini CLI's ClearcutLogger, offline)
_TELEMETRY_ERRORS = ("Error flushing log events: ",)


def _in_telemetry_error(ctx: LineContext) -> bool:
    """The line belongs to a telemetry upload's error: it is that line, or
    an indented line of the error printed under it."""
    if ctx.line.startswith(_TELEMETRY_ERRORS):
        return True
    if not ctx.line[:1].isspace():
        return False
    for above in lines_above(ctx, 12):
        if not above[:1].isspace():
            return above.startswith(_TELEMETRY_ERRORS)
    return False


_STATUS_PREFIXES = (
    "HTTP",
    "HTTP/1.0",
    "HTTP/1.1",
    "HTTP/2",
    "HTTP/2.0",
    "HTTP/3",
    "HTTP/3.0",
    "tatus",
    "tatus:",
    "tatus code",
    "tatus code:",
)


@rule(
    id="infra.network",
    category=FailureType.INFRA,
    tool="network",
    pattern=(
        r"Could not resolve host|getaddrinfo E|Temporary failure in name resolution|Name or service not known"
        r"|nodename nor servname provided|no such host|UnknownHostException: |ECONNREFUSED|[Cc]onnection refused|Connection reset by peer"
        r"|ECONNRESET|socket hang up|connection reset|ETIMEDOUT|Connection timed out|Operation timed out|i/o timeout"
        r"|Network is unreachable|No route to host|ENETUNREACH|EHOSTUNREACH|SSL certificate problem"
        r"|certificate verify failed|CERT_HAS_EXPIRED|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN"
        r"|DEPTH_ZERO_SELF_SIGNED_CERT|x509: certificate"
        r"|\b(?:HTTP(?:/(?:1\.[01]|[23](?:\.0)?))?|[Ss]tatus(?: code)?:?|returned error:?|responded with) (?:5\d\d|429)\b"
        r"|\b(?:5\d\d|429) (?:Service Unavailable|Bad Gateway|Gateway Time-?out|Internal Server Error|Too Many Requests)\b"
    ),
    triggers=(
        "resolve host",
        "getaddrinfo E",
        "name resolution",
        "Name or service not known",
        "nodename nor servname",
        "no such host",
        "UnknownHostException: ",
        "ECONNREFUSED",
        "onnection refused",
        "Connection reset by peer",
        "ECONNRESET",
        "socket hang up",
        "connection reset",
        "ETIMEDOUT",
        "Connection timed out",
        "Operation timed out",
        "i/o timeout",
        "Network is unreachable",
        "No route to host",
        "ENETUNREACH",
        "EHOSTUNREACH",
        "SSL certificate problem",
        "certificate verify failed",
        "CERT_HAS_EXPIRED",
        "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
        "SELF_SIGNED_CERT_IN_CHAIN",
        "DEPTH_ZERO_SELF_SIGNED_CERT",
        "x509: certificate",
        # An HTTP status is only a failure as 5xx or 429 right after HTTP/x or
        # "status": the triggers spell those prefixes out, so request logs
        # (`"GET / HTTP/1.1" 200`) never reach the pattern.
        *(f"{p} {c}" for p in _STATUS_PREFIXES for c in ("5", "429")),
        "returned error",
        "responded with",
        "Service Unavailable",
        "Bad Gateway",
        "Gateway Time",
        "Internal Server Error",
        "Too Many Requests",
    ),
    url="https://man7.org/linux/man-pages/man3/errno.3.html",
    priority=NETWORK_PRIORITY,
)
def network(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A network failure printed by any program (the generic net).

    What it detects: DNS failures (`Could not resolve host: x`, `getaddrinfo
    ENOTFOUND x`, `Temporary failure in name resolution`), connection
    refused / reset / timed out (`connect ECONNREFUSED 127.0.0.1:5432`,
    `Connection reset by peer`, `i/o timeout`), unreachable networks, TLS
    certificate problems and HTTP 5xx / 429 statuses, e.g. git's `fatal:
    unable to access 'https://x/': Could not resolve host: x`.  Lines of one
    outage (same kind, same host) are one record.  A line of source code
    Node.js quotes under an uncaught error's throw site (`throw new
    Error('connection refused')` under `file:///app/db.js:2`) is not one:
    node.uncaught reads the error itself.  Nor is a tool's usage-statistics
    upload that failed (Gemini CLI's `Error flushing log events: TypeError:
    fetch failed` and its `[cause]: Error: getaddrinfo ENOTFOUND …`).

    Example output (`git ls-remote https://git.example.invalid/team/app.git`, git 2.39.5):
        fatal: unable to access 'https://git.example.invalid/team/app.git/': Could not resolve host: git.example.invalid

    Recipe: infra: DNS, refused, reset, timeouts, 5xx and 429 are transient
    (backoff retry); TLS problems are permanent (escalated with the host).

    References: https://man7.org/linux/man-pages/man3/errno.3.html
    """
    line = ctx.line
    before = ctx.before(1)
    if before and _THROW_SITE_HEADER.match(before[0]):
        return None
    if _in_telemetry_error(ctx):
        return None
    kind, host, status = "network", None, None
    for k, pattern in _NET_PATTERNS:
        found = pattern.search(line)
        if found is None:
            continue
        kind = k
        groups = found.groupdict()
        host = groups.get("host")
        if groups.get("status"):
            status = int(groups["status"])
            kind = http_kind(status)
        break
    url = _URL.search(line)
    if host is None and url:
        host = host_of(url.group(0))
    return Hit(
        signal=line.strip(),
        hint=infra_hint(
            kind, host=host, status=status, url=url.group(0).rstrip("/.,:") if url else None
        ),
        key=("network", kind, host or ""),
    )
