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
    return None
