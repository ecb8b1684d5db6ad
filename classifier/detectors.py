"""The secret forms redaction recognises, and the literal text each needs.

Two sources, merged into one list of :class:`Detector`:

* **The maintained set**: the regular expressions of detect-secrets'
  regex-based plugins (Yelp's `detect-secrets`, or a fork installing the same
  `detect_secrets` package), read *as data* from the installed package's
  plugin files at run time: each ``denylist = [re.compile(r"...", flags)]``
  of a ``RegexBasedDetector`` subclass whose pattern is a literal.  Nothing
  of that package is imported or run (importing it costs a third of a
  second and pulls in `requests`); a new plugin of a later release is
  picked up as soon as it is installed.  Entries built by code (f-strings,
  helper calls) are skipped, and so is every detector without a literal of
  at least MIN_LITERAL characters to prefilter on (a pattern tried on every
  line would cost the log redactor its speed) and the kinds that are not
  secrets (public IP addresses).
* **Our own forms**: what that set lacks, mostly forms defined by their
  context rather than their shape: ``Authorization: Bearer …``, passwords
  in URLs (containing ``/`` or ``@`` too), a token as a URL's user, Azure
  ``AccountKey=``/SAS ``sig=``, ``sk_test_``, ``npm_``, ``mysql -p…``, and
  the shapes we knew before (``github_pat_``, ``sk-ant-``, Google keys,
  JWTs of any length).  Assignments (``password=``) and private key blocks
  stay in redact.py: their masking is not a plain span.

Each detector gives the span of the secret in a match; redact.py merges the
spans of every detector and masks each once (`finder()` picks the candidates
of a text in one scan).  Pure once loaded; the forms and the maintained set
are compiled on first use, so importing this module stays cheap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from .lazyre import lazy_compile
from .maintained_forms import Maintained, maintained, plugin_patterns
from .recache import compile_pattern
from .secret_form import Detector, required_literals

__all__ = [
    "Detector",
    "Finder",
    "Maintained",
    "detectors",
    "finder",
    "literals",
    "log_literal",
    "looks_secret",
    "maintained",
    "own",
    "plugin_patterns",
    "required_literals",
]


def _group(name: str, check: Callable[[str], bool] | None = None) -> Any:
    def span(m: re.Match[str]) -> tuple[int, int] | None:
        value = m.group(name)
        if value is None or (check is not None and not check(value)):
            return None
        return m.span(name)

    return span


# An environment or template reference standing for the value: $TOKEN,
# %TOKEN% (Windows), %(token)s, {{ token }}.
_REFERENCE = lazy_compile(
    r"\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|%\([A-Za-z_]\w*\)[sdr]|\{\{[^{}]*\}\}"
)


def looks_secret(value: str) -> bool:
    """A value that could be a credential: not a placeholder, a number or a
    plain word (`Basic authentication`, `token: none`, `${TOKEN}`)."""
    v = value.strip("\"'")
    if not v or "…" in v or v.isdigit():
        return False
    low = v.lower()
    if low in {"none", "null", "true", "false", "required", "string", "redacted", "undefined"}:
        return False
    if set(v) <= set("*xX•.-_<>") or v.startswith(("${", "$(", "<")) or _REFERENCE.fullmatch(v):
        return False
    has_digit = any(c.isdigit() for c in v)
    has_symbol = any(not c.isalnum() for c in v)
    mixed = v != v.lower() and v != v.upper()
    return has_digit or has_symbol or (mixed and len(v) >= 12)


def _own(
    name: str,
    pattern: str,
    literals: Sequence[str],
    *,
    folded: bool = False,
    group: str | None = None,
    check: Callable[[str], bool] | None = None,
) -> Detector:
    regex = compile_pattern(pattern, re.IGNORECASE if folded else 0)
    span = _group(group, check) if group else _group_whole
    return Detector(name, regex, tuple(literals), "faultlens", folded=folded, span=span)


def _group_whole(m: re.Match[str]) -> tuple[int, int] | None:
    return m.span()


_W = r"(?<![A-Za-z0-9])"  # not inside a longer word
_E = r"(?![A-Za-z0-9])"
_AWS_PREFIXES = ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA")


@lru_cache(maxsize=1)
def own() -> tuple[Detector, ...]:
    """Our own forms (compiled on first use: importing this module stays cheap)."""
    return _own_forms()


def _own_forms() -> tuple[Detector, ...]:
    return (
        _own("AWS key id", _W + f"(?:{'|'.join(_AWS_PREFIXES)})[A-Z0-9]{{16}}" + _E, _AWS_PREFIXES),
        _own(
            "GitHub token",
            _W + r"gh[pousr]_[A-Za-z0-9]{30,255}" + _E,
            ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        ),
        _own(
            "GitHub fine-grained token", _W + r"github_pat_[A-Za-z0-9_]{22,255}", ("github_pat_",)
        ),
        _own("GitLab token", _W + r"glpat-[A-Za-z0-9_-]{20,}", ("glpat-",)),
        _own("Slack token", _W + r"xox[bpasre]-[A-Za-z0-9-]{10,}", ("xox",)),
        _own("sk- key", _W + r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}" + _E, ("sk-",)),
        _own(
            "Stripe key",
            _W + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}" + _E,
            ("sk_live_", "rk_live_", "sk_test_", "rk_test_"),
        ),
        _own("Google API key", _W + r"AIza[0-9A-Za-z_-]{35}" + _E, ("AIza",)),
        _own("npm token", _W + r"npm_[A-Za-z0-9]{36}" + _E, ("npm_",)),
        _own("PyPI token", _W + r"pypi-AgE[A-Za-z0-9_-]{50,}", ("pypi-AgE",)),
        _own("SendGrid key", _W + r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}" + _E, ("SG.",)),
        _own("Twilio key", _W + r"SK[0-9a-fA-F]{32}" + _E, ("SK",)),
        _own(
            "JWT",
            _W + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
            ("eyJ",),
        ),
        _own(
            "Slack webhook",
            r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/-]{16,})",
            ("hooks.slack.com/",),
            group="secret",
        ),
        # Authorization: Bearer <token>, Basic <base64>, token <t>; also other
        # credential headers, as curl -H and HTTP dumps print them.
        _own(
            "credential header",
            r"(?<![A-Za-z0-9-])(?:proxy-)?(?:authorization|x-api-key|x-auth-token|private-token"
            r"|x-access-token|api-key)[\"']?\s*[:=]\s*[\"']?"
            r"(?:(?:bearer|basic|token|bot|apikey|key|digest|negotiate)\s+)?"
            r"(?P<secret>[^\s\"',;]{4,})",
            ("authorization", "api-key", "auth-token", "private-token", "access-token"),
            folded=True,
            group="secret",
            check=looks_secret,
        ),
        _own(
            "bearer token",
            r"(?<![A-Za-z0-9])bearer\s+(?P<secret>[A-Za-z0-9._~+/-]{12,}=*)",
            ("bearer",),
            folded=True,
            group="secret",
            check=looks_secret,
        ),
        # scheme://user:password@host — the password may hold `/`, `@` and `:`
        # (the last `@` before the host ends it); a port is not a password.
        _own(
            "URL password",
            r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s:/@\"']+:"
            r"(?P<secret>(?!\d+(?:[/?#]|$))[^\s\"']+)@(?=[A-Za-z0-9\[])",
            ("://",),
            group="secret",
        ),
        # scheme://TOKEN@host: a token (long, letters and digits) as the user.
        _own(
            "URL token user",
            r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://"
            r"(?P<secret>[A-Za-z0-9_-]{16,})@(?=[A-Za-z0-9\[])",
            ("://",),
            group="secret",
            check=lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v),
        ),
        # Azure: storage connection strings and SAS signatures.
        _own(
            "Azure key",
            r"(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey|SharedAccessSignature)=(?P<secret>[^;\s\"']{8,})",
            ("AccountKey=", "SharedAccessKey=", "SharedAccessSignature="),
            group="secret",
        ),
        _own(
            "SAS signature",
            r"[?&;]sig=(?P<secret>[A-Za-z0-9%+/=_-]{16,})",
            ("sig=",),
            group="secret",
        ),
        # mysql -u root -pSECRET (the password glued to -p), as a command line prints it.
        _own(
            "mysql password",
            r"(?<![A-Za-z0-9])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?\s-p(?P<secret>[^\s\"']{2,})",
            ("mysql", "mariadb"),
            group="secret",
        ),
    )


@lru_cache(maxsize=1)
def detectors() -> tuple[Detector, ...]:
    """Every detector: our own forms first, then the maintained set's."""
    return own() + maintained().detectors


