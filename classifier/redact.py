"""Secrets are never echoed.

Every string a record carries (signal, message, hint values, related
messages) goes through :func:`redact` before the record exists.  A secret is
replaced by its length, with its first 4 characters when it is long enough
that they give nothing away: ``AKIA…(20 chars)``, ``…(9 chars)``.  What is
recognised:

* every form of classifier/detectors.py: the maintained detector set
  (detect-secrets' plugin patterns, read as data) and our own forms
  (``Authorization: Bearer``, passwords and tokens in URLs, Azure keys and
  SAS signatures, ``sk_test_``, ``npm_``, ``mysql -p…``, ...);
* private key blocks (the body, up to the END line or the end of the text);
* the value of a generic assignment whose name says it is secret
  (``password=``, ``secret:``, ``api_key =``, ``token=``,
  ``"private_key_id": ...``);
* any string a scanner named as the secret (gitleaks' ``Secret:``,
  trufflehog's ``Raw result:``, bandit's hard-coded password): rules put it
  in ``hint["_secret"]``; :func:`redact_hit_text` moves it into the classifier's
  vault, so it is redacted wherever else it appears, in every record (and in
  the run log: logredact.py).

A command line is an argv, not text: :func:`redact_argv` masks it element by
element (``API_TOKEN=…``, the value after ``--password``, ``-pX`` of mysql,
the password of ``curl --user u:pw``) and is what every stored or shown
command goes through; :func:`masked_secret` tells a stored argv that can no
longer be run.

Pure functions; the vault is a plain set owned by the caller.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .detectors import finder, looks_secret
from .lazyre import lazy_compile
from .wordset import WordSet

if TYPE_CHECKING:
    from .record import FailureRecord
    from .rules.base import Hit

KEEP = 4
KEEP_FROM = 16  # a secret shorter than this is shown by its length only
MIN_VAULT = 6  # a "secret" shorter than this is not searched for everywhere
MIN_FRAGMENT = 8  # a truncated secret's head or tail this long is masked too
SECRET_HINT = "_secret"  # noqa: S105 (a hint key, not a password): key a rule uses to name the raw secret

# A private key: the header stays, the body (to the END line or the end of
# the text) is the secret.
_PRIVATE_KEY = lazy_compile(
    r"(?P<head>-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)"
    r"(?P<body>(?:(?!-----END)[\s\S])*)"
    r"(?P<tail>-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)?"
)

# name = value / name: value / "name": "value"
_ASSIGN = lazy_compile(
    r"(?i)(?P<name>(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,64}(?:password|passwd|pwd|passphrase|secret|api[_-]?key|apikey"
    r"|access[_-]?key|auth[_-]?token|access[_-]?token|token|private[_-]?key|credentials?)"
    r"(?:[_-]?id)?[\"']?)(?P<sep>\s*[:=]\s*)(?P<q>[\"']?)(?P<value>[^\s\"',;}{)(]{4,})"
)

# Every _ASSIGN name contains one of these (casefolded, as (?i) matches):
# password/passwd, passphrase, pwd, secret, *key, *token, credential(s).
_ASSIGN_WORDS = WordSet(("passw", "passp", "pwd", "secret", "key", "token", "credential"))

_ALREADY = "…("


def mask(secret: str) -> str:
    """``AKIAIOSFODNN7EXAMPLE`` → ``AKIA…(20 chars)``; ``hunter2`` → ``…(7 chars)``."""
    keep = secret[:KEEP] if len(secret) >= KEEP_FROM else ""
    return f"{keep}…({len(secret)} chars)"


MASKED = lazy_compile(r"…\((?:\d+ chars|redacted)\)")  # what mask() and the vault leave


def _assign_span(m: re.Match[str]) -> tuple[int, int] | None:
    return m.span("value") if looks_secret(m.group("value")) else None


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
    spans: list[tuple[int, int]] = []
    # Each detector runs only when a literal it needs is there (the patterns
    # try every position; the literals are found in one scan).
    for d in finder().candidates(text):
        spans.extend(d.spans(text))
    low = text.casefold()  # (what the word tests below look for)
    if ("=" in text or ":" in text) and _ASSIGN_WORDS.found_in(low):
        for m in _ASSIGN.finditer(text):
            found = _assign_span(m)
            if found is not None:
                spans.append(found)
    spans.extend(_command_words(text, low))
    return _mask_spans(text, spans) if spans else text


def _mask_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with each span (overlapping ones merged) masked once."""
    spans.sort()
    out: list[str] = []
    pos = 0
    cur_s, cur_e = spans[0]
    for s, e in spans[1:]:
        if s < cur_e:
            cur_e = max(cur_e, e)
            continue
        out += [text[pos:cur_s], _mask_once(text[cur_s:cur_e])]
        pos = cur_e
        cur_s, cur_e = s, e
    out += [text[pos:cur_s], _mask_once(text[cur_s:cur_e]), text[cur_e:]]
    return "".join(out)


