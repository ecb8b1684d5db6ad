"""faultlens.classifier: sorts build, test and agent output into the failure
taxonomy.  Pure Python; knows nothing of LSP."""

from .engine import Classifier, Options, classify_bytes, classify_file, classify_text
from .record import FailureRecord, Location
from .taxonomy import TAXONOMY, FailureType, Severity, category

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
