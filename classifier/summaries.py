"""Which summary records a more specific record explains.

A build tool's closing line ("could not compile `shop`", "FAIL shop/cart",
"BUILD FAILURE", "make: *** [all] Error 2") says a run failed without saying
why.  Its rule marks the hit as a summary (`Hit.key = (FALLBACK, TOOL, ...)`,
classifier/rules/base.py), and the summary stands as a record only when
nothing explains it: then the failed run is never reported as clean.

What explains a summary is a record of what its tool runs.  cargo's summary is
explained by rustc's errors, `go test`'s by Go's, Gradle's by javac's or
kotlinc's; not by a shell script's syntax error or a secret scanner's finding
elsewhere in the same CI log, which are other failures.  A tool that runs
anything (make, ninja, cmake, the linker every compiler calls) is explained
by any record.
"""

from __future__ import annotations

from collections.abc import Iterable

_JVM = frozenset({"java", "kotlin", "scala", "jvm"})

# A summary's tool (Hit.key[1]) -> the rule families (a rule id's first part)
# whose records explain it.  A tool not named here runs anything.
EXPLAINED_BY: dict[str, frozenset[str]] = {
    "cargo": frozenset({"rust", "cargo_json"}),
    "go test": frozenset({"go", "go_lint"}),
    "maven": _JVM,
    "gradle": _JVM,
    "sbt": _JVM,
    "cabal": frozenset({"haskell"}),
    "zig build": frozenset({"zig"}),
    "rebar3": frozenset({"erlang"}),
    "elixir": frozenset({"elixir"}),
    "perl": frozenset({"perl", "tap"}),
    "prove": frozenset({"perl", "tap"}),
    "npm-audit": frozenset({"security"}),
    "gitleaks": frozenset({"security"}),
}


def explained(tool: object, specific_rules: Iterable[str | None]) -> bool:
    """Whether a summary of `tool` is explained by records of these rules
    (the records that are not summaries themselves)."""
    families = EXPLAINED_BY.get(tool) if isinstance(tool, str) else None
    rules = list(specific_rules)
    if families is None:
        return bool(rules)
    return any(r is not None and r.split(".", 1)[0] in families for r in rules)
