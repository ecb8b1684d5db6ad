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
spans of every detector and masks each once.  Pure once loaded.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

MIN_LITERAL = 2  # a shorter required literal is no prefilter: the detector is skipped
MIN_GROUP = 8  # a capture group shorter than this is context, not the secret
MAX_PLUGIN_FILE = 256 * 1024
NOT_SECRETS = frozenset({"Public IP (ipv4)"})  # detect-secrets kinds that are not credentials
_FLAGS = {
    name: getattr(re, name)
    for name in ("I", "IGNORECASE", "X", "VERBOSE", "M", "MULTILINE", "S", "DOTALL", "A", "ASCII")
}
_EDGE = " \t\"'=:,;"  # what a maintained pattern's match may carry around the secret


def _alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


@dataclass(frozen=True, slots=True)
class Detector:
    """One secret form: a pattern, the literal text without which it cannot
    match (one of `literals` is in every match; matched case-insensitively
    when `folded`), and how a match's secret span is found."""

    name: str
    regex: re.Pattern[str]
    literals: tuple[str, ...]
    source: str
    folded: bool = False
    # The secret's span in a match, or None when the match is not a secret.
    span: Callable[[re.Match[str]], tuple[int, int] | None] | None = field(
        default=None, compare=False
    )

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        pick = self.span or _maintained_span
        for m in self.regex.finditer(text):
            found = pick(m)
            if found is not None and found[1] > found[0]:
                yield found


_NAMED = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,40}[=:]\s*")


def _maintained_span(m: re.Match[str]) -> tuple[int, int] | None:
    """A maintained pattern's secret: its first capture group when that is
    long enough and does not begin the match (`://user:(pw)@`), else the
    whole match, less separators around it; none when it starts or ends
    inside a longer word (a hash, an identifier)."""
    start, end = m.span()
    if m.re.groups and m.group(1) is not None:
        g0, g1 = m.span(1)
        if g1 - g0 >= MIN_GROUP and g0 > start:
            start, end = g0, g1
    text = m.string
    named = _NAMED.match(text, start, end)
    if named and end - named.end() >= MIN_GROUP:
        start = named.end()  # `AccountKey=<key>`: the name stays readable
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    if start > 0 and _alnum(text[start]) and _alnum(text[start - 1]):
        return None
    if end < len(text) and _alnum(text[end - 1]) and _alnum(text[end]):
        return None
    return start, end


# -- the literal text a pattern needs ------------------------------------------------
def _parser() -> Any:
    import re._parser as parser  # type: ignore[import-not-found,unused-ignore]

    return parser


MAX_ALTERNATIVES = 64


def _alternatives(items: Any, p: Any) -> set[str] | None:
    """Every string a purely literal (sub)pattern matches, or None."""
    out = {""}
    for op, av in items:
        piece = _literal_piece(op, av, p)
        if piece is None or len(out) * len(piece) > MAX_ALTERNATIVES:
            return None
        out = {a + b for a in out for b in piece}
    return out


def _literal_piece(op: Any, av: Any, p: Any) -> set[str] | None:
    if op is p.LITERAL:
        return {chr(av)}
    if op is p.BRANCH:
        alts = [_alternatives(b, p) for b in av[1]]
        if all(a is not None for a in alts):
            return set().union(*(a for a in alts if a is not None))
        return None
    if op is p.SUBPATTERN:
        return _alternatives(av[-1], p)
    if op is p.IN:
        return _char_class(av, p)
    return None


MAX_CLASS = 16


def _char_class(av: Any, p: Any) -> set[str] | None:
    """The characters of a small class (`[pousr]`, `[\\dA-F]`), or None."""
    out: set[str] = set()
    for o, v in av:
        if o is p.LITERAL:
            out.add(chr(v))
        elif o is p.RANGE and v[1] - v[0] < MAX_CLASS:
            out |= {chr(c) for c in range(v[0], v[1] + 1)}
        elif o is p.CATEGORY and v is p.CATEGORY_DIGIT:
            out |= set("0123456789")
        else:
            return None
        if len(out) > MAX_CLASS:
            return None
    return out