def _mask_once(secret: str) -> str:
    return secret if MASKED.search(secret) else mask(secret)


_patterns_cached = lru_cache(maxsize=4096)(_patterns)


def redact_value(value: Any, vault: Iterable[str] = (), memo: TextMemo | None = None) -> Any:
    """Redact every string inside JSON-like data (dicts, lists, tuples);
    through `memo` (whose vault is `vault`) when given."""
    if isinstance(value, str):
        return memo.redact(value) if memo is not None else redact(value, vault)
    if isinstance(value, dict):
        return {k: redact_value(v, vault, memo) for k, v in value.items()}
    kind = type(value)
    if kind is list:
        return [redact_value(v, vault, memo) for v in value]
    if isinstance(value, _SEQUENCES):
        return kind(redact_value(v, vault, memo) for v in value)
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


class TextMemo:
    """The masked forms of the texts of one output's hits (signals, messages,
    hint values, related messages), by text.

    A long output repeats the same failure lines, and `redact` of a text is
    pure while the vault stays the same; a vault only grows, so a change of
    its size empties the memo.  Bounded: emptied when MAX_TEXTS are held."""

    __slots__ = ("done", "secrets", "size")
    MAX_TEXTS = 4096

    def __init__(self) -> None:
        self.size = 0
        self.secrets: Sequence[str] = ()
        self.done: dict[str, str] = {}

    def vault(self, vault: set[str]) -> Sequence[str]:
        """The vault, longest first (sorted again only when it grew)."""
        if len(vault) != self.size:
            self.size = len(vault)
            self.secrets = _longest_first(vault) if vault else ()
            self.done.clear()
        return self.secrets

    def redact(self, text: str) -> str:
        done = self.done.get(text)
        if done is None:
            if len(self.done) >= self.MAX_TEXTS:
                self.done.clear()
            done = self.done[text] = redact(text, self.secrets)
        return done


def redact_hit_text(hit: Hit, vault: set[str], memo: TextMemo | None = None) -> Sequence[str]:
    """Redacting a hit before it becomes a record, first half: the vault learns the secret a rule
    named, and the signal and message (what a record's key is made of) are
    masked (through `memo` when given: one per output).  Returns the vault
    as `redact_hit_details` takes it."""
    take_secret(hit.hint, vault)
    if memo is not None:
        secrets = memo.vault(vault)
        hit.signal = memo.redact(hit.signal)
        hit.message = memo.redact(hit.message)
        return secrets
    secrets = _longest_first(vault) if vault else ()
    hit.signal = redact(hit.signal, secrets)
    hit.message = redact(hit.message, secrets)
    return secrets


def redact_hit_details(
    hit: Hit,
    secrets: Sequence[str],
    keys: Iterable[str] | None = None,
    memo: TextMemo | None = None,
) -> None:
    """The second half (after `redact_hit_text`, given the same `memo`): the
    hint (only `keys` of it, when given: a hit merged into an existing
    record gives it no more) and the related locations' messages.  A long
    output repeats the same hint values, so through `memo` each distinct
    string is masked once."""
    if keys is None:
        hit.hint = redact_value(hit.hint, secrets, memo)
        text = memo.redact if memo is not None else (lambda msg: redact(msg, secrets))
        hit.related = [(f, ln, col, text(msg)) for f, ln, col, msg in hit.related]
        return
    hit.hint = {k: redact_value(hit.hint[k], secrets, memo) for k in keys if k in hit.hint}
    hit.related = []


def redact_record(record: FailureRecord, vault: Iterable[str]) -> None:
    """Redact a finished record in place (a secret named after it was made)."""
    secrets = _longest_first(vault)
    sub: Callable[[str], str] = lambda s: redact(s, secrets)  # noqa: E731
    record.signal = sub(record.signal)
    record.message = sub(record.message)
    record.hint = redact_value(record.hint, secrets)
    for loc in record.related:
        loc.message = sub(loc.message)


