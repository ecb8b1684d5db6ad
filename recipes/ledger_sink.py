"""The ledger's sink: every text a write statement stores passes the redactor.

`ScrubbingConnection` is the connection class of the ledger's write
transactions (`sqlite3.connect(..., factory=ScrubbingConnection)`): each
`str` parameter of `execute` / `executemany` goes through
classifier/redact.py `scrub` before SQLite sees it, JSON (an object or a
list: a record, an outcome, an argv) value by value, anything else as text.
So whoever builds a row (a refusal reason, a title, a note), no secret is
stored.  `Verbatim` marks the one kind of text that must be kept byte for
byte: a fix's original file contents, which a revert writes back.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from faultlens.classifier.redact import scrub


class Verbatim(str):
    """A parameter stored as it is (a revert's original bytes, base64)."""

    __slots__ = ()


def stored(value: Any) -> Any:
    """One parameter as the ledger may store it."""
    if type(value) is not str:
        return value  # numbers, bytes, None, and Verbatim
    if value[:1] in ("{", "[") and value[-1:] in ("}", "]"):
        try:
            data = json.loads(value)
        except ValueError:
            return scrub(value)
        return json.dumps(scrub(data))
    return scrub(value)


def _params(params: Any) -> Any:
    if isinstance(params, dict):
        return {k: stored(v) for k, v in params.items()}
    return tuple(stored(v) for v in params)


class ScrubbingConnection(sqlite3.Connection):
    """A connection whose statements store no secret (see the module doc)."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return super().execute(sql, _params(parameters))

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        return super().executemany(sql, (_params(p) for p in parameters))
