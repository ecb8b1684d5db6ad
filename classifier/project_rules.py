"""Project rules as engine rules: a regex, a Vim errorformat (or a Vim
compiler's, by name) or a VS Code problem matcher, turned into a
:class:`~faultlens.classifier.rules.base.Rule`.

Project rules are untrusted input to the engine in one respect: their
patterns are the project's, and a pattern can backtrack for ever
(`(a+)+$` on `ERR aaaa…b`).  Every project pattern therefore runs in the
`regex` module with a time limit per line (:data:`MATCH_TIMEOUT`); a rule
whose pattern overruns once is reported (one line, through the engine's
rule errors) and skipped for the rest of the output and after, while every
other rule goes on.

The errorformat rule runs Vim's quickfix parser (classifier/quickfix.py)
over the lines the engine gives it: lines holding one of its formats'
literal text (in the case written, lower, upper or title case), and every
line while a multi-line entry is open; a format with no literal text makes
the rule see every line.  A valid entry of an error type (no type, `e` or
`f`) is a failure; %W entries and other types (`w`, rubocop's `C`) are
warnings (records when warnings failed the run, classifier/warnings_policy.py),
%I/%N entries are dropped — all of them plain failures with
`include_warnings`; %G general messages never.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex

from .errorformat import Format, literal_runs
from .lazyre import lazy_compile
from .quickfix import QuickfixEntry, QuickfixParser
from .rules.base import Hit, LineContext, Rule, hit_from_match, positive_int
from .taxonomy import FailureType

log = logging.getLogger(__name__)

MATCH_TIMEOUT = 0.1  # seconds one project pattern may take on one line
GROUPS = ("file", "line", "column", "end_line", "end_column", "message", "code")
ERROR_TYPES = frozenset({"", "e", "E", "f", "F"})
NEWLINE_TRIGGER = "\n"  # the engine's "every line" trigger (see engine._line)
_ALWAYS = lazy_compile("")


class RuleGaveUp(RuntimeError):
    """A project pattern overran its time limit; the rule is skipped from now on."""


@dataclass
class Guard:
    """The time limit shared by one project rule's patterns."""

    rule_id: str
    timeout: float = MATCH_TIMEOUT
    broken: str | None = None  # why the rule is skipped, once it is

    def search(self, pattern: regex.Pattern[str], line: str, pos: int = 0) -> Any:
        if self.broken is not None:
            return None
        try:
            return pattern.search(line, pos, timeout=self.timeout)
        except TimeoutError:
            self.give_up(pattern.pattern)
            raise RuleGaveUp(self.broken) from None

    def give_up(self, pattern: str) -> None:
        """Skip the rule from now on; the engine reports why (its rule errors,
        said once by the front), so nothing is logged here."""
        self.broken = (
            f"its pattern {_clip(pattern)!r} took over {self.timeout * 1000:.0f} ms on one line "
            "(it backtracks without end); the rule is skipped"
        )


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class GuardedPattern:
    """What the engine calls `search` on: a project regex under its guard."""

    def __init__(self, compiled: regex.Pattern[str], guard: Guard) -> None:
        self.compiled = compiled
        self.guard = guard
        self.pattern = compiled.pattern

    def search(self, line: str) -> Any:
        return self.guard.search(self.compiled, line)


def compile_regex(text: str) -> regex.Pattern[str]:
    """A project regex (Python `re` syntax), compiled by the `regex` module;
    ValueError says why it does not compile."""
    try:
        return regex.compile(text, regex.V0)
    except regex.error as exc:
        raise ValueError(f"`regex` does not compile: {exc}") from None
    except (OverflowError, RecursionError, MemoryError) as exc:
        raise ValueError(f"`regex` does not compile: {type(exc).__name__}") from None


def case_variants(text: str) -> list[str]:
    """A literal in the case written, lower, upper, title and capitalised
    case: what a case-insensitive format's trigger is looked for as."""
    out: list[str] = []
    for v in (text, text.lower(), text.upper(), text.title(), _capitalised(text)):
        if v not in out:
            out.append(v)
    return out


def _capitalised(text: str) -> str:
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :].lower()
    return text


def required_literal(pattern: str) -> str | None:
    """The longest run of literal text outside groups, classes and
    quantifiers that any match must contain; None when the regex has a
    top-level alternation or no literal of at least 2 characters."""
    best = max(literal_runs(pattern), key=len, default="")
    return best if len(best) >= 2 else None


# -- regex rules ------------------------------------------------------------------
def regex_rule(
    rid: str,
    category: FailureType,
    tool: str,
    pattern_text: str,
    triggers: Sequence[str],
    *,
    summary: str = "regex",
    url: str = "",
) -> Rule:
    compiled = compile_regex(pattern_text)
    guard = Guard(rid)

    def func(m: Any, ctx: LineContext) -> Hit:
        return hit_from_match(m, ctx)

    func.__doc__ = f"Project rule {rid} ({summary})."
    return Rule(
        rid,
        category,
        tool,
        GuardedPattern(compiled, guard),
        tuple(triggers),
        func,
        "project",
        url,
        100,
    )


# -- errorformat rules ------------------------------------------------------------
def efm_triggers(formats: Sequence[Format]) -> tuple[str, ...] | None:
    """The triggers an errorformat rule needs: a literal of every format that
    can start an entry or change the parser's state from idle; None when
    one of them has no literal text (the rule must see every line)."""
    out: list[str] = []
    for f in formats:
        if f.prefix in ("C", "Z") or (f.prefix == "G" and not f.conthere):
            continue
        if not f.literals:
            return None
        for v in case_variants(max(f.literals, key=len)):
            if v not in out:
                out.append(v)
    return tuple(out)


