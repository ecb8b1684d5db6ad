"""A wrong fix never stays (issue 26 item 5): when the re-run shows the same
failure, or a new failure in a file the fix edited, the edit is undone at once
and the box says so.  Real cases, run with the real interpreter:

- an import that creates a circular import (pytest): the compile recipe adds
  `from pkg.a import helper` to pkg/b.py, which pkg/a.py imports;
- Python 3.12's "Did you mean: 'cell'?" for a missing `ceil` (unittest): the
  rename makes `cell(...)` call an int.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Ledger, Workspace, attempt

from .helpers import run_classified, run_recover_in_process

pytestmark = pytest.mark.real_tool
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore"]

CIRCULAR = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from pkg.b import double\n\n\ndef helper(x):\n    return x + 1\n\n\n"
    "def both(x):\n    return double(helper(x))\n",
    "pkg/b.py": "def double(x):\n    return 2 * x\n\n\ndef bumped(x):\n    return double(helper(x))\n",
    "tests/test_b.py": "from pkg.b import bumped\n\n\ndef test_bumped():\n    assert bumped(1) == 4\n",
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / ".git").mkdir(exist_ok=True)
    return root


def _events(proj: Path) -> list[dict]:
    lines = (proj / ".faultlens/events.jsonl").read_text().splitlines()
    return [json.loads(x) for x in lines]


def test_an_import_that_creates_a_circular_import_is_undone_at_once(tmp_path):
    proj = _write(tmp_path, CIRCULAR)
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    assert (proj / "pkg/b.py").read_text() == CIRCULAR["pkg/b.py"]  # the wrong import is gone
    (outcome,) = report.outcomes  # the circular ImportError is not left as a new failure
    assert outcome.result == "escalated"
    assert outcome.tried == "Import helper from pkg.a"
    assert outcome.reason.startswith("undone: the re-run still failed with ImportError")
    assert "circular import" in outcome.reason
    assert "Undone: restored pkg/b.py" in outcome.details
    assert report.box and "undone: the re-run still failed" in report.box.replace("║", "")
    assert "[revert" not in (report.box or "")  # nothing left to revert
    names = [e["event"] for e in _events(proj)]
    assert names.count("recovery.attempted") == 1 and names.count("recovery.reverted") == 1
    # Nothing is applied twice: a second run meets the failure's spent attempt.
    again, _ = run_recover_in_process(PYTEST, proj, "T")
    assert again.outcomes[0].result == "escalated" and "anti-loop" in again.outcomes[0].reason
    assert (proj / "pkg/b.py").read_text() == CIRCULAR["pkg/b.py"]


def test_a_single_attempt_undoes_a_fix_that_creates_a_circular_import(tmp_path):
    """`faultlens recover ID` and MCP `recover`: the stored failure's one attempt."""
    from faultlens.cli.run import run_command

    from .helpers import _Sink

    proj = _write(tmp_path, CIRCULAR)
    ws = Workspace.at(proj)
    sink = _Sink()
    run_command(
        PYTEST, cwd=proj, ws=ws, task="T", recover=False, out=sink, err_bytes=sink, err=sink
    )
    ledger = Ledger.open(ws)
    run = ledger.last_run("T")
    assert run is not None
    (data,) = ledger.run_records(run.id)
    found = ledger.find_record(str(data["id"]))
    assert found is not None
    rec = FailureRecord.from_json(found[0])
    out = attempt(rec, ws, command=run.argv, cwd=run.cwd)
    assert out.result == "escalated"
    assert out.reason.startswith("undone: the re-run still failed with ImportError")
    assert (proj / "pkg/b.py").read_text() == CIRCULAR["pkg/b.py"]
    prior = ledger.automatic_attempt(rec.id, "T")
    assert prior is not None and prior.state == "escalated"


def _python_with_suggestions() -> str | None:
    """A Python of 3.12 or later (its NameError says "Did you mean: ...?")."""
    if sys.version_info >= (3, 12):
        return sys.executable
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    found_on_path = [shutil.which(n) for n in ("python3.13", "python3.12")]
    for found in [*found_on_path, *map(str, sorted(pyenv.glob("versions/3.1[2-9]*/bin/python3")))]:
        if found is None:
            continue
        probe = subprocess.run([found, "-c", "pass"], capture_output=True, check=False)
        if probe.returncode == 0:
            return found
    return None


def test_a_did_you_mean_that_names_another_variable_is_undone(tmp_path):
    py = _python_with_suggestions()
    if py is None:
        pytest.skip("needs Python 3.12 or later (its NameError suggestions)")
    sizes = "cell = 4\n\n\ndef rows(n):\n    return ceil(n / cell)\n"
    proj = _write(
        tmp_path,
        {
            "shop/__init__.py": "",
            "shop/sizes.py": sizes,
            "tests/__init__.py": "",
            "tests/test_sizes.py": "import unittest\n\nfrom shop.sizes import rows\n\n\n"
            "class RowsTest(unittest.TestCase):\n    def test_rows(self):\n"
            "        self.assertEqual(rows(9), 3)\n",
        },
    )
    report, _ = run_recover_in_process([py, "-m", "unittest"], proj, "T")
    text = (proj / "shop/sizes.py").read_text()
    # Either a right fix that the re-run proved, or the file as it was: never `cell(`.
    if report.exit_code == 0:
        assert "cell(" not in text
        return
    assert text == sizes
    (outcome,) = report.outcomes
    assert outcome.result == "escalated"
    if outcome.tried.startswith("Change 'ceil' to 'cell'"):
        assert outcome.reason.startswith("undone: the re-run still failed with TypeError")


def test_judge_reads_the_circular_import_as_a_new_failure_in_the_edited_file(tmp_path):
    """The judgement on the real re-run's records (classified from pytest's output)."""
    from faultlens.recipes.lifecycle.judge import judge

    proj = _write(tmp_path, CIRCULAR)
    _, before = run_classified(proj, PYTEST)
    (proj / "pkg/b.py").write_text("from pkg.a import helper\n" + CIRCULAR["pkg/b.py"])
    _, after = run_classified(proj, PYTEST)
    ids = [r.id for r in before]
    j = judge(ids, after, known=ids, edited=["pkg/b.py"], root=proj)
    assert not j.recovered and j.wrong is not None and "circular import" in j.wrong.signal
    assert judge(ids, after, known=ids, edited=["pkg/other.py"], root=proj).wrong is None