def _prefixes(op: Any, av: Any, p: Any) -> set[str] | None:
    """The literal starts of a group or alternation whose every branch
    starts with literal text (`(?:A3T[A-Z0-9]|AKIA)` → {A3T, AKIA})."""
    if op is p.SUBPATTERN:
        branches = [av[-1]]
    elif op is p.BRANCH:
        branches = list(av[1])
    elif op in (p.MAX_REPEAT, p.MIN_REPEAT) and av[0] >= 1:
        branches = [av[2]]
    else:
        return None
    out: set[str] = set()
    for items in branches:
        starts = {""}
        for sub_op, sub_av in items:
            piece = _literal_piece(sub_op, sub_av, p)
            if piece is None:
                piece = _prefixes(sub_op, sub_av, p)
                if piece is not None and len(starts) * len(piece) <= MAX_ALTERNATIVES:
                    starts = {a + b for a in starts for b in piece}
                break
            if len(starts) * len(piece) > MAX_ALTERNATIVES:
                break
            starts = {a + b for a in starts for b in piece}
        if starts == {""}:
            return None
        out |= starts
    return out if len(out) <= MAX_ALTERNATIVES else None


def _better(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    """The more selective of two literal sets (longer shortest literal, then fewer)."""
    if not a:
        return b
    if not b:
        return a
    ka = (min(map(len, a)), -len(a))
    kb = (min(map(len, b)), -len(b))
    return a if ka >= kb else b


def _required(items: Any, p: Any) -> set[str] | None:
    """A set of literals one of which is in every match of the (sub)pattern."""
    best: set[str] | None = None
    run = {""}
    for op, av in items:
        piece = _literal_piece(op, av, p)
        if piece is not None and len(run) * len(piece) <= MAX_ALTERNATIVES:
            run = {a + b for a in run for b in piece}
            continue
        starts = _prefixes(op, av, p)
        if starts is not None and len(run) * len(starts) <= MAX_ALTERNATIVES:
            best = _better(best, {a + b for a in run for b in starts})
        if run != {""}:
            best = _better(best, run)
        run = {""}
        sub: set[str] | None = None
        if op is p.SUBPATTERN:
            sub = _required(av[-1], p)
        elif op is p.BRANCH:
            parts = [_required(b, p) for b in av[1]]
            if all(parts):
                sub = set().union(*(x for x in parts if x))
        elif op in (p.MAX_REPEAT, p.MIN_REPEAT) and av[0] >= 1:
            sub = _required(av[2], p)
        best = _better(best, sub)
    if run != {""}:
        best = _better(best, run)
    return best


def required_literals(regex: re.Pattern[str]) -> tuple[str, ...]:
    """Literals one of which every match of `regex` contains (each at least
    MIN_LITERAL long), or () when the pattern has none."""
    p = _parser()
    try:
        found = _required(p.parse(regex.pattern, regex.flags), p)
    except Exception:  # an internal parser we read, not rely on
        return ()
    if not found or min(map(len, found)) < MIN_LITERAL:
        return ()
    return tuple(sorted(found))


# -- the maintained set, read as data ------------------------------------------------------
def _flags(node: ast.expr | None) -> int | None:
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "re" and node.attr in _FLAGS:
            return int(_FLAGS[node.attr])
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        a, b = _flags(node.left), _flags(node.right)
        return None if a is None or b is None else a | b
    return None


def _compiled(node: ast.expr) -> tuple[str, int] | None:
    """`re.compile(r"literal"[, flags])` as (pattern, flags), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    f = node.func
    if not (isinstance(f.value, ast.Name) and f.value.id == "re" and f.attr == "compile"):
        return None
    if not node.args or not isinstance(node.args[0], ast.Constant):
        return None
    pattern = node.args[0].value
    if not isinstance(pattern, str):
        return None
    flag_node = node.args[1] if len(node.args) > 1 else None
    for kw in node.keywords:
        if kw.arg == "flags":
            flag_node = kw.value
    flags = _flags(flag_node)
    return None if flags is None else (pattern, flags)


def plugin_patterns(source: str) -> list[tuple[str, str, int]]:
    """(secret type, pattern, flags) of every literal pattern in the
    denylists of a plugin module's RegexBasedDetector classes."""
    out: list[tuple[str, str, int]] = []
    for cls in ast.parse(source).body:
        if not isinstance(cls, ast.ClassDef):
            continue
        if not any(
            (isinstance(b, ast.Name) and b.id == "RegexBasedDetector")
            or (isinstance(b, ast.Attribute) and b.attr == "RegexBasedDetector")
            for b in cls.bases
        ):
            continue
        kind = cls.name
        patterns: list[tuple[str, int]] = []
        for stmt in cls.body:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target = stmt.targets[0]
            if not isinstance(target, ast.Name):
                continue
            if target.id == "secret_type" and isinstance(stmt.value, ast.Constant):
                kind = str(stmt.value.value)
            elif target.id == "denylist" and isinstance(stmt.value, ast.List | ast.Tuple):
                patterns += [c for c in map(_compiled, stmt.value.elts) if c is not None]
        out += [(kind, pat, flags) for pat, flags in patterns]
    return out


@dataclass(frozen=True, slots=True)
class Maintained:
    """What was read from the installed detector set."""

    source: str  # "detect-secrets 1.5.0", or "" when none is installed
    detectors: tuple[Detector, ...]
    skipped: tuple[str, ...]  # "kind: why"


def _version(folder: Path) -> str:
    try:
        tree = ast.parse((folder / "__version__.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return "?"
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            return str(stmt.value.value)
    return "?"


def _plugin_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.glob("*.py") if p.is_file() and not p.is_symlink())
    except OSError:
        return []


@lru_cache(maxsize=1)
def maintained() -> Maintained:
    """The detect-secrets plugins' literal patterns (found without importing
    the package: `find_spec` of a top-level package only locates it)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("detect_secrets")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return Maintained("", (), ())
    folder = Path(next(iter(spec.submodule_search_locations)))
    source = f"detect-secrets {_version(folder)}"
    found: list[Detector] = []
    skipped: list[str] = []
    for path in _plugin_files(folder / "plugins"):
        try:
            if path.stat().st_size > MAX_PLUGIN_FILE:
                continue
            entries = plugin_patterns(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            continue
        for kind, pattern, flags in entries:
            if kind in NOT_SECRETS:
                skipped.append(f"{kind}: not a credential")
                continue
            try:
                regex = re.compile(pattern, flags)
            except re.error:
                skipped.append(f"{kind}: pattern does not compile")
                continue
            literals = required_literals(regex)
            if not literals:
                skipped.append(f"{kind}: no literal to prefilter on")
                continue
            found.append(
                Detector(kind, regex, literals, source, folded=bool(flags & re.IGNORECASE))
            )
    return Maintained(source, tuple(found), tuple(skipped))


# -- our own forms -----------------------------------------------------------------------
def _group(name: str, check: Callable[[str], bool] | None = None) -> Any:
    def span(m: re.Match[str]) -> tuple[int, int] | None:
        value = m.group(name)
        if value is None or (check is not None and not check(value)):
            return None
        return m.span(name)

    return span


def looks_secret(value: str) -> bool:
    """A value that could be a credential: not a placeholder, a number or a
    plain word (`Basic authentication`, `token: none`, `${TOKEN}`)."""
    v = value.strip("\"'")
    if not v or "…" in v or v.isdigit():
        return False
    low = v.lower()
    if low in {"none", "null", "true", "false", "required", "string", "redacted", "undefined"}:
        return False
    if set(v) <= set("*xX•.-_<>") or v.startswith(("${", "$(", "<", "%")) or v.startswith("$"):
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
    regex = re.compile(pattern, re.IGNORECASE if folded else 0)
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
