"""What every infra rule shares: the two priorities and the hint.

Every infra record says in `hint["transient"]` whether the backoff retry
(1 s, 2 s, 4 s) can help: connection refused/reset, DNS failures, timeouts,
HTTP 5xx and 429 are transient; a missing variable, a permission, a full
disk, a bad deploy configuration or a crashing container are not.
"""

from __future__ import annotations

from typing import Any

PRIORITY = 30  # specific tools (docker, kubectl, terraform, curl, npm, pip)
NETWORK_PRIORITY = -10  # generic network lines, after every other family

TRANSIENT_KINDS = frozenset({"refused", "reset", "dns", "timeout", "http-5xx", "rate-limit"})


def transient(kind: str) -> bool:
    """Whether a failure of this kind is worth the backoff retry."""
    return kind in TRANSIENT_KINDS


def http_kind(status: int) -> str:
    if status == 429:
        return "rate-limit"
    if 500 <= status <= 599:
        return "http-5xx"
    return "http-4xx"


def infra_hint(kind: str, **extra: Any) -> dict[str, Any]:
    hint: dict[str, Any] = {"kind": kind, "transient": transient(kind)}
    hint.update({k: v for k, v in extra.items() if v is not None})
    return hint


def host_of(url_or_host: str) -> str:
    rest = url_or_host.split("://", 1)[-1]
    return rest.split("/", 1)[0].strip("'\"")
