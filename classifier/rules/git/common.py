"""What the git rules share: the category, git's documentation, and the
branch and remote named a few lines above (`On branch`, a pull's `From`)."""

from __future__ import annotations

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import LineContext, match_above

BD = FailureType.BRANCH_DIVERGENCE
DOCS_STATUS = "https://git-scm.com/docs/git-status"
DOCS_PULL = "https://git-scm.com/docs/git-pull"

_ON_BRANCH = lazy_compile(r"^On branch (?P<branch>\S+)")
_FETCH_HEAD = lazy_compile(r"^\s*\* branch\s+(?P<branch>\S+)\s+-> FETCH_HEAD")
_FROM = lazy_compile(r"^From (?P<remote>\S+)")


def branch_before(ctx: LineContext, n: int = 8) -> str | None:
    m = match_above(ctx, _ON_BRANCH, n)
    return m.group("branch") if m else None


def fetched(ctx: LineContext, n: int = 8) -> dict[str, str]:
    """The remote and branch of a `git pull` (its "From ..." and "* branch" lines)."""
    out: dict[str, str] = {}
    for line in ctx.before(n):
        if line.startswith("From ") and (m := _FROM.match(line)):
            out["remote"] = m.group("remote")
        elif "* branch" in line and (m := _FETCH_HEAD.match(line)):
            out["upstream_branch"] = m.group("branch")
            out["upstream"] = m.group("branch")
    return out
