"""Detection rules, one module per tool family (see registry.FAMILIES)."""

from .base import Block, Hit, LineContext, Rule, hit_from_match
from .registry import FAMILIES, DuplicateRuleError, add_rule, all_rules, get_rule, rule

__all__ = [
    "FAMILIES",
    "Block",
    "DuplicateRuleError",
    "Hit",
    "LineContext",
    "Rule",
    "add_rule",
    "all_rules",
    "get_rule",
    "hit_from_match",
    "rule",
]
