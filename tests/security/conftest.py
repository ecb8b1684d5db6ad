"""Shared helpers for the security and reliability tests (issue 8)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "tests" / "samples"
FUZZ = ROOT / "fuzz"

if str(FUZZ) not in sys.path:
    sys.path.insert(0, str(FUZZ))
