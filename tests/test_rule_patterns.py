"""Rule patterns are compiled on first use (rules/base.py LazyPattern): every
built-in pattern still compiles, and a compiled one searches as `re` does."""

from __future__ import annotations

import re

import pytest

from faultlens.classifier.rules import all_rules, registry
from faultlens.classifier.rules.base import LazyPattern

RULES = all_rules()


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_every_built_in_rule_pattern_compiles(rule):
    if isinstance(rule.pattern, LazyPattern):
        rule.pattern.compile()  # a bad regex would otherwise surface only as a rule error


def test_a_lazy_pattern_finds_what_the_compiled_pattern_finds_and_then_is_it():
    lazy = LazyPattern(r"error (?P<code>TS\d+)", re.IGNORECASE)
    m = lazy.search("src/a.ts(3,1): ERROR TS2304: x")
    assert m is not None and m.group("code") == "TS2304"
    compiled = re.compile(r"error (?P<code>TS\d+)", re.IGNORECASE)
    # from now on the compiled pattern's own method, found on the instance
    assert type(lazy.search) is type(compiled.search) and "search" in vars(lazy)
    assert lazy.search.__self__ == compiled  # same pattern, flags and program
    assert lazy.match("error TS1") is not None and lazy.match("x error TS1") is None
    assert lazy == LazyPattern(r"error (?P<code>TS\d+)", re.IGNORECASE)


def test_a_warm_up_compiles_every_built_in_pattern_before_any_search():
    lazy = [r.pattern for r in RULES if isinstance(r.pattern, LazyPattern)]
    for p in lazy:  # back to not compiled (other tests searched some)
        vars(p).pop("search", None)
        vars(p).pop("match", None)
    registry.compile_patterns()
    assert lazy and all("search" in vars(p) and "match" in vars(p) for p in lazy)
