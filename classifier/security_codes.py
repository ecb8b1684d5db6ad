"""Which lint findings are security findings (trust_gate, wherever they
appear): one table for the text rules and the structured reports.

A linter that carries a security checker reports its findings beside style
and correctness ones; those are a trust gate for human review, never a
compile error to fix automatically (docs/rules.md, "Security linters"):

* ruff and flake8's `S` rules (flake8-bandit: `S105`, `S602`; not `SIM`);
* bandit's `B` tests;
* eslint plugins `security/`, `security-node/`, `no-secrets/`, `no-unsanitized/`;
* gosec's `G` rules (alone or as golangci-lint's `gosec` linter).
"""

from __future__ import annotations

from .lazyre import lazy_compile

ESLINT_PREFIXES = ("security/", "security-node/", "no-secrets/", "no-unsanitized/")
_BANDIT_S = lazy_compile(r"^S\d{3}$")  # flake8-bandit / ruff's port of it
_BANDIT_B = lazy_compile(r"^B\d{3}$")
_GOSEC = lazy_compile(r"^G\d{3}$")
SECURITY_LINTERS = frozenset({"gosec", "bandit", "semgrep", "brakeman", "flake8-bandit"})


def is_security_code(code: str | None, tool: str | None = None) -> bool:
    """Whether a finding's code (or the linter that reported it) is a
    security check."""
    if not code:
        return False
    if code.startswith(ESLINT_PREFIXES) or code.lower() in SECURITY_LINTERS:
        return True
    name = (tool or "").lower()
    if name == "bandit":
        return bool(_BANDIT_B.match(code))
    if name in ("gosec", "golangci-lint"):
        return bool(_GOSEC.match(code))
    return bool(_BANDIT_S.match(code))  # ruff, flake8 (flake8-bandit), or not known