# -- command lines ----------------------------------------------------------------------
# An option whose value (the next argument, or after `=`) is a secret.
_SECRET_OPTION = lazy_compile(
    r"(?i)--?(?:[a-z0-9]+[-_])*(?:password|passwd|pass|pwd|passphrase|secret|token|api[-_]?key"
    r"|apikey|access[-_]?key|auth[-_]?token|private[-_]?key|credentials?|client[-_]?secret"
    r"|oauth2[-_]bearer|bearer)"
)
# The name of a NAME=value argument (an environment assignment, a make
# variable, -DNAME=value) whose value is a secret whatever it looks like.
_SECRET_NAME = lazy_compile(
    r"(?i)(?:password|passwd|pwd|passphrase|secret|apikey|token|credentials?|(?:^|[_.-])pass"
    r"|(?:^|[_.-])auth|(?:^|[_.-]|secret|private|access|account|api|signing|encryption)key)"
    r"(?:[_-]?id)?$"
)
_NAME = lazy_compile(r"-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,127}")
_ENV_REFERENCE = lazy_compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")
# Options whose value is `user:password` (curl, wget and friends).
_USER_OPTIONS = frozenset({"-u", "--user", "--proxy-user", "-U"})
# An HTTP header split into words (a command string split on spaces: `-H
# Authorization: Bearer X` is four elements): after the header's name comes
# the scheme, then the credentials; after a bare scheme, the credentials.
_AUTH_HEADERS = frozenset({"authorization:", "proxy-authorization:"})
_AUTH_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "negotiate", "apikey"})
_MYSQL = frozenset({"mysql", "mysqldump", "mysqladmin", "mysqlimport", "mariadb", "mariadb-dump"})


def _secret_value(value: str) -> str:
    """A value known (by its name or option) to be secret, masked; an
    environment reference (`$TOKEN`) and an empty value stay."""
    if not value or _ENV_REFERENCE.fullmatch(value) or MASKED.search(value):
        return value
    return mask(value)


def _user_password(value: str) -> str:
    user, sep, password = value.partition(":")
    return f"{user}{sep}{_secret_value(password)}" if sep else value


# Programs whose short option takes a secret as its value (the next word, or
# glued on: `-pX`): `sshpass -p X`, `docker login -p X`, `codecov -t X`.
_SECRET_SHORT = {
    "sshpass": frozenset({"-p"}),
    "codecov": frozenset({"-t"}),
    "codecovcli": frozenset({"-t"}),
}
_LOGIN_CLIENTS = frozenset({"docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras"})


@dataclass(slots=True)
class _Words:
    """What the words read so far say about the next one (one command line,
    or one line of text read as words)."""

    program: str = ""  # the program whose options these are (`mysql`, `sshpass`, ...)
    login: bool = False  # `docker login` and its like: `-p` takes the password
    htpasswd: int = -1  # htpasswd -b: positionals left before the password (-1: none)
    secret_next: bool = False
    user_next: bool = False
    header_next: bool = False


# What to do with one word: keep it (None), mask it from an offset on as a
# secret whatever it looks like ("value", offset), or mask the password of
# `user:password` ("user", 0).
_Plan = tuple[str, int] | None


def _plan_word(arg: str, prev: str | None, st: _Words) -> _Plan:
    """The plan for one word of a command line (see `redact_argv`), updating `st`."""
    word = arg.casefold()
    if st.header_next and word in _AUTH_SCHEMES:  # `Authorization:` `Bearer` ...
        st.header_next, st.secret_next = False, True
        return None
    if st.secret_next or st.user_next or st.header_next:
        user = st.user_next
        st.secret_next = st.user_next = st.header_next = False
        return ("user", 0) if user else ("value", 0)
    if word in _AUTH_HEADERS:
        st.header_next = True
        return None
    if word in _AUTH_SCHEMES and prev in ("-H", "--header"):
        st.secret_next = True  # `-H Bearer X`
        return None
    base = os.path.basename(arg)
    if base in _PROGRAMS:
        st.program, st.login, st.htpasswd = base, False, -1
    elif st.program in _LOGIN_CLIENTS and arg in ("login", "registry"):
        st.login = st.login or arg == "login"
    name, eq, _ = arg.partition("=")
    if arg.startswith("-") and _SECRET_OPTION.fullmatch(name):
        if eq:
            return ("value", len(name) + 1)
        st.secret_next = True
        return None
    if arg in _USER_OPTIONS:
        st.user_next = True
        return None
    if eq and _NAME.fullmatch(name) and _SECRET_NAME.search(name):
        return ("value", len(name) + 1)
    short = _short_secret(arg, st)
    if short is not None:
        return short
    if st.program == "htpasswd":
        return _htpasswd(arg, st)
    return None


