"""The cause a test runner's report names, whatever the language.

A test that fails because a service did not answer or a variable is not
set is not a failing test: the cause is the environment (infra), and the
recipe that helps is the infra one (a backoff retry for a refused
connection; a human for a missing variable).  These helpers read that
cause from the text of a report (the error message, the messages of
chained errors, the source lines shown) and say what the record's hint
needs: `kind`, `transient`, `host` (host:port as printed), `port`,
`variable`.

The test-runner rules of every family call them (python_causes.py and
js_causes.py add what is particular to one language: NameError,
ReferenceError, a missing module).  Pure functions of text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType

# -- network -------------------------------------------------------------------
# What a refused, reset or timed-out connection or a failed name lookup says,
# in Python (errno text, requests/urllib3/httpx/aiohttp/psycopg/redis), Node
# (libuv codes), Go (net package errors), Rust (io::Error's Display and Debug
# forms), Java (java.net's exceptions), Erlang and Elixir (inet's error
# atoms: `{:error, :econnrefused}`, `:nxdomain`) and the C library.  A test runner's own timeout ("Timeout of 2000ms
# exceeded", "Exceeded timeout of 5000 ms") is not here: it says a test hung.
_NET_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "refused",
        lazy_compile(
            r"ECONNREFUSED|[Cc]onnection refused|ConnectionRefused|Connect call failed"
            r"|os error 111\b|\[Errno 111\]|actively refused|:econnrefused\b"
        ),
    ),
    ("reset", lazy_compile(r"ECONNRESET|[Cc]onnection reset|ConnectionReset|socket hang up|EPIPE")),
    (
        "dns",
        lazy_compile(
            r"ENOTFOUND|EAI_AGAIN|getaddrinfo failed|Name or service not known|nodename nor servname"
            r"|Temporary failure in name resolution|[Nn]o such host|[Cc]ould not resolve host"
            r"|failed to lookup address|UnknownHost(?:Exception)?\b|:nxdomain\b"
        ),
    ),
    (
        "timeout",
        lazy_compile(
            r"ETIMEDOUT|ESOCKETTIMEDOUT|[Cc]onnection timed out|[Cc]onnect(?:ion)? ?[Tt]imeout|i/o timeout"
            r"|ConnectTimeout|ReadTimeout|Read timed out|os error 110\b|\[Errno 110\]|TimedOut"
        ),
    ),
    (
        "unreachable",
        lazy_compile(
            r"ENETUNREACH|EHOSTUNREACH|[Nn]etwork is unreachable|[Nn]o route to host"
            r"|:e(?:net|host)unreach\b"
        ),
    ),
)
# Literal text one of the patterns above needs: most reports have none, and
# then no regex runs.
_NET_NEEDLES = (
    "ECONN",
    "onnection",
    "Connect",
    "os error 11",
    "Errno 11",
    "refused",
    "EPIPE",
    "hang up",
    "ENOTFOUND",
    "EAI_AGAIN",
    "getaddrinfo",
    "service not known",
    "servname",
    "name resolution",
    "o such host",
    "resolve",
    "UnknownHost",
    ":econnrefused",
    ":nxdomain",
    "unreach",
    "TIMEDOUT",
    "timed out",
    "imeout",
    "UNREACH",
    "unreachable",
    "route to host",
    "TimedOut",
)

_HOST = r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*)"
# Where the address is named, most specific first.
_ADDRESSES: tuple[re.Pattern[str], ...] = (
    # Node: "connect ECONNREFUSED 127.0.0.1:5432", "getaddrinfo ENOTFOUND db.internal"
    lazy_compile(r"\b(?:connect|read|write) E[A-Z]+ " + _HOST + r":(?P<port>\d{1,5})\b"),
    lazy_compile(r"\bgetaddrinfo E[A-Z_]+ " + _HOST),
    # Java: "java.net.UnknownHostException: db.internal: Name or service not known"
    # (surefire's summary abbreviates it: "» UnknownHost db.internal: ...")
    lazy_compile(r"\bUnknownHost(?:Exception:)? " + _HOST),
    # Go: "dial tcp 127.0.0.1:5432: connect: connection refused", "lookup db on ...: no such host"
    lazy_compile(r"\bdial (?:tcp|udp|unix)[46]? " + _HOST + r":(?P<port>\d{1,5})\b"),
    lazy_compile(r"\blookup " + _HOST + r"(?: on [^:]+)?: "),
    # urllib3 / requests: "HTTPConnectionPool(host='localhost', port=8000)"
    lazy_compile(r"host='(?P<host>[^']+)', port=(?P<port>\d{1,5})"),
    # psycopg: 'connection to server at "localhost" (127.0.0.1), port 5432 failed'
    lazy_compile(r'server at "(?P<host>[^"]+)"(?: \([^)]*\))?, port (?P<port>\d{1,5})'),
    # aiohttp: "Cannot connect to host localhost:8080"; redis: "connecting to localhost:6379"
    lazy_compile(r"\b(?:connect to host|connecting to) " + _HOST + r":(?P<port>\d{1,5})\b"),
    # Erlang's httpc: "{:failed_connect, [{:to_address, {'localhost', 4000}}, ..."
    lazy_compile(r"\{:to_address, \{(?:~c)?['\"](?P<host>[^'\"]+)['\"], (?P<port>\d{1,5})\}"),
    # asyncio: "[Errno 111] Connect call failed ('127.0.0.1', 8080)"
    lazy_compile(r"\('(?P<host>[^']+)', (?P<port>\d{1,5})\)"),
    # Ruby's Errno from a socket: 'Connection refused - connect(2) for "127.0.0.1" port 9'
    lazy_compile(r'connect\(2\) for "(?P<host>[^"]+)" port (?P<port>\d{1,5})'),
    # a URL anywhere (curl, fetch, a client's message)
    lazy_compile(
        r"\b(?:https?|wss?|grpc|postgres(?:ql)?|mysql|redis|amqp|mongodb|tcp|udp|tls|ssl)://(?:[^@/\s]*@)?"
        + _HOST
        + r"(?::(?P<port>\d{1,5}))?"
    ),
    # "localhost:8080" / "127.0.0.1:8080" written plainly
    lazy_compile(
        r"(?<![\w.:/-])(?P<host>localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:]+\]):(?P<port>\d{1,5})\b"
    ),
)
# In source lines shown by a report: a ("host", port) pair.
_CODE_PAIR = lazy_compile(
    r"""\(\s*['"](?P<host>[A-Za-z0-9.:-]+)['"]\s*,\s*(?P<port>\d{1,5})\s*\)"""
)


def network_kind(text: str) -> str | None:
    """refused | reset | dns | timeout | unreachable, when the text says one."""
    if not any(n in text for n in _NET_NEEDLES):
        return None
    for kind, pattern in _NET_KINDS:
        if pattern.search(text):
            return kind
    return None


def address(texts: Iterable[str], code: Iterable[str] = ()) -> tuple[str, int | None] | None:
    """(host, port) named by the first text that names one (messages first,
    then source lines, where only URLs and ("host", port) pairs count)."""
    for text in texts:
        for pattern in _ADDRESSES:
            m = pattern.search(text)
            if m:
                port = m.groupdict().get("port")
                return m.group("host"), int(port) if port else None
    for line in code:
        m = _CODE_PAIR.search(line)
        if m:
            return m.group("host"), int(m.group("port"))
        m = _ADDRESSES[-2].search(line)
        if m:
            port = m.groupdict().get("port")
            return m.group("host"), int(port) if port else None
    return None


# -- environment -------------------------------------------------------------------
_VAR = r"[`'\"]?(?P<{g}>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z][A-Z0-9]{{2,}}(?=[`'\"]? (?:env(?:ironment)? var)))[`'\"]?"
_ENV_MESSAGES: tuple[re.Pattern[str], ...] = (
    # "Missing required environment variable: X", "environment variable X is not set"
    lazy_compile(
        r"[Ee]nv(?:ironment)?(?: |_)?var(?:iable)?s?(?: named)?:? "
        + _VAR.format(g="a")
        + r"(?:,| (?:is |was )?(?:not set|missing|required|undefined|unset|not defined|empty|must be set))?"
    ),
    lazy_compile(
        r"[Mm]issing (?:required )?env(?:ironment)? var(?:iable)?s?:? " + _VAR.format(g="b")
    ),
    # "X must be set", "X is not set", "X environment variable is required", "$X is empty"
    lazy_compile(
        r"(?<![\w$])\$?"
        + _VAR.format(g="c")
        + r"(?: env(?:ironment)? var(?:iable)?)? (?:is |was )?(?:not set|unset|must be set|is required"
        r"|required|missing|undefined|not defined|empty|not provided|should be set)\b"
    ),
    # Rust: std::env::var("X") in an expect message is rare; "X: NotPresent" is common
    lazy_compile(r"(?<![\w$])" + _VAR.format(g="d") + r"[^:\n]{0,40}: NotPresent\b"),
    # Node: process.env.X in a message ("process.env.X is undefined")
    lazy_compile(r"process\.env\.(?P<e>[A-Za-z_][A-Za-z0-9_]*)"),
)
_ENV_NEEDLES = (
    "nv",
    "NotPresent",
    "set",
    "required",
    "missing",
    "undefined",
    "defined",
    "empty",
    "provided",
)
_CODE_ENV = lazy_compile(
    r"""(?:environ\s*\[\s*|environ\.get\(\s*|getenv\(\s*|env::var(?:_os)?\(\s*|Getenv\(\s*|LookupEnv\(\s*|ENV\[\s*|process\.env\[\s*)['"](?P<v>[A-Za-z_][A-Za-z0-9_]*)['"]"""
    r"|process\.env\.(?P<p>[A-Za-z_][A-Za-z0-9_]*)"
)


def env_variable(texts: Iterable[str]) -> str | None:
    """The environment variable a message says is missing."""
    for text in texts:
        if not any(n in text for n in _ENV_NEEDLES):
            continue
        for pattern in _ENV_MESSAGES:
            m = pattern.search(text)
            if m:
                return next(v for v in m.groups() if v)
    return None


def env_reads(code: Iterable[str]) -> list[str]:
    """The environment variables source lines read (os.environ["X"],
    getenv("X"), std::env::var("X"), os.Getenv("X"), process.env.X)."""
    found: list[str] = []
    for line in code:
        for m in _CODE_ENV.finditer(line):
            name = m.group("v") or m.group("p")
            if name and name not in found:
                found.append(name)
    return found


# -- the cause ---------------------------------------------------------------------


@dataclass(slots=True)
class Cause:
    """What a failing test's report says caused it: the category and what
    the category's recipe needs in the hint."""

    category: FailureType
    hint: dict[str, Any] = field(default_factory=dict)
    # the frame to report, when the cause knows better than the runner's
    # choice (the throwing frame of a NameError rather than the test's line)
    at_throw: bool = False
    # where a chained exception that named the cause was raised (file, line)
    at: tuple[str, int] | None = None


def infra_network(kind: str, addr: tuple[str, int | None] | None) -> Cause:
    hint: dict[str, Any] = {"kind": kind, "transient": True, "cause": "network"}
    if addr is not None:
        host, port = addr
        hint["host"] = f"{host}:{port}" if port is not None else host
        if port is not None:
            hint["port"] = port
    return Cause(FailureType.INFRA, hint)


def infra_env(variable: str | None) -> Cause:
    hint: dict[str, Any] = {"kind": "env", "transient": False, "cause": "env"}
    if variable:
        hint["variable"] = variable
    return Cause(FailureType.INFRA, hint)


def environment_cause(messages: Sequence[str], code: Sequence[str] = ()) -> Cause | None:
    """A network or environment-variable cause named by a report's messages
    (the error and the errors chained to it) and the source lines it shows."""
    joined = "\n".join(messages)
    kind = network_kind(joined)
    if kind is not None:
        return infra_network(kind, address(messages, code))
    var = env_variable(messages)
    if var is not None:
        return infra_env(var)
    return None
