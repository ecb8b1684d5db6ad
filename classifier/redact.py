"""Secrets are never echoed.

Every string a record carries (signal, message, hint values, related
messages) goes through :func:`redact` before the record exists.  A secret is
replaced by at most its first 4 characters and its length:
``AKIA…(20 chars)``.  What is recognised:

* the shapes of well-known credentials: AWS access key ids, GitHub tokens
  (``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_``, ``github_pat_``), Slack
  tokens (``xox[bpasr]-``), OpenAI/Anthropic style ``sk-`` keys, Google API
  keys, Stripe live keys, JWTs, private key blocks, passwords in URLs;
* the value of a generic assignment whose name says it is secret
  (``password=``, ``secret:``, ``api_key =``, ``token=``, ...);
* any string a scanner named as the secret (gitleaks' ``Secret:``,
  trufflehog's ``Raw result:``, bandit's hard-coded password): rules put it
  in ``hint["_secret"]``; :func:`redact_hit` moves it into the classifier's
  vault, so it is redacted wherever else it appears, in every record.

Pure functions; the vault is a plain set owned by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .record import FailureRecord
    from .rules.base import Hit

KEEP = 4
MIN_VAULT = 6  # a "secret" shorter than this is not searched for everywhere
MIN_FRAGMENT = 8  # a truncated secret's head or tail this long is masked too
SECRET_HINT = "_secret"  # noqa: S105 (a hint key, not a password): key a rule uses to name the raw secret

# Whole-token shapes: the full match is the secret.
_SHAPES = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    r"(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,255}"
    r"|github_pat_[A-Za-z0-9_]{22,255}"
    r"|glpat-[A-Za-z0-9_-]{20,}"
    r"|xox[bpasre]-[A-Za-z0-9-]{10,}"
    r"|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}"
    r"|(?:sk|rk)_live_[A-Za-z0-9]{16,}"
    r"|AIza[0-9A-Za-z_-]{35}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"
    r")(?![A-Za-z0-9])"
)

# Literal text that every _SHAPES match contains.
_SHAPE_PREFIXES = (
    "AKIA",
    "ASIA",
    "AGPA",
    "AIDA",
    "AROA",
    "AIPA",
    "ANPA",
    "ANVA",
    "ABIA",
    "ACCA",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xox",
    "sk-",
    "_live_",
    "AIza",
    "eyJ",
)

# A private key: the header stays, the body (to the END line or the end of
# the text) is the secret.
_PRIVATE_KEY = re.compile(
    r"(?P<head>-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)"
    r"(?P<body>(?:(?!-----END)[\s\S])*)"
    r"(?P<tail>-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)?"
)

# name = value / name: value / "name": "value"
_ASSIGN = re.compile(
    r"(?i)(?P<name>(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,64}(?:password|passwd|pwd|passphrase|secret|api[_-]?key|apikey"
    r"|access[_-]?key|auth[_-]?token|access[_-]?token|token|private[_-]?key|credentials?)"
    r"[\"']?)(?P<sep>\s*[:=]\s*)(?P<q>[\"']?)(?P<value>[^\s\"',;}{)(]{4,})"
)

# Every _ASSIGN name contains one of these (casefolded, as (?i) matches):
# password/passwd, passphrase, pwd, secret, *key, *token, credential(s).
_ASSIGN_WORDS = ("passw", "passp", "pwd", "secret", "key", "token", "credential")

# scheme://user:password@host
_URL_PASSWORD = re.compile(
    r"(?P<pre>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s:/@]+:)(?P<value>[^\s@/]{3,})(?=@)"
)

_ALREADY = "…("


def mask(secret: str) -> str:
    """``AKIAIOSFODNN7EXAMPLE`` → ``AKIA…(20 chars)``."""
    return f"{secret[:KEEP]}…({len(secret)} chars)"


def _is_placeholder(value: str) -> bool:
    """Not a secret: already masked, a number, a placeholder, or a plain word
    ("api-key: secret" names a kind of finding, it does not hold one)."""
    v = value.strip("\"'")
    if "…" in v or v.isdigit():
        return True
    low = v.lower()
    if low in {"none", "null", "true", "false", "required", "string", "redacted", "undefined"}:
        return True
    if set(v) <= set("*xX•.-_<>") or v.startswith("${") or v.startswith("<"):
        return True
    has_digit = any(c.isdigit() for c in v)
    has_symbol = any(not c.isalnum() for c in v)
    mixed = v != v.lower() and v != v.upper()
    return not (has_digit or has_symbol or (mixed and len(v) >= 12))


def _mask_assign(m: re.Match[str]) -> str:
    value = m.group("value")
    if _is_placeholder(value):
        return m.group(0)
    return f"{m.group('name')}{m.group('sep')}{m.group('q')}{mask(value)}"


def _mask_key(m: re.Match[str]) -> str:
    body = m.group("body")
    if not body.strip() or _ALREADY in body:
        return m.group(0)
    return f"{m.group('head')}{mask(body.strip())}{m.group('tail') or ''}"


def _mask_fragments(text: str, secret: str) -> str:
    """Mask what a truncating printer left of a named secret: its head
    (``'wJalrXUtnF...'``) or its tail (``'e...CYEXAMPLEKEY'``, as pytest
    abbreviates long reprs), when at least MIN_FRAGMENT characters long."""
    if secret[:MIN_FRAGMENT] not in text and secret[-MIN_FRAGMENT:] not in text:
        return text  # no head or tail fragment can be there (the common case)
    n = len(secret)
    for k in range(n - 1, MIN_FRAGMENT - 1, -1):
        tail = secret[-k:]
        if tail in text:
            text = text.replace(tail, "…(redacted)")
        head = secret[:k]
        if head in text:
            text = text.replace(head, f"{head[:KEEP]}…(redacted)")
    return text


def redact(text: str, vault: Iterable[str] = ()) -> str:
    """The text with every recognised secret masked."""
    if not text:
        return text
    if not vault:
        return _redact_patterns(text)
    for secret in _longest_first(vault):
        if secret in text:
            text = text.replace(secret, mask(secret))
        text = _mask_fragments(text, secret)
    return _redact_patterns(text)


class _Sorted(list[str]):
    """A vault already sorted longest first (one sort per hit or record, not
    one per string in it)."""


def _longest_first(vault: Iterable[str]) -> list[str]:
    if type(vault) is _Sorted:
        return vault
    return _Sorted(sorted(vault, key=len, reverse=True))


def _redact_patterns(text: str) -> str:
    """The vault-independent part of `redact` (pure, so cached for texts of
    up to CACHED_CHARS: long outputs repeat the same failure lines; longer
    texts, up to a 64 KB line each, would make the cache unbounded)."""
    if len(text) > CACHED_CHARS:
        return _patterns(text)
    return _patterns_cached(text)


CACHED_CHARS = 2048


def _patterns(text: str) -> str:
    if "PRIVATE KEY" in text:
        text = _PRIVATE_KEY.sub(_mask_key, text)
    # Each pattern runs only when the literal text it needs is there: the
    # patterns try every position, the `in` checks are a memchr each.
    if any(p in text for p in _SHAPE_PREFIXES):
        text = _SHAPES.sub(lambda m: mask(m.group(0)), text)
    if "://" in text and "@" in text:
        text = _URL_PASSWORD.sub(lambda m: m.group("pre") + mask(m.group("value")), text)
    if ("=" in text or ":" in text) and any(w in text.casefold() for w in _ASSIGN_WORDS):
        text = _ASSIGN.sub(_mask_assign, text)
    return text


_patterns_cached = lru_cache(maxsize=4096)(_patterns)


def redact_value(value: Any, vault: Iterable[str] = ()) -> Any:
    """Redact every string inside JSON-like data (dicts, lists, tuples)."""
    if isinstance(value, str):
        return redact(value, vault)
    if isinstance(value, dict):
        return {k: redact_value(v, vault) for k, v in value.items()}
    kind = type(value)
    if kind is list:
        return [redact_value(v, vault) for v in value]
    if isinstance(value, _SEQUENCES):
        return kind(redact_value(v, vault) for v in value)
    return value


_SEQUENCES = (list, tuple)


def take_secret(hint: dict[str, Any], vault: set[str]) -> None:
    """Move a rule-named secret from the hint into the vault, leaving the
    masked form in ``hint["secret"]``."""
    raw = hint.pop(SECRET_HINT, None)
    if isinstance(raw, str) and raw.strip():
        raw = raw.strip()
        if len(raw) >= MIN_VAULT:
            vault.add(raw)
        hint["secret"] = mask(raw)


def redact_hit(hit: Hit, vault: set[str]) -> None:
    """Redact a hit in place, before it becomes a record."""
    take_secret(hit.hint, vault)
    secrets = _longest_first(vault) if vault else ()
    hit.signal = redact(hit.signal, secrets)
    hit.message = redact(hit.message, secrets)
    hit.hint = redact_value(hit.hint, secrets)
    hit.related = [(f, ln, col, redact(msg, secrets)) for f, ln, col, msg in hit.related]


def redact_record(record: FailureRecord, vault: Iterable[str]) -> None:
    """Redact a finished record in place (a secret named after it was made)."""
    secrets = _longest_first(vault)
    sub: Callable[[str], str] = lambda s: redact(s, secrets)  # noqa: E731
    record.signal = sub(record.signal)
    record.message = sub(record.message)
    record.hint = redact_value(record.hint, secrets)
    for loc in record.related:
        loc.message = sub(loc.message)


_KEY_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
MAX_PENDING = 1 << 20  # a longer unfinished line is redacted and written as it is


# Characters that (?i) matches to an ASCII letter of a secret word.
_FOLDS = tuple(c.encode() for c in "\u017f\u212a\u0131\u0130")


# The start of each _ASSIGN_WORDS word, in every ASCII case (what (?i)
# matches when the text has none of _FOLDS): shortened where the full word
# would need hundreds of spellings (a line with the start is only looked at).
_WORD_STARTS = ("passw", "passp", "pwd", "secre", "key", "token", "crede")


def _spellings(word: str) -> list[bytes]:
    """`word` in every mix of ASCII upper and lower case."""
    out = [b""]
    for ch in word:
        cases = {ch.lower(), ch.upper()}
        out = [o + c.encode() for o in out for c in sorted(cases)]
    return out


@lru_cache(maxsize=1)
def _needs_redact() -> Any:
    """One automaton of _FOLDS (pattern indexes 0-3) and the literal text
    without which no pattern above matches: the case-sensitive literals and
    the secret words in every ASCII case."""
    from ahocorasick_rs import BytesAhoCorasick, Implementation

    patterns = [
        *_FOLDS,
        b"PRIVATE KEY",
        b"://",
        *(p.encode() for p in _SHAPE_PREFIXES),
        *(s for w in _WORD_STARTS for s in _spellings(w)),
    ]
    return BytesAhoCorasick(patterns, implementation=Implementation.DFA)


class LogRedactor:
    """Output on its way into a log file, redacted line by line.  Every line
    is kept (a private key's body lines are masked one by one), so line
    numbers in the log stay those of the output; bytes that are not part of
    a secret are written unchanged.  Feed chunks, then `close()`."""

    def __init__(self) -> None:
        self._pending = b""
        self._in_key = False

    def feed(self, data: bytes) -> bytes:
        buf = self._pending + data
        cut = buf.rfind(b"\n") + 1
        if len(buf) - cut > MAX_PENDING:
            cut = len(buf)
        self._pending = buf[cut:]
        return self._lines(buf[:cut])

    def close(self) -> bytes:
        rest, self._pending = self._pending, b""
        return self._lines(rest)

    def _lines(self, raw: bytes) -> bytes:
        """Only the lines holding literal text some secret pattern needs (and
        the lines of a private key block) go through `_redact_lines`; the rest
        are copied as they are.  Found with one Aho-Corasick scan of the
        chunk (the secret words in every ASCII case, as _ASSIGN's (?i)
        matches them); a chunk with a character that (?i) folds onto an
        ASCII letter (ſ, K, ı, İ) takes the line-by-line path.  When no line
        changed, the chunk itself is returned (no copy)."""
        if not raw:
            return raw
        found = _needs_redact().find_matches_as_indexes(raw)
        if any(idx < len(_FOLDS) for idx, _, _ in found):
            return self._redact_lines(raw)
        marks = [s for _, s, _ in found]
        out: list[bytes] = []
        changed = False
        pos, n, i = 0, len(raw), 0
        while pos < n:
            if self._in_key:  # every line of a key block
                end = raw.find(b"\n", pos) + 1 or n
                line = raw[pos:end]
                done = self._redact_lines(line)
                changed = changed or done != line
                out.append(done)
                pos = end
                continue
            while i < len(marks) and marks[i] < pos:
                i += 1
            if i == len(marks):
                out.append(raw[pos:])
                break
            mark = marks[i]
            start = raw.rfind(b"\n", pos, mark) + 1 or pos
            end = raw.find(b"\n", mark) + 1 or n
            out.append(raw[pos:start])
            line = raw[start:end]
            done = self._redact_lines(line)
            changed = changed or done != line
            out.append(done)
            pos = end
        return b"".join(out) if changed else raw

    def _redact_lines(self, raw: bytes) -> bytes:
        out = []
        for line in raw.decode("utf-8", "surrogateescape").splitlines(keepends=True):
            body = line.rstrip("\r\n")
            end = line[len(body) :]
            if self._in_key:
                if _KEY_END.search(body):
                    self._in_key = False
                elif body.strip():
                    body = mask(body.strip())
            else:
                begin = _KEY_BEGIN.search(body)
                if begin and not _KEY_END.search(body, begin.end()):
                    self._in_key = True
                    body = body[: begin.end()] + redact(body[begin.end() :])
                    body = redact(body[: begin.start()]) + body[begin.start() :]
                else:
                    body = redact(body)
            out.append(body + end)
        return "".join(out).encode("utf-8", "surrogateescape")
