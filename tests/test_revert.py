"""Revert a fix that failed verification (recipes/revert.py, `faultlens revert
ID`): exactly the files the fix changed are restored, byte for byte, each only
while it still holds what the fix wrote; a file edited since is kept and named;
the revert is recorded (ledger + event) and made once."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.recipes import Ledger, TextEdit, Workspace, apply_edits, revert

ENV = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]

# A missing import whose fix (import Money from shop.money) applies and removes
# the NameError, but the test then fails on its own assertion (a new failure,
# not in the file the fix edited): the fix fails verification and stays, and the
# escalation offers to revert it.  (A fix whose re-run fails in a file it edited
# is undone at once: tests/test_recover_wrong_fix.py.)
MONEY = """\
from decimal import Decimal


class Money:
    def __init__(self, amount):
        self.amount = Decimal(amount)
"""
CART_CRLF = (
    b"def total(prices):\r\n    return sum((Money(p).amount for p in prices), Money(0).amount)\r\n"
)
TEST_CART = """\
from shop.cart import total


def test_total():
    assert total(["1.50", "2.25"]) == 4
"""


def _faultlens(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )


def _project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "shop").mkdir(parents=True)
    (proj / "tests").mkdir()
    (proj / "shop" / "__init__.py").write_text("")
    (proj / "shop" / "money.py").write_text(MONEY)
    (proj / "shop" / "cart.py").write_bytes(CART_CRLF)
    (proj / "tests" / "test_cart.py").write_text(TEST_CART)
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)
    return proj


def _fixed(proj: Path) -> str:
    """`faultlens run --recover`: the import is added, verification fails; the
    failure id the box offers to revert."""
    res = _faultlens(proj, "run", "--recover", "--format", "json", "--", *PYTEST)
    assert res.returncode != 0
    summary = json.loads(res.stderr.strip().splitlines()[-1])
    (out,) = [
        o
        for o in summary["outcomes"]
        if o["record"]["source_file"] == "shop/cart.py" and o["tried"].startswith("Import Money")
    ]
    assert out["result"] == "escalated"
    labels = [o["label"] for o in out["options"]]
    fid = out["record"]["id"]
    assert f"[revert {fid}]" in labels  # the escalation offers it
    assert b"from shop.money import Money" in (proj / "shop" / "cart.py").read_bytes()
    return fid


@pytest.mark.real_tool
def test_a_fix_that_failed_verification_is_reverted_byte_for_byte_and_recorded(tmp_path):
    proj = _project(tmp_path)
    fid = _fixed(proj)

    res = _faultlens(proj, "revert", fid[:6], "--json")

    assert res.returncode == 0, res.stderr
    assert (proj / "shop" / "cart.py").read_bytes() == CART_CRLF  # CRLF and all
    done = json.loads(res.stdout)
    assert done["restored"] == ["shop/cart.py"] and done["kept"] == []
    events = [json.loads(x) for x in (proj / ".faultlens/events.jsonl").read_text().splitlines()]
    (ev,) = [e for e in events if e["event"] == "recovery.reverted"]
    assert ev["failure_id"] == fid and ev["restored"] == ["shop/cart.py"]
    applied = revert.find(Ledger.open(Workspace.at(proj)), fid)
    assert applied is not None and applied.reverted is not None
    assert applied.revert["restored"] == ["shop/cart.py"]
    # Once only.
    again = _faultlens(proj, "revert", fid)
    assert again.returncode == 1 and "already reverted" in again.stderr


@pytest.mark.real_tool
def test_a_file_edited_after_the_fix_is_never_touched_by_the_revert(tmp_path):
    proj = _project(tmp_path)
    fid = _fixed(proj)
    cart = proj / "shop" / "cart.py"
    mine = cart.read_bytes() + b"# the developer's own line\n"
    cart.write_bytes(mine)

    res = _faultlens(proj, "revert", fid)

    assert res.returncode == 1
    assert cart.read_bytes() == mine
    assert "kept (edited after the fix, not touched): shop/cart.py" in res.stderr


def test_only_the_files_still_as_the_fix_left_them_are_restored(tmp_path):
    ws = Workspace.at(tmp_path)
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    written = apply_edits(
        [
            TextEdit("a.py", 0, 0, 0, 0, "import os\n"),
            TextEdit("b.py", 0, 0, 0, 0, "import sys\n"),
            TextEdit("new.py", 0, 0, 0, 0, "made = True\n"),
        ],
        ws,
    )
    ledger = Ledger.open(ws)
    revert.remember(ledger, written, task=None, failure_ids=["f1", "f2"], title="two imports")
    (tmp_path / "b.py").write_text("import sys\ny = 3  # edited since\n")

    applied = revert.find(ledger, "f2")
    assert applied is not None
    done = revert.revert(ws, applied)

    assert (tmp_path / "a.py").read_text() == "x = 1\n"
    assert (tmp_path / "b.py").read_text() == "import sys\ny = 3  # edited since\n"
    assert not (tmp_path / "new.py").exists()
    assert (done.restored, done.removed, done.kept) == (["a.py"], ["new.py"], ["b.py"])
    assert "kept b.py (changed since the fix: not touched)" in done.summary()
    with pytest.raises(revert.RevertError):
        revert.revert(ws, revert.find(ledger, "f1"))  # type: ignore[arg-type]


def test_a_revert_never_writes_outside_the_workspace(tmp_path):
    ws = Workspace.at(tmp_path / "ws")
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "a.py").write_text("x = 1\n")
    written = apply_edits([TextEdit("a.py", 0, 0, 0, 0, "import os\n")], ws)
    ledger = Ledger.open(ws)
    revert.remember(ledger, written, task=None, failure_ids=["f1"])
    # The file is replaced by a link out of the workspace since the fix.
    outside = tmp_path / "outside.py"
    outside.write_text("import os\nx = 1\n")
    (tmp_path / "ws" / "a.py").unlink()
    (tmp_path / "ws" / "a.py").symlink_to(outside)

    done = revert.revert(ws, revert.find(ledger, "f1"))  # type: ignore[arg-type]

    assert done.refused == ["a.py"] and not done.restored
    assert outside.read_text() == "import os\nx = 1\n"


def test_an_escalated_failure_with_an_applied_fix_gets_the_revert_action():
    from lsprotocol import types as T

    from faultlens.classifier import classify_text
    from faultlens.server import actions
    from faultlens.server import protocol as P

    (rec,) = classify_text("src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n")
    offer = actions.Offer(
        record=rec,
        store_task="t",
        plan=None,
        enabled=False,
        reason="already tried",
        attempts=1,
        retries_used=0,
        max_retries=2,
        escalated=True,
        revert="src/a.ts",
    )
    built = actions.build(offer, None, disabled_support=True)
    (act,) = [a for a in built if a.title.startswith("faultlens: revert the fix")]
    assert act.title == "faultlens: revert the fix (src/a.ts)"
    assert act.kind == T.CodeActionKind.QuickFix
    assert act.command is not None and act.command.command == P.CMD_REVERT
    assert act.command.arguments == [{"failureId": rec.id}]
    offer.revert = None
    assert not [a for a in actions.build(offer, None, disabled_support=True) if "revert" in a.title]


def test_a_committed_ledger_cannot_make_a_revert_write_a_file(tmp_path):
    """A ledger that came with a checkout (no mark of this machine) could hold
    an applied fix whose "original" is anything: its rows are dropped before
    the ledger is used, so no revert writes them."""
    import hashlib
    import shutil
    import sqlite3

    maker = Workspace.at(tmp_path / "elsewhere")
    ledger = Ledger.open(maker)
    current = b"print('hello')\n"
    planted = [
        {
            "path": "a.py",
            "original": base64.b64encode(b"import os; os.system('evil')\n").decode(),
            "old": None,
            "new": hashlib.sha256(current).hexdigest(),
            "mode": 0o644,
        }
    ]
    with ledger._tx() as db:
        db.execute(
            "INSERT INTO applied_edits(task, failure_ids, attempt_ids, title, targets, created)"
            " VALUES ('default', ?, '[]', 'fix', ?, 0)",
            (json.dumps(["0123456789abcdef"]), json.dumps(planted)),
        )
        db.execute("INSERT INTO tasks(task, updated) VALUES ('default', 0)")
        db.execute("DELETE FROM meta WHERE key IN ('nonce', 'owner')")  # as if committed
    repo = tmp_path / "repo"
    (repo / ".faultlens").mkdir(parents=True)
    shutil.copy(maker.state / "ledger.sqlite3", repo / ".faultlens" / "ledger.sqlite3")
    (repo / "a.py").write_bytes(current)

    res = _faultlens(repo, "revert", "0123456789abcdef")

    assert res.returncode == 1 and "no applied fix is known" in res.stderr, res.stderr
    assert (repo / "a.py").read_bytes() == current
    db = sqlite3.connect(repo / ".faultlens" / "ledger.sqlite3")
    assert db.execute("SELECT COUNT(*) FROM applied_edits").fetchone()[0] == 0
    db.close()
