"""The one HTTP client of faultlens.remote: bounded, explicit, and careful
with the token.

* Only `https` (plain `http` to a loopback address, for local stand-ins).
* The token goes only to the API's own host; a redirect to another host (the
  log download GitHub answers with) is followed without it, at most
  MAX_REDIRECTS times, and only to https (or loopback).
* Every request has a time limit; a body is read in chunks up to a bound and
  refused past it, so a huge log never fills memory.
* Failures are `RemoteError`s with one line a person can act on: a rate limit
  with its reset time, 401/403/404 with what they usually mean, a time-out,
  a body too large.  No line ever holds the token or a request header.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

MAX_REDIRECTS = 5
MAX_JSON = 16 << 20  # an API answer (a page of jobs) is far smaller
MAX_LOG = 64 << 20  # a job log; GitHub keeps logs of at most ~64 MB per step
TIMEOUT = 30.0
_CHUNK = 1 << 16


class RemoteError(Exception):
    """A CI service could not answer (one line, safe to show)."""


@dataclass(slots=True)
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    url: str

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError as exc:
            raise RemoteError(f"{_place(self.url)} answered with invalid JSON ({exc})") from None


@dataclass(slots=True)
class Client:
    """Requests to one API base URL (`https://api.github.com`,
    `https://gitlab.example.com/api/v4`), with `auth` headers (the token) sent
    to that host only."""

    base: str
    auth: Mapping[str, str] = field(default_factory=dict)
    service: str = "the CI service"
    timeout: float = TIMEOUT
    user_agent: str = "faultlens"

    def __post_init__(self) -> None:
        self.base = self.base.rstrip("/")
        _check_scheme(self.base)

    @property
    def host(self) -> str:
        return urlsplit(self.base).netloc.lower()

    def url(self, path: str) -> str:
        return path if "://" in path else f"{self.base}/{path.lstrip('/')}"

    def get_json(self, path: str, params: Mapping[str, str | int] | None = None) -> Any:
        return self.get(path, params, limit=MAX_JSON).json()

    def get(
        self,
        path: str,
        params: Mapping[str, str | int] | None = None,
        *,
        limit: int = MAX_JSON,
        accept: str = "application/json",
    ) -> Response:
        return self.request("GET", path, params, limit=limit, accept=accept)

    def request(
        self,
        method: str,
        path: str,
        params: Mapping[str, str | int] | None = None,
        *,
        body: Any = None,
        limit: int = MAX_JSON,
        accept: str = "application/json",
    ) -> Response:
        url = self.url(path)
        if params:
            from urllib.parse import urlencode

            url += ("&" if "?" in url else "?") + urlencode({k: str(v) for k, v in params.items()})
        data = None if body is None else json.dumps(body).encode()
        for _ in range(MAX_REDIRECTS + 1):
            resp = self._once(method, url, data, limit=limit, accept=accept)
            if resp.status in (301, 302, 303, 307, 308):
                location = resp.headers.get("location")
                if not location:
                    raise RemoteError(f"{_place(url)} redirected without a Location")
                url = urljoin(url, location)
                _check_scheme(url)
                if resp.status == 303 or (resp.status in (301, 302) and method != "GET"):
                    method, data = "GET", None
                continue
            self._raise_for(resp)
            return resp
        raise RemoteError(f"{_place(url)}: more than {MAX_REDIRECTS} redirects")

    def _once(
        self, method: str, url: str, data: bytes | None, *, limit: int, accept: str
    ) -> Response:
        parts = urlsplit(url)
        headers = {"User-Agent": self.user_agent, "Accept": accept}
        if parts.netloc.lower() == self.host:  # the token never leaves its host
            headers.update(self.auth)
        if data is not None:
            headers["Content-Type"] = "application/json"
        conn_type = (
            http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        )
        conn = conn_type(parts.hostname or "", parts.port, timeout=self.timeout)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        deadline = time.monotonic() + self.timeout * 4
        try:
            conn.request(method, target, body=data, headers=headers)
            raw = conn.getresponse()
            got = {k.lower(): v for k, v in raw.getheaders()}
            declared = got.get("content-length", "")
            if declared.isdigit() and int(declared) > limit:
                raise RemoteError(_too_large(url, limit))
            chunks: list[bytes] = []
            size = 0
            while chunk := raw.read(_CHUNK):
                size += len(chunk)
                if size > limit:
                    raise RemoteError(_too_large(url, limit))
                if time.monotonic() > deadline:
                    raise RemoteError(f"{_place(url)} is too slow: gave up after {size} bytes")
                chunks.append(chunk)
            return Response(raw.status, got, b"".join(chunks), url)
        except TimeoutError:
            raise RemoteError(f"{_place(url)} did not answer within {self.timeout:g} s") from None
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise RemoteError(f"cannot reach {_place(url)}: {reason}") from None
        except http.client.HTTPException as exc:
            raise RemoteError(
                f"{_place(url)} broke the connection ({type(exc).__name__})"
            ) from None
        finally:
            conn.close()

    def _raise_for(self, resp: Response) -> None:
        if resp.status < 400:
            return
        where = _place(resp.url)
        h = resp.headers
        if resp.status in (403, 429) and (
            h.get("x-ratelimit-remaining") == "0" or "retry-after" in h or resp.status == 429
        ):
            raise RemoteError(f"{self.service} rate limit reached ({resp.status}); {_reset(h)}")
        detail = _message(resp.body)
        if resp.status == 401:
            raise RemoteError(
                f"{self.service} refused the token (401 at {where}): set a valid token"
                + (f" ({detail})" if detail else "")
            )
        if resp.status == 403:
            raise RemoteError(
                f"{self.service} denied access (403 at {where}): the token lacks a scope or "
                "the repository's permission" + (f" ({detail})" if detail else "")
            )
        if resp.status == 404:
            raise RemoteError(
                f"{self.service} has no such resource (404 at {where}): check the URL; a private "
                "repository needs a token"
            )
        raise RemoteError(
            f"{self.service} answered {resp.status} at {where}" + (f": {detail}" if detail else "")
        )


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_scheme(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return
    if parts.scheme == "http" and is_loopback(parts.hostname):
        return
    raise RemoteError(f"refusing {_place(url)}: only https (or http to a loopback address)")


def _place(url: str) -> str:
    """Scheme, host and path of a URL: never its query (a signed download URL's
    query is a credential) nor user information."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"[:160]


def _too_large(url: str, limit: int) -> str:
    return f"{_place(url)}: answer larger than {limit >> 20} MB, not read"


def _reset(headers: Mapping[str, str]) -> str:
    reset = headers.get("x-ratelimit-reset", "")
    if reset.isdigit():
        at = time.strftime("%H:%M:%S UTC", time.gmtime(int(reset)))
        return f"it resets at {at}"
    retry = headers.get("retry-after", "")
    if retry.isdigit():
        return f"retry after {retry} s"
    return "retry later"


def _message(body: bytes) -> str:
    """The `message` an API error body carries (GitHub's and GitLab's shape),
    one line, bounded."""
    try:
        data = json.loads(body[:65536])
    except ValueError:
        return ""
    if isinstance(data, dict):
        msg = data.get("message") or data.get("error") or ""
        if isinstance(msg, str):
            return " ".join(msg.split())[:200]
    return ""
