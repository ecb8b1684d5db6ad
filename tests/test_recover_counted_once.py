"""One attempt is one attempt (issue 25): tsc naming one missing name at two
lines of one file is one failure, fixed by one edit in one attempt, counted
once by the run's summary, `status` (the ledger) and the MCP answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faultlens.cli.run import summary_text
from faultlens.recipes import Ledger

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool
ROOT = Path(__file__).resolve().parents[1]
TSC = ROOT / "tools" / "node" / "node_modules" / ".bin" / "tsc"

APP = (
    "export function first(p: UserProfile): string {\n  return p.id;\n}\n\n"
    "export function second(p: UserProfile): string {\n  return p.name;\n}\n"
)


def _project(root: Path) -> Path:
    (root / "src/models").mkdir(parents=True)
    (root / "src/models/user.ts").write_text(
        "export interface UserProfile { id: string; name: string }\n"
    )
    (root / "src/app.ts").write_text(APP)
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020",'
        ' "module": "commonjs"}, "include": ["src"]}\n'
    )
    (root / ".git").mkdir()
    return root


def test_one_missing_name_at_two_lines_is_one_attempt_counted_once(tmp_path):
    if not TSC.exists():
        pytest.skip("tsc not installed (scripts/install-tools.sh node)")
    proj = _project(tmp_path)
    report, ws = run_recover_in_process([str(TSC), "-p", "."], proj, "T")
    assert report.exit_code == 0
    assert len(report.records) == 2  # tsc names it at lines 1 and 5
    text = (proj / "src/app.ts").read_text()
    assert text.count("import { UserProfile }") == 1  # one edit
    events = [json.loads(x) for x in (ws.state / "events.jsonl").read_text().splitlines()]
    attempted = [e for e in events if e["event"] == "recovery.attempted"]
    assert len(attempted) == 1 and len(attempted[0]["covers"]) == 2
    summary = summary_text(report, True)
    assert "1 compile failure: 1 recovered, 0 escalated" in summary
    (task,) = [t for t in Ledger.open(ws).status()["tasks"] if t["task"] == "T"]
    assert task["attempts"] == {"recovered": 1}