def _short_secret(arg: str, st: _Words) -> _Plan:
    """`-pX`/`-p X` of mysql, sshpass and `docker login`, `-t X` of codecov."""
    if not arg.startswith("-") or arg.startswith("--") or len(arg) < 2:
        return None
    flag = arg[:2]
    takes = (
        (st.program in _MYSQL and flag == "-p")
        or flag in _SECRET_SHORT.get(st.program, ())
        or (st.login and flag == "-p")
    )
    if not takes:
        return None
    if len(arg) == 2:
        st.secret_next = True
        return None
    return ("value", 3 if arg[2] == "=" else 2)


def _htpasswd(arg: str, st: _Words) -> _Plan:
    """`htpasswd -b FILE USER PASSWORD`, `htpasswd -nb USER PASSWORD`."""
    if arg.startswith("-") and len(arg) > 1:
        if "b" in arg[1:]:
            st.htpasswd = 1 if "n" in arg[1:] else 2
        return None
    if st.htpasswd > 0:
        st.htpasswd -= 1
        return None
    if st.htpasswd == 0:
        st.htpasswd = -1
        return ("value", 0)
    return None


def redact_argv(argv: Sequence[str]) -> list[str]:
    """The argv with every secret masked, element by element: each element as
    text (token shapes, URLs with passwords, `Authorization: Bearer ...`),
    the value of a secret-named option (`--password X`, `--token=X`) or
    assignment (`API_TOKEN=X`, `-DDB_PASSWORD=X`) whatever it looks like,
    `user:password` after curl's `--user`, mysql's `-pX`/`-p X`, sshpass's
    and `docker login`'s `-p X`, codecov's `-t X`, htpasswd's `-b` password,
    and the credentials of an `Authorization:` header split into words."""
    out: list[str] = []
    st = _Words()
    prev: str | None = None
    for raw in argv:
        arg = str(raw)
        plan = _plan_word(arg, prev, st)
        prev = arg
        if plan is None:
            out.append(redact(arg))
        elif plan[0] == "user":
            out.append(_user_password(redact(arg)))
        else:
            out.append(arg[: plan[1]] + _secret_value(arg[plan[1] :]))
    return out


# Words of a text that may start a command-line secret form (a cheap test
# before the text is read word by word).
_WORD_HINTS = WordSet((
    "pass", "pwd", "secret", "token", "key", "auth", "credential", "bearer", "-p", "-t", "-u", "-h",
))  # fmt: skip
# The words without which `_plan_word` never masks anything, found in one
# search: an `Authorization:` header, `-H`, a secret-named option or
# assignment, a user option, or a program whose short options take a secret
# (a word starts after a space or an edge character, as `_command_words`
# strips them).  A superset of what the walk acts on, so skipping the walk
# when it finds nothing changes no result; it keeps the word walk off the
# lines of ordinary output that only share a hint's letters ("key", "-t").
_PROGRAMS = _MYSQL | _SECRET_SHORT.keys() | _LOGIN_CLIENTS | {"htpasswd"}
_BEFORE = r"(?<![^\s`'\"(\[{)\]},;.])"
_AFTER = r"(?![^\s`'\"(\[{)\]},;.])"
_TRIGGER = lazy_compile(
    r"(?i:(?:proxy-)?authorization:"
    r"|(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?|auth|key)(?:[_-]?id)?="
    rf"|{_BEFORE}--?[a-z0-9_-]*(?:pass|pwd|secret|token|key|credential|bearer))"
    rf"|{_BEFORE}(?:-[HuU]|--header|--user|--proxy-user){_AFTER}"
    r"|(?<![^\s`'\"(\[{)\]},;./])"
    rf"(?:{'|'.join(map(re.escape, sorted(_PROGRAMS, key=lambda p: (-len(p), p))))}){_AFTER}"
)
_EDGE = "`'\"([{)]},;."
_WORD = lazy_compile(r"\S+")
# A value shown in place of a secret (a usage text's metavar, a placeholder).
_METAVAR = lazy_compile(r"[A-Z][A-Z0-9_]*|<[^<>]*>|\[[^\[\]]*\]|[*xX•.]+|\.\.\.")


def _command_words(text: str, low: str | None = None) -> list[tuple[int, int]]:
    """The spans of the secrets a text shows as command-line words: a command
    quoted in a message (``env DB_PASSWORD=hunter sh -c ...``), `--password X`
    as separate words, `mysql -p X`: the rules of `redact_argv`, each word's
    quotes and brackets set aside; placeholders (`--token TOKEN`, `<pw>`) kept.
    A command is one line (lines joined by a trailing backslash count as one):
    only the lines holding a trigger word are read, each from its start.
    `low`: the text casefolded, when the caller has it."""
    if not _WORD_HINTS.found_in(text.casefold() if low is None else low):
        return []
    spans: list[tuple[int, int]] = []
    done = 0
    for m in _TRIGGER.finditer(text):
        if m.start() < done:
            continue  # its line was read
        start, done = _command_line(text, m.start())
        spans += _walk_words(text, start, done)
    return spans


