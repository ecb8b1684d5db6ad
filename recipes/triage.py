"""Whose failure is it?  The triage verdict of a test or compile failure, from
what the checks showed (pure: results in, verdict out).

    flaky         it failed, then passed on its own re-run with nothing changed
                  (the test attempt's re-run), or it passed and failed on the
                  same code in two runs of the same command (history)
    stale_branch  the branch is behind its upstream and the failure is gone
                  once the upstream is merged in
    preexisting   it also fails on the upstream itself: not introduced here
    yours         it passes on the upstream (or the test does not exist
                  there) and fails here, with the upstream merged in or not
    unknown       not checked, and why (no git, no upstream, a check that
                  timed out or failed for another reason, a merge conflict)

The checks themselves run the project's own command in a temporary worktree
(recipes/triage_check.py); the order they run in keeps the common cases to
one run: a branch behind its upstream is checked with the upstream merged in
first (passes: stale_branch, done); then, or when the branch is not behind,
on the upstream alone (fails: preexisting).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from faultlens.classifier.record import Triage, TriageVerdict

# What one check showed for one failure.
Seen = Literal["fails", "passes", "absent", "inconclusive"]

LABELS = {
    "flaky": "flaky",
    "stale_branch": "stale branch",
    "preexisting": "pre-existing",
    "yours": "yours",
    "unknown": "not known",
}


@dataclass(frozen=True, slots=True)
class Check:
    """One check of one failure: where it ran and what it showed.

    `detail` is a short phrase for the reason ("1 passed", "exit 0", "timed
    out after 300 s", "merging conflicts in src/a.py")."""

    seen: Seen
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Upstream:
    """The branch's position against its upstream (after the fetch)."""

    name: str  # origin/main
    ahead: int
    behind: int
    dirty: bool  # local changes (tracked or untracked) beside HEAD
    fetched: str = ""  # "" when fetched; else why not (the refs may be old)


def _why(check: Check) -> str:
    detail = " ".join(check.detail.split())
    return f" ({detail})" if detail else ""


def _stale_note(up: Upstream) -> str:
    return f"; {up.fetched}" if up.fetched else ""


def _triage(verdict: TriageVerdict, reason: str, up: Upstream | None) -> Triage:
    from faultlens.classifier.record import Triage

    return Triage(verdict=verdict, reason=reason, upstream=up.name if up else None)


def unknown(reason: str, up: Upstream | None = None) -> Triage:
    return _triage("unknown", reason, up)


def needs_merged_check(up: Upstream) -> bool:
    """Whether a check with the upstream merged in can tell anything: only a
    branch behind its upstream can be stale."""
    return up.behind > 0


def needs_upstream_check(up: Upstream, merged: Check | None) -> bool:
    """Whether the upstream alone must be checked: not once the merged check
    proved the branch stale, nor when the merged tree is the upstream itself."""
    if merged is not None and merged.seen in ("passes", "absent"):
        return False
    return not (merged is not None and up.ahead == 0 and not up.dirty)


def same_as_upstream(up: Upstream) -> bool:
    """HEAD is the upstream and nothing is changed: the failing run already
    was a run of the upstream."""
    return up.ahead == 0 and up.behind == 0 and not up.dirty


def decide(up: Upstream, merged: Check | None, on_upstream: Check | None) -> Triage:
    """The verdict for one failure from the checks that were run.

    `merged`: HEAD (and the local changes) with the upstream merged in, run
    only when the branch is behind.  `on_upstream`: the upstream alone."""
    name, note = up.name, _stale_note(up)
    if same_as_upstream(up):
        return _triage(
            "preexisting",
            f"also failing on {name}: this checkout is {name}, unchanged{note}",
            up,
        )
    if merged is not None:
        if merged.seen in ("passes", "absent"):
            gone = "passes" if merged.seen == "passes" else "is gone"
            return _triage(
                "stale_branch",
                f"{up.behind} commit(s) behind {name}; it {gone} once {name} is merged in"
                f"{_why(merged)}{note}",
                up,
            )
        if merged.seen == "fails" and up.ahead == 0 and not up.dirty:
            # Only behind: the merged tree is the upstream itself.
            return _triage("preexisting", f"also failing on {name}{_why(merged)}{note}", up)
        if merged.seen == "inconclusive" and on_upstream is None:
            return unknown(f"with {name} merged in: {merged.detail or 'no answer'}{note}", up)
    if on_upstream is None:
        return unknown(f"not checked on {name}{note}", up)
    if on_upstream.seen == "fails":
        return _triage("preexisting", f"also failing on {name}{_why(on_upstream)}{note}", up)
    if on_upstream.seen == "inconclusive":
        return unknown(f"on {name}: {on_upstream.detail or 'no answer'}{note}", up)
    there = (
        f"passes on {name}{_why(on_upstream)}"
        if on_upstream.seen == "passes"
        else f"the test does not exist on {name}: introduced here"
    )
    if merged is not None and merged.seen == "fails":
        return _triage("yours", f"{there}; still fails with {name} merged in{note}", up)
    if merged is not None and merged.seen == "inconclusive":
        return unknown(
            f"{there}, but with {name} merged in: {merged.detail or 'no answer'}{note}", up
        )
    return _triage("yours", f"{there}, fails here{note}", up)


def text(triage: Triage | None) -> str:
    """`stale branch — 2 commit(s) behind origin/main; …` for hovers and boxes."""
    if triage is None:
        return ""
    label = LABELS.get(triage.verdict, triage.verdict)
    return f"{label} — {triage.reason}" if triage.reason else label
