"""The one name in scope a misspelt name most likely meant.

Python's own measure (what 3.12's "Did you mean" uses: an edit distance where
a change of case costs 1 and any other edit 2, accepted up to
(len(wrong) + len(candidate) + 3) // 3), with a transposition of two
neighbouring letters counted as one edit, as a typist makes it.  The
candidate is the unique nearest; a tie is no candidate.  Pure.
"""

from __future__ import annotations

from collections.abc import Iterable

MAX_CANDIDATES = 4000
_CASE_COST = 1
_EDIT_COST = 2


def _sub(a: str, b: str) -> int:
    if a == b:
        return 0
    return _CASE_COST if a.lower() == b.lower() else _EDIT_COST


def distance(a: str, b: str, limit: int) -> int:
    """The case-aware edit distance of `a` and `b` (transpositions included),
    or limit + 1 once it is sure to exceed `limit`."""
    if abs(len(a) - len(b)) * _EDIT_COST > limit:
        return limit + 1
    prev2: list[int] = []
    prev = [j * _EDIT_COST for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        row = [i * _EDIT_COST] + [0] * len(b)
        for j in range(1, len(b) + 1):
            best = min(
                prev[j - 1] + _sub(a[i - 1], b[j - 1]),
                prev[j] + _EDIT_COST,
                row[j - 1] + _EDIT_COST,
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] and prev2:
                best = min(best, prev2[j - 2] + _EDIT_COST)
            row[j] = best
        if min(row) > limit:
            return limit + 1
        prev2, prev = prev, row
    return prev[-1]


def limit_for(wrong: str, candidate: str) -> int:
    return (len(wrong) + len(candidate) + 3) * _EDIT_COST // 6


def ranked(wrong: str, names: Iterable[str]) -> list[str]:
    """The names at the smallest accepted distance from `wrong`."""
    best: list[str] = []
    best_distance = -1
    for name in sorted(set(names))[:MAX_CANDIDATES]:
        if name == wrong:
            continue
        limit = limit_for(wrong, name)
        if best_distance >= 0:
            limit = min(limit, best_distance)
        d = distance(wrong, name, limit)
        if d > limit:
            continue
        if d == best_distance:
            best.append(name)
        else:
            best, best_distance = [name], d
    return best


def nearest(wrong: str, names: Iterable[str]) -> str | None:
    """The one name nearest to `wrong`, or None (none near, or a tie)."""
    best = ranked(wrong, names)
    return best[0] if len(best) == 1 else None
