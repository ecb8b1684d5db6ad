"""Walking the sample corpus (tests/samples/<family>/<case>/)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).parent / "samples"


@dataclass(frozen=True)
class Sample:
    family: str
    case: str
    dir: Path
    output: Path
    expected: list[dict[str, Any]]

    @property
    def id(self) -> str:
        return f"{self.family}/{self.case}"


def _output_file(d: Path) -> Path | None:
    outs = sorted(p for p in d.iterdir() if p.is_file() and p.name.startswith("output."))
    return outs[0] if outs else None


def samples() -> list[Sample]:
    found = []
    for exp in sorted(SAMPLES.glob("*/*/expected.json")):
        d = exp.parent
        out = _output_file(d)
        if out is None:
            raise AssertionError(f"{d}: expected.json without an output.* file")
        found.append(Sample(d.parent.name, d.name, d, out, json.loads(exp.read_text())))
    return found
