"""What a structured-input parser is (kept apart from the package's
__init__, which imports the parsers: no import cycle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import IO

from ..engine import Classifier

# A sniffer looks at the head of the input and returns a parser, or None.
# A parser feeds the whole input (head + rest of stream) into the classifier.
Parser = Callable[[bytes, IO[bytes], Classifier], None]
Sniffer = Callable[[bytes], Parser | None]
