"""faultlens.classifier: sorts build, test and agent output into the failure
taxonomy.  Pure Python; knows nothing of LSP.

The public names are loaded on first use (PEP 562): importing a light
submodule (`faultlens.classifier.redact`, which the ledger needs to store a
command redacted before `faultlens run` starts it) does not import the engine
and its rules."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import Classifier, Options, classify_bytes, classify_text
    from .record import FailureRecord, Location
    from .structured import classify_file
    from .taxonomy import TAXONOMY, FailureType, Severity, category

_EXPORTS: dict[str, str] = {
    "Classifier": "engine",
    "Options": "engine",
    "classify_bytes": "engine",
    "classify_file": "structured",
    "classify_text": "engine",
    "FailureRecord": "record",
    "Location": "record",
    "TAXONOMY": "taxonomy",
    "FailureType": "taxonomy",
    "Severity": "taxonomy",
    "category": "taxonomy",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "TAXONOMY",
    "Classifier",
    "FailureRecord",
    "FailureType",
    "Location",
    "Options",
    "Severity",
    "category",
    "classify_bytes",
    "classify_file",
    "classify_text",
]