def _command_line(text: str, pos: int) -> tuple[int, int]:
    """The span of the line of `text` holding `pos`, with the lines a trailing
    backslash joins to it (the newline excluded)."""
    start = text.rfind("\n", 0, pos) + 1
    while start >= 2 and text[start - 2] == "\\":
        start = text.rfind("\n", 0, start - 1) + 1
    end = text.find("\n", pos)
    while end > 0 and text[end - 1] == "\\":
        end = text.find("\n", end + 1)
    return start, len(text) if end < 0 else end


def _walk_words(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """The secrets of the words of text[start:end], read one after another
    (`_command_words` without its prefilters)."""
    spans: list[tuple[int, int]] = []
    st = _Words()
    prev: str | None = None
    for m in _WORD.finditer(text, start, len(text) if end is None else end):
        word = m.group().strip(_EDGE)
        if not word:
            continue
        start = m.start() + m.group().index(word)
        plan = _plan_word(word, prev, st)
        prev = word
        if plan is None or (plan[0] == "value" and plan[1] and not _named_secret(word)):
            continue
        if plan[0] == "user":
            user, sep, password = word.partition(":")
            value, at = (password, len(user) + 1) if sep else ("", 0)
        else:
            value, at = word[plan[1] :], plan[1]
        if _shown_secret(value):
            spans.append((start + at, start + at + len(value)))
    return spans


def _named_secret(word: str) -> bool:
    """In text, `NAME=value` is a secret's assignment only when NAME is an
    environment variable's (`DB_PASSWORD`) or says password, token or secret
    (code's `key=lambda x: ...`, `auth=auth` are keyword arguments)."""
    name = word.partition("=")[0].lstrip("-")
    if name.isupper() or word.startswith("-"):
        return True
    low = name.casefold()
    return any(w in low for w in _STRONG_NAMES)


_STRONG_NAMES = ("passw", "pwd", "passphrase", "secret", "token", "credential", "apikey", "api_key")


def _shown_secret(value: str) -> bool:
    """A value in a secret's place that is no placeholder, reference or mask."""
    v = value.strip("\"'")
    if len(v) < 3 or "…" in v or _ENV_REFERENCE.fullmatch(v) or _METAVAR.fullmatch(v):
        return False
    return v.casefold() not in _PLACEHOLDERS


_PLACEHOLDERS = frozenset(
    {"none", "null", "true", "false", "required", "string", "redacted", "undefined", "yes", "no"}
)


def shown_command(argv: Sequence[str]) -> str:
    """The command as a person reads it (shell-quoted), secrets masked: the
    only way a command is written into a log line, a title or a message."""
    return shlex.join(redact_argv(argv))


COMMAND_KEYS = frozenset({"command", "argv", "cmd"})


def redact_commands(value: Any) -> Any:
    """JSON-like data with every command in it (a list of strings, or a
    string, under a key of COMMAND_KEYS, at any depth) redacted as an argv:
    the storage boundary's guard for records and events that name the
    command they came from.  Other values are returned as they are."""
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            if k in COMMAND_KEYS and isinstance(v, list) and all(isinstance(a, str) for a in v):
                out[k] = redact_argv(v)
            elif k in COMMAND_KEYS and isinstance(v, str):
                out[k] = redact(v)
            else:
                out[k] = redact_commands(v)
        return out
    if isinstance(value, list):
        return [redact_commands(v) for v in value]
    return value


def scrub(value: Any) -> Any:
    """The one sink every text faultlens stores or shows passes through, whoever
    built it: a string is redacted as text (which also reads it as command-line
    words: a command quoted in a refusal reason is masked like an argv), a
    list of strings as an argv, and JSON-like data value by value.
    Idempotent: what was masked stays as it is."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if value and all(isinstance(v, str) for v in value):
            return type(value)(redact_argv(value))  # words: read as a command line
        return type(value)(scrub(v) for v in value)
    return value


def masked_secret(argv: Sequence[str] | None) -> str | None:
    """The first element of a stored argv that holds a masked secret (safe
    to print), or None when the argv can be run as it is."""
    for arg in argv or ():
        if MASKED.search(str(arg)):
            return str(arg)
    return None
