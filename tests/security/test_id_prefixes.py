"""A failure id prefix names one failure or none (issue 27, item 14).

`recover ""` once used up the newest failure's one attempt: an empty or
ambiguous prefix acted on the newest match.  Now a prefix shorter than 4
characters, or one that names several failures, is refused with the
matches listed (the CLI's `recover` and `explain`, the MCP tools), and
nothing is attempted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.classifier import classify_text
from faultlens.classifier.engine import Options
from faultlens.recipes import Ledger, Workspace

OUTPUT = (
    "src/a.ts(3,1): error TS2304: Cannot find name 'Alpha'.\n"
    "src/b.ts(7,1): error TS2304: Cannot find name 'Beta'.\n"
)


def _stored(root: Path) -> list[str]:
    (root / ".git").mkdir()
    records = classify_text(OUTPUT, Options(cwd=str(root), command=["npx", "tsc"]))
    ledger = Ledger.open(Workspace.at(root))
    run_id = ledger.start_run(None, ["npx", "tsc"], ".")
    ledger.finish_run(run_id, 2, records)
    return [r.id for r in records]


def test_a_short_or_ambiguous_prefix_names_no_failure(tmp_path):
    from faultlens.recipes.ledger import AmbiguousId

    ids = _stored(tmp_path)
    ledger = Ledger.open(Workspace.at(tmp_path))
    for prefix in ("", ids[0][:1], ids[0][:3]):
        with pytest.raises(AmbiguousId, match="at least 4 characters"):
            ledger.find_record(prefix)
    common = next(
        (ids[0][:n] for n in range(len(ids[0]), 3, -1) if ids[1].startswith(ids[0][:n])), None
    )
    if common is not None:
        with pytest.raises(AmbiguousId, match="names 2 failures"):
            ledger.find_record(common)
    found = ledger.find_record(ids[0][:8])
    assert found is not None and found[0]["id"] == ids[0]
    assert ledger.find_record(ids[0]) is not None
    assert ledger.find_record("zzzz") is None


@pytest.mark.parametrize("command", ["recover", "explain"])
def test_the_cli_refuses_an_empty_prefix_and_lists_the_matches(tmp_path, command):
    ids = _stored(tmp_path)
    res = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", command, ""],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2, res.stderr
    assert "at least 4 characters" in res.stderr and ids[0] in res.stderr
    assert "Traceback" not in res.stderr
    db = Ledger.open(Workspace.at(tmp_path))
    assert db.history() == []  # no attempt was made
