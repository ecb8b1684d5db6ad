"""The triage verdict from what the checks showed (recipes/triage.py, pure),
and which checks are needed: one run settles the common cases."""

from __future__ import annotations

import pytest

from faultlens.recipes.triage import (
    Check,
    Upstream,
    decide,
    needs_merged_check,
    needs_upstream_check,
    same_as_upstream,
    text,
)

AHEAD_BEHIND = Upstream("origin/main", ahead=1, behind=2, dirty=False)
ONLY_BEHIND = Upstream("origin/main", ahead=0, behind=2, dirty=False)
ONLY_AHEAD = Upstream("origin/main", ahead=3, behind=0, dirty=False)
SAME = Upstream("origin/main", ahead=0, behind=0, dirty=False)
SAME_DIRTY = Upstream("origin/main", ahead=0, behind=0, dirty=True)

PASSES, FAILS = Check("passes", "1 passed"), Check("fails", "1 failed")
ABSENT, OTHER = Check("absent", "the test is not there"), Check("inconclusive", "timed out")


def test_a_failure_gone_with_the_upstream_merged_in_is_a_stale_branch():
    t = decide(AHEAD_BEHIND, PASSES, None)
    assert t.verdict == "stale_branch" and t.upstream == "origin/main"
    assert (
        t.reason
        == "2 commit(s) behind origin/main; it passes once origin/main is merged in (1 passed)"
    )
    assert not needs_upstream_check(AHEAD_BEHIND, PASSES)  # one run was enough


def test_a_failure_still_there_with_the_upstream_merged_in_is_checked_on_the_upstream():
    assert needs_upstream_check(AHEAD_BEHIND, FAILS)
    assert decide(AHEAD_BEHIND, FAILS, FAILS).verdict == "preexisting"
    yours = decide(AHEAD_BEHIND, FAILS, PASSES)
    assert yours.verdict == "yours"
    assert (
        yours.reason == "passes on origin/main (1 passed); still fails with origin/main merged in"
    )


def test_a_branch_only_behind_needs_one_run_the_upstream_itself():
    assert needs_merged_check(ONLY_BEHIND)
    assert not needs_upstream_check(ONLY_BEHIND, FAILS)
    assert decide(ONLY_BEHIND, FAILS, None).verdict == "preexisting"
    assert decide(ONLY_BEHIND, PASSES, None).verdict == "stale_branch"


def test_a_branch_not_behind_is_never_stale():
    assert not needs_merged_check(ONLY_AHEAD)
    assert needs_upstream_check(ONLY_AHEAD, None)
    assert decide(ONLY_AHEAD, None, PASSES).verdict == "yours"
    new = decide(ONLY_AHEAD, None, ABSENT)
    assert new.verdict == "yours" and "does not exist on origin/main: introduced here" in new.reason
    assert decide(ONLY_AHEAD, None, FAILS).verdict == "preexisting"


def test_the_upstream_itself_unchanged_is_preexisting_without_any_run():
    assert same_as_upstream(SAME) and not same_as_upstream(SAME_DIRTY)
    t = decide(SAME, None, None)
    assert t.verdict == "preexisting" and "this checkout is origin/main, unchanged" in t.reason
    # With local changes the upstream alone must be run.
    assert decide(SAME_DIRTY, None, PASSES).verdict == "yours"


@pytest.mark.parametrize(
    ("up", "merged", "alone", "says"),
    [
        (AHEAD_BEHIND, OTHER, None, "with origin/main merged in: timed out"),
        (ONLY_AHEAD, None, OTHER, "on origin/main: timed out"),
        (AHEAD_BEHIND, OTHER, PASSES, "passes on origin/main (1 passed), but with origin/main"),
        (ONLY_AHEAD, None, None, "not checked on origin/main"),
    ],
)
def test_a_check_that_cannot_tell_gives_unknown_with_the_reason(up, merged, alone, says):
    t = decide(up, merged, alone)
    assert t.verdict == "unknown" and says in t.reason


def test_a_failed_fetch_is_said_in_every_verdict():
    up = Upstream("origin/main", 1, 2, False, fetched="not fetched (could not resolve host)")
    assert decide(up, PASSES, None).reason.endswith("; not fetched (could not resolve host)")


def test_the_label_shown_in_boxes_and_summaries():
    assert text(decide(AHEAD_BEHIND, PASSES, None)).startswith("stale branch — 2 commit(s) behind")
    assert text(None) == ""
