"""What every security rule shares: the category and the priority of a
scanner's report block."""

from __future__ import annotations

from ...taxonomy import FailureType

TRUST_GATE = FailureType.TRUST_GATE
# Above the generic tool families (infra 30, python 20): the lines a scanner's
# report block consumes (code excerpts, "File:" lines) are not theirs to claim.
BLOCK_PRIORITY = 40