def literals() -> tuple[tuple[str, bool], ...]:
    """(literal, matched case-insensitively) for every detector: text with
    none of them holds no secret any detector finds."""
    seen: dict[tuple[str, bool], None] = {}
    for d in detectors():
        for lit in d.literals:
            seen[(lit.lower() if d.folded else lit, d.folded)] = None
    return tuple(seen)


class Finder:
    """Which detectors may match a text: two Aho-Corasick automatons over
    every detector's literals (the case-sensitive ones on the text, the
    folded ones on its lowered form), so a text costs two scans rather than
    an `in` check per literal."""

    def __init__(self, found: Sequence[Detector]) -> None:
        from ahocorasick_rs import AhoCorasick

        self.detectors = tuple(found)
        exact: dict[str, list[int]] = {}
        folded: dict[str, list[int]] = {}
        for i, d in enumerate(self.detectors):
            for lit in d.literals:
                (folded if d.folded else exact).setdefault(
                    lit.lower() if d.folded else lit, []
                ).append(i)
        self._exact = (AhoCorasick(list(exact)), list(exact.values())) if exact else None
        self._folded = (AhoCorasick(list(folded)), list(folded.values())) if folded else None

    def candidates(self, text: str) -> list[Detector]:
        """The detectors one of whose literals is in `text`, in their order.
        A text with a character that (?i) folds onto an ASCII letter (ſ, K,
        ı, İ) gets every case-insensitive detector."""
        picked: set[int] = set()
        if self._exact is not None:
            ac, owners = self._exact
            for idx, _, _ in ac.find_matches_as_indexes(text, overlapping=True):
                picked.update(owners[idx])
        if self._folded is not None:
            ac, owners = self._folded
            if not text.isascii() and any(c in text for c in FOLD_CHARS):
                picked.update(i for i, d in enumerate(self.detectors) if d.folded)
            else:
                for idx, _, _ in ac.find_matches_as_indexes(text.lower(), overlapping=True):
                    picked.update(owners[idx])
        return [self.detectors[i] for i in sorted(picked)]


FOLD_CHARS = "\u017f\u212a\u0131\u0130"  # what (?i) matches to an ASCII letter


@lru_cache(maxsize=1)
def finder() -> Finder:
    return Finder(detectors())


def log_literal(literal: str) -> str:
    """The part of a case-insensitive literal the log redactor's automaton
    spells in every case (at most 5 letters): its longest run of letters,
    the last of equals (`https://hooks.slack.com/services/T` → `servi`), so
    a common start like `https` does not send every URL line to `redact`."""
    runs = re.findall(r"[a-z]{3,}", literal.lower())
    best = max(reversed(runs), key=len) if runs else literal
    return best[:5]
