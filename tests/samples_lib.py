"""Walking the sample corpus (tests/samples/<family>/<case>/)."""

from __future__ import annotations

import json
import re
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
    # expected.run.json: the records when the command and its exit status
    # (from cmd.txt) are known, as `faultlens run` knows them
    expected_run: list[dict[str, Any]] | None = None

    @property
    def id(self) -> str:
        return f"{self.family}/{self.case}"

    def run_context(self) -> tuple[str, int]:
        """The command (cmd.txt's first line, less the tool version) and its
        exit status (the `# exit status N` line)."""
        text = (self.dir / "cmd.txt").read_text()
        first = text.splitlines()[0]
        command = re.sub(r"   \(.*\)\s*$", "", first).strip()
        status = re.search(r"^# exit status (\d+)", text, re.MULTILINE)
        if status is None:
            raise AssertionError(f"{self.id}: expected.run.json needs '# exit status N' in cmd.txt")
        return command, int(status.group(1))


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
        run = d / "expected.run.json"
        found.append(
            Sample(
                d.parent.name,
                d.name,
                d,
                out,
                json.loads(exp.read_text()),
                json.loads(run.read_text()) if run.is_file() else None,
            )
        )
    return found
