"""git: merge, pull, rebase and cherry-pick conflicts, diverged and stale
branches, refused fast-forwards and rejected pushes (branch_divergence);
one module per kind of refusal.

A push that fails on authentication ("Permission denied (publickey)") or on
the network is not a divergence and is left to the infra rules; see
docs/precedence.md.
"""

from __future__ import annotations

from . import branches, conflicts, ownership, push

__all__ = ["branches", "conflicts", "ownership", "push"]
