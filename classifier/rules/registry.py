"""The rule registry: every detection rule, registered once, by id.

Modelled on errorformat's `fmts` registry: each tool family lives in its own
module (`classifier/rules/<family>.py`), or in a package of modules when it
outgrows one (`classifier/rules/<family>/<part>.py`), and registers its rules
at import time through :func:`rule`; a duplicate id is a programming error and aborts
at import.  `all_rules()` imports every family module listed in
`FAMILIES` and returns the rules in priority order.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ..taxonomy import FailureType
from .base import LazyPattern, Rule, RuleFunc

# One module per tool family; add a new family here.
FAMILIES: tuple[str, ...] = (
    "typescript",
    "javascript",
    "js_test",
    "ava",
    "oxc",
    "npm",
    "python",
    "python_test",
    "rust",
    "c",
    "go",
    "java",
    "git",
    "security",
    "mcp",
    "plugin",
    "infra",
    "linters",
    "agent",
    "coordinator",
    "workflow",
    "tap",
    "cargo_json",
    "ruby",
    "ruby_test",
    "ruby_xunit",
    "rake",
    "coverage",
    "php",
    "php_test",
    "php_lint",
    "csharp",
    "jvm",
    "kotlin",
    "scala",
    "haskell",
    "elixir",
    "erlang",
    "ocaml",
    "lua",
    "perl",
    "shell",
    "zig",
    "swift",
    "dart",
    # CI linters and format checkers (issue 13)
    "shellcheck",
    "js_lint",
    "docker",
    "css",
    "markdown",
    "fatal_warnings",
    "py_lint",
    "yaml_ci",
    "go_lint",
    "sast",
    "sql",
    "spelling",
    "precommit",
    # CI job logs' checks, harnesses and gates (issue 24)
    "formatters",
    "python_crash",
    "filecheck",
    "policy",
    "harness",
    "trybuild",
    "lint_crash",
    "gnu",  # the generic GNU-format rules: last on every line
)

_RULES: dict[str, Rule] = {}
_loaded = False
_version = 0  # bumped by every registration (caches of the rule set key on it)
_sorted: tuple[int, tuple[Rule, ...]] = (-1, ())


class DuplicateRuleError(RuntimeError):
    """Two rules were registered under the same id."""


def rule(
    *,
    id: str,
    category: FailureType,
    tool: str,
    pattern: str,
    triggers: tuple[str, ...] | list[str],
    url: str = "",
    priority: int = 0,
    flags: int = 0,
) -> Callable[[RuleFunc], RuleFunc]:
    """Register the decorated function as a detection rule.

    `triggers` are literal substrings; a line is only tried against the rule
    when it contains at least one of them.  They are what keeps the engine
    fast, so they must be precise: every line the pattern can match must
    contain one of them (the sample test checks this on real output).
    The pattern is compiled on the rule's first search (`LazyPattern`).
    """
    if not triggers:
        raise ValueError(f"rule {id}: at least one literal trigger is required")

    def deco(func: RuleFunc) -> RuleFunc:
        if id in _RULES:
            raise DuplicateRuleError(f"rule id registered twice: {id}")
        family = family_of(func.__module__)
        _registered()
        _RULES[id] = Rule(
            id=id,
            category=category,
            tool=tool,
            pattern=LazyPattern(pattern, flags),
            triggers=tuple(triggers),
            func=func,
            family=family,
            url=url,
            priority=priority,
        )
        return func

    return deco


def family_of(module: str) -> str:
    """The family a rule defined in `module` belongs to: the first name under
    this package (`rules.infra` and `rules.infra.network` are both `infra`)."""
    prefix = f"{__package__}."
    if module.startswith(prefix):
        return module.removeprefix(prefix).split(".", 1)[0]
    return module.rsplit(".", 1)[-1]


def add_rule(r: Rule) -> None:
    """Register an already built rule (project rules from configuration)."""
    if r.id in _RULES:
        raise DuplicateRuleError(f"rule id registered twice: {r.id}")
    _registered()
    _RULES[r.id] = r


def _registered() -> None:
    global _version
    _version += 1


def rules_version() -> int:
    """Changes whenever a rule is registered (built-ins load lazily)."""
    load_builtin()
    return _version


def load_builtin() -> None:
    """Import every family module (idempotent)."""
    global _loaded
    if _loaded:
        return
    for fam in FAMILIES:
        try:
            importlib.import_module(f"{__package__}.{fam}")
        except ModuleNotFoundError as exc:  # a family not written yet
            if exc.name != f"{__package__}.{fam}":
                raise
    _loaded = True


def all_rules() -> list[Rule]:
    """Every built-in rule, highest priority first, then by id."""
    global _sorted
    load_builtin()
    if _sorted[0] != _version:
        _sorted = (_version, tuple(sorted(_RULES.values(), key=lambda r: (-r.priority, r.id))))
    return list(_sorted[1])


def compile_patterns() -> None:
    """Compile every built-in rule's pattern now, not on its first search:
    for a long-lived process's warm-up thread (the server's), so its first
    classification waits for none of them."""
    for r in all_rules():
        if isinstance(r.pattern, LazyPattern):
            r.pattern.compile()


def get_rule(rule_id: str) -> Rule:
    load_builtin()
    return _RULES[rule_id]
