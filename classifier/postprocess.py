"""What happens once the whole output has been read.

Cross-record decisions live here, away from the line rules: precedence
between categories that saw the same failure, and the fallback record for a
failed command that no rule explained.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import Classifier


def finalize(classifier: Classifier) -> None:
    """Apply the cross-record passes to a closed classifier, in place."""
    drop_redundant_fallbacks(classifier)


def drop_redundant_fallbacks(classifier: Classifier) -> None:
    """Drop the summary records ("could not compile", "make: *** Error 1")
    when a more specific record explains the failure.

    A rule marks such a summary with `Hit.key = (FALLBACK, ...)`; the engine
    stores it under the key `(category, FALLBACK, ...)`.  The summary stands
    only when it is all that was found (a truncated log, an error format no
    rule knows), so a failed run is never reported as clean.
    """
    from .rules.base import FALLBACK

    records = classifier._records
    fallbacks = [k for k in records if len(k) > 1 and k[1] == FALLBACK]
    if fallbacks and len(fallbacks) < len(records):
        for k in fallbacks:
            del records[k]
