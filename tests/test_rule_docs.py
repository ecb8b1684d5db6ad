"""Each rule is documented where it lives, with the same headings
(CONVENTIONS.md: ruff's rule docs), and ids are unique and well formed."""

from __future__ import annotations

import re

import pytest

from faultlens.classifier.rules import all_rules

HEADINGS = ("What it detects", "Example output", "Recipe", "References")
RULES = all_rules()


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_docstring_has_the_fixed_headings(rule):
    doc = rule.doc
    missing = [h for h in HEADINGS if h not in doc]
    assert not missing, f"{rule.id} ({rule.family}.py) lacks {missing}"


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_id_is_family_dot_name(rule):
    assert re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_-]+)+", rule.id), rule.id
