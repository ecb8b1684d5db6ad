"""Issue 12's "Done when", with the real runners: one missing import that fails
60 tests at run time is ONE compile failure at the throwing line; `faultlens
run --recover` makes one attempt, adds the import once, calls nothing flaky
and exits 0 because the re-run of the original command passes.  And the
anti-loop and safety rules around it: two concurrent runs on different tasks
add the import once (19.20); a test id from output that leads outside the
workspace is never run (19.2).

The projects are built in tmp_path: a `shop` package whose `cart.py` uses
`Money` (defined in `shop/money.py`) without importing it, and 60 tests of
`cart.total`.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.recipes import Workspace

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool

N = 60
MONEY = "class Money:\n    def __init__(self, cents):\n        self.cents = cents\n\n" \
    "    def __add__(self, other):\n        return Money(self.cents + other.cents)\n"  # fmt: skip
CART = "def total(prices):\n    acc = Money(0)\n    for p in prices:\n" \
    "        acc = acc + Money(p)\n    return acc.cents\n"  # fmt: skip


def _shop(root: Path) -> Path:
    (root / "shop").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "tests" / "__init__.py").write_text("")
    (root / "shop" / "money.py").write_text(MONEY)
    (root / "shop" / "cart.py").write_text(CART)
    body = [
        "import unittest",
        "",
        "from shop.cart import total",
        "",
        "",
        "class CartTest(unittest.TestCase):",
    ]
    for i in range(N):
        body += [
            f"    def test_total_{i}(self):",
            f"        self.assertEqual(total([{i}, 1]), {i + 1})",
            "",
        ]
    (root / "tests" / "test_cart.py").write_text("\n".join(body))
    (root / ".git").mkdir()  # the workspace root
    return root


def _type_attempts(ws: Workspace) -> list[tuple[str, str]]:
    db = sqlite3.connect(ws.state / "ledger.sqlite3")
    return db.execute("SELECT failure_type, state FROM type_attempts ORDER BY id").fetchall()


def _events(ws: Workspace) -> list[dict]:
    return [json.loads(line) for line in (ws.state / "events.jsonl").read_text().splitlines()]


@pytest.mark.parametrize(
    "runner",
    [
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        [sys.executable, "-m", "unittest"],
    ],
    ids=["pytest", "unittest"],
)
def test_one_missing_import_failing_60_tests_is_one_attempt_and_exit_0(tmp_path, runner):
    proj = _shop(tmp_path / "proj")
    report, ws = run_recover_in_process(runner, proj, "TASK-1")
    assert report.exit_code == 0, [o.reason for o in report.outcomes]
    (outcome,) = report.outcomes  # one failure: the cause
    rec = outcome.record
    assert rec.failure_type.value == "compile"
    assert (rec.source_file, rec.source_line) == ("shop/cart.py", 2)  # the throwing line
    assert rec.affected == N
    assert outcome.result == "recovered"
    assert outcome.tried == "Import Money from shop.money"
    assert (proj / "shop" / "cart.py").read_text().count("from shop.money import Money") == 1
    assert _type_attempts(ws) == [("compile", "recovered")]  # one attempt
    assert report.reruns == 1  # verified by one re-run of the original command
    assert not any("flaky" in (e.get("reason") or "") for e in _events(ws))
    from faultlens.cli.run import summary_text

    assert "faultlens: 1 compile failure, 60 tests affected: 1 recovered" in summary_text(
        report, True
    )


def test_two_concurrent_runs_on_different_tasks_add_the_import_once(tmp_path):
    proj = _shop(tmp_path / "proj")
    cmd = [sys.executable, "-m", "unittest"]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "faultlens.cli", "run", "--recover", "--task", task, "--", *cmd],
            cwd=proj,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for task in ("TASK-A", "TASK-B")
    ]
    codes = [p.wait(timeout=300) for p in procs]
    for p in procs:
        assert p.stderr is not None
        p.stderr.close()
    assert codes == [0, 0]
    assert (proj / "shop" / "cart.py").read_text().count("from shop.money import Money") == 1


FAKE_PYTEST = """\
import runpy, sys
ids = [a for a in sys.argv[1:] if "::" in a]
if not ids:
    print("FAILED tests/../../../outside/test_evil.py::test_pwn - AssertionError: boom")
    print("1 failed in 0.01s")
    sys.exit(1)
for node in ids:  # what pytest does with a node id: import and run its file
    runpy.run_path(node.split("::")[0])
print("1 passed in 0.01s")
"""


def test_a_test_id_from_output_that_leads_outside_the_workspace_is_never_run(tmp_path):
    """Issue 19.2: `FAILED tests/../../../outside/test_evil.py::test_pwn` names a file
    outside the workspace; the test recipe refuses it, nothing there runs."""
    outside = tmp_path / "outside"
    outside.mkdir()
    marker = tmp_path / "pwned"
    (outside / "test_evil.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    proj = tmp_path / "ws" / "proj"
    (proj / "bin").mkdir(parents=True)
    (proj / ".git").mkdir()
    (proj / "bin" / "pytest").write_text(FAKE_PYTEST)
    report, _ = run_recover_in_process([sys.executable, "bin/pytest"], proj, "T")
    assert not marker.exists()
    assert report.exit_code == 1
    (outcome,) = report.outcomes
    assert outcome.result == "escalated"
    assert "outside the workspace" in outcome.reason