@dataclass
class _EfmState:
    """One errorformat rule's parser for one output (kept in ctx.state)."""

    parser: QuickfixParser
    fed_line: int = 0  # the last output line the parser read
    said: bool = False  # the parser's refusal was reported


@dataclass
class EfmRule:
    """The behaviour of one errorformat project rule."""

    rule_id: str
    formats: list[Format]
    include_warnings: bool
    guard: Guard
    stats: dict[str, int] = field(default_factory=dict)

    def new_state(self, ctx: LineContext) -> _EfmState:
        cwd = ctx.cwd

        def under(p: str) -> str:
            return p if os.path.isabs(p) else os.path.join(cwd, p)

        def exists(p: str) -> bool:
            try:
                return os.path.exists(under(p))
            except (OSError, ValueError):
                return False

        def isdir(p: str) -> bool:
            try:
                return os.path.isdir(under(p))
            except (OSError, ValueError):
                return False

        parser = QuickfixParser(
            self.formats, exists=exists, isdir=isdir, timeout=self.guard.timeout
        )
        return _EfmState(parser)

    def state(self, ctx: LineContext) -> _EfmState:
        st = ctx.state.get(self.rule_id)
        if st is None:
            st = ctx.state[self.rule_id] = self.new_state(ctx)
        assert isinstance(st, _EfmState)
        return st

    def feed(self, st: _EfmState, line: str, line_no: int) -> list[QuickfixEntry]:
        st.fed_line = line_no
        try:
            entries = st.parser.feed(line, line_no)
        except TimeoutError:
            self.guard.give_up("|".join(f.source for f in self.formats))
            raise RuleGaveUp(self.guard.broken) from None
        if st.parser.aborted and not st.said:  # reported once; the rule reads no more
            st.said = True
            raise RuleGaveUp(f"{st.parser.aborted}; the rule reads no more of this output")
        return entries

    def start(self, ctx: LineContext) -> Hit | _EfmSession | None:
        """The rule's function: a line the engine chose for it."""
        if self.guard.broken is not None:
            return None
        st = self.state(ctx)
        if st.fed_line >= ctx.line_no or st.parser.aborted:  # read already, or refused
            return None
        hits = self.hits(self.feed(st, ctx.line, ctx.line_no))
        if st.parser.idle and st.parser.last is None:
            if not hits:
                return None
            if len(hits) == 1:
                return hits[0]
        return _EfmSession(self, st, hits)

    def hits(self, entries: Iterable[QuickfixEntry]) -> list[Hit]:
        out = []
        for e in entries:
            if not e.valid or e.prefix == "G":
                continue
            hit = _hit(e)
            if e.type not in ERROR_TYPES and not self.include_warnings:
                if e.type.lower() in ("i", "n"):  # info and notes never fail a run
                    continue
                hit.warning = True  # a failure only when warnings failed the run
            out.append(hit)
        return out


def _hit(e: QuickfixEntry) -> Hit:
    first = e.text.split("\n", 1)[0]
    return Hit(
        signal=(e.source or first).strip(),
        message=e.text.strip() or e.source.strip(),
        file=e.file or None,
        line=positive_int(str(e.lnum)) if e.lnum else None,
        column=e.col if e.col > 0 else None,
        end_line=e.end_lnum if e.end_lnum > 0 else None,
        end_column=e.end_col if e.end_col > 0 else None,
        code=str(e.nr) if e.nr >= 0 else None,
        log_line=e.line_no or None,
    )


class _EfmSession:
    """The lines after an entry that may go on: Vim's multi-line messages
    (and a %> format's next line).  The parser reads every line until it
    is idle again; the lines that made or grew a failure are the session's,
    the rest (ignored or general lines) other rules see too."""

    def __init__(self, rule: EfmRule, st: _EfmState, hits: list[Hit]) -> None:
        self.rule = rule
        self.st = st
        self.found = hits
        self.max_lines = 1_000_000

    def feed(self, line: str, line_no: int) -> bool | None:
        parser = self.st.parser
        before = parser.last
        if self.rule.guard.broken is not None:
            return False
        entries = self.rule.feed(self.st, line, line_no)
        self.found.extend(self.rule.hits(entries))
        action = parser.action
        if action == "nomatch":  # Vim ends a multi-line message here
            return False
        if parser.idle and parser.last is None:
            self.max_lines = 0  # done: the engine finishes the block after this line
            return action in ("entry", "continued")
        grew = action == "continued" and before is not None and before is parser.last
        return True if action == "entry" or grew else None

    def finish(self) -> list[Hit]:
        hits = self.found + self.rule.hits(self.st.parser.close())
        self.found = []
        return hits


def efm_rule(
    rid: str,
    category: FailureType,
    tool: str,
    formats: list[Format],
    triggers: Sequence[str] | None,
    *,
    include_warnings: bool = False,
    summary: str = "errorformat",
    url: str = "",
) -> Rule:
    guard = Guard(rid)
    behaviour = EfmRule(rid, formats, include_warnings, guard)
    if triggers is None:
        triggers = efm_triggers(formats) or (NEWLINE_TRIGGER,)

    def func(m: Any, ctx: LineContext) -> Hit | _EfmSession | None:
        return behaviour.start(ctx)

    func.__doc__ = f"Project rule {rid} ({summary})."
    return Rule(rid, category, tool, _ALWAYS, tuple(triggers), func, "project", url, 100)


def make_func(behaviour: Callable[[LineContext], Any]) -> Callable[[Any, LineContext], Any]:
    def func(m: Any, ctx: LineContext) -> Any:
        return behaviour(ctx)

    return func
