"""Regexes compiled on first use, for the rule modules' module-level patterns.

A rule module imports with its helper patterns (a traceback's frame line, a
test runner's summary), and most of them serve one report kind: a hook call
that classifies one tsc error would compile ~400 of them at import for the
~20 it uses.  `lazy_compile` returns a stand-in that compiles the pattern
(its program stored between runs: classifier/recache.py) the first time any
of its attributes is read, and then keeps the compiled pattern's bound
methods and attributes on itself, so every later call costs what a call on
the compiled pattern costs.

Only attribute use is supported (``P.match(line)``, ``P.groupindex``), which is
how the rule modules use their patterns; `re.sub(P, ...)` and
``isinstance(P, re.Pattern)`` want the compiled pattern itself
(`LazyRegex.compiled`).
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

from .recache import compile_pattern

# What a compiled pattern offers and a rule may use.
_FORWARDED = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "flags",
    "groups",
    "groupindex",
)


class LazyRegex:
    """A pattern and its flags, compiled when first used."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._source = (pattern, flags)

    @property
    def pattern(self) -> str | bytes:
        """The pattern's text, without compiling it (a rule's own pattern is
        often a module pattern's text: `pattern=_HEAD.pattern`)."""
        return self._source[0]

    @property
    def compiled(self) -> re.Pattern[Any]:
        """The compiled pattern (compiling it now if it was not yet)."""
        found: re.Pattern[Any] | None = self.__dict__.get("_compiled")
        if found is None:
            found = compile_pattern(*self._source)
            # instance attributes: later look-ups no longer reach __getattr__
            self.__dict__.update({name: getattr(found, name) for name in _FORWARDED})
            self.__dict__["_compiled"] = found
        return found

    def __getattr__(self, name: str) -> Any:
        # only reached for what is not on the instance yet: the first use
        if name not in _FORWARDED:
            raise AttributeError(name)
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source[0]!r}, {self._source[1]!r})"


def lazy_compile(pattern: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, compiled on first use (typed as the
    compiled pattern it stands for)."""
    return cast("re.Pattern[AnyStr]", LazyRegex(pattern, int(flags)))
