"""kill -9 in the middle of writing never loses or tears anything.

* A multi-file apply killed at random moments leaves every file wholly old
  or wholly new, never a mix inside one file; `recover_interrupted` (run
  before every apply) then rolls the half-done change back so the files are
  all of one version, with no temporary file or journal left behind.
* A ledger killed while attempts are being written passes
  `PRAGMA integrity_check`, and every attempt whose transaction had returned
  before the kill is in it.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from faultlens.recipes import Workspace, recover_interrupted
from faultlens.recipes.edits import TMP_MARK

from .workers.apply_loop import version

FILES = ["src/a.py", "src/b.py", "lib/c.py", "d.txt"]
SIZE = 256 * 1024  # big enough that a write takes a while
KILLS = 12


def _spawn(module: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", f"tests.security.workers.{module}", *args],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _kill_after_output(proc: subprocess.Popen[str], lines: int, extra: float) -> list[str]:
    """Wait for `lines` lines of output, sleep `extra` seconds, SIGKILL; return the output."""
    assert proc.stdout is not None
    seen = [proc.stdout.readline() for _ in range(lines)]
    assert all(seen), f"child died early: {proc.stderr.read() if proc.stderr else ''}"
    time.sleep(extra)
    os.kill(proc.pid, signal.SIGKILL)
    rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return [ln.strip() for ln in [*seen, *rest.splitlines()] if ln.strip()]


def _kill_when(proc: subprocess.Popen[str], ready: Callable[[], bool], extra: float) -> None:
    """SIGKILL `extra` seconds after `ready()` first holds (polled every 0.5 ms)."""
    assert proc.stdout is not None
    assert proc.stdout.readline(), "child died early"
    deadline = time.monotonic() + 30
    while not ready():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.0005)
    time.sleep(extra)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)


@pytest.mark.slow
def test_kill_9_during_a_multi_file_apply_leaves_each_file_wholly_old_or_new(tmp_path):
    for f in FILES:
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text(version(f, "A", SIZE), encoding="utf-8")
    allowed = {f: {version(f, w, SIZE).encode() for w in "AB"} for f in FILES}
    rng = random.Random(8)
    mid_apply = 0
    journal = tmp_path / ".faultlens" / "journal"
    for i in range(KILLS):
        proc = _spawn("apply_loop", str(tmp_path), str(SIZE), *FILES)
        if i % 2:  # at a random moment
            _kill_after_output(proc, rng.randint(1, 3), rng.uniform(0, 0.3))
        else:  # as soon as an apply is under way (its journal exists)
            _kill_when(proc, lambda: any(journal.glob("*.json")), rng.uniform(0, 0.004))
        # Right after the kill: every file is one whole version.
        now = {f: (tmp_path / f).read_bytes() for f in FILES}
        for f in FILES:
            assert now[f] in allowed[f], f"{f} is torn ({len(now[f])} bytes)"
        mid_apply += any((tmp_path / ".faultlens" / "journal").glob("*.json"))
        # Recovery: all files of one version, nothing left behind.
        recover_interrupted(Workspace.at(tmp_path))
        after = {f: (tmp_path / f).read_bytes()[:1] for f in FILES}
        assert len(set(after.values())) == 1, f"a half-applied change survived: {after}"
        leftovers = [p for p in tmp_path.rglob("*") if TMP_MARK in p.name]
        assert not leftovers, leftovers
        assert not list((tmp_path / ".faultlens" / "journal").glob("*.json"))
    # Kills do land mid-apply (a journal was left for recovery); if none did
    # the test would prove little.
    assert mid_apply >= KILLS // 4, "too few kills landed inside an apply"


@pytest.mark.slow
def test_kill_9_during_ledger_writes_keeps_a_sound_database_with_every_committed_attempt(
    tmp_path,
):
    rng = random.Random(5)
    committed: set[str] = set()
    for round_ in range(KILLS):
        proc = _spawn("ledger_loop", str(tmp_path), f"w{round_}", "0", "1")
        out = _kill_after_output(proc, rng.randint(1, 40), rng.uniform(0, 0.03))
        committed |= {ln.split()[1] for ln in out if ln.startswith("committed ")}
        db = sqlite3.connect(tmp_path / ".faultlens" / "ledger.sqlite3")
        try:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            stored = {r[0] for r in db.execute("SELECT failure_id FROM attempts")}
            finished = {
                r[0] for r in db.execute("SELECT failure_id FROM attempts WHERE state != 'pending'")
            }
        finally:
            db.close()
        assert committed <= stored, f"lost: {sorted(committed - stored)[:5]}"
        assert committed <= finished
    assert len(committed) > KILLS


def test_a_journal_half_written_by_a_killed_process_leaves_no_temporary_file(tmp_path):
    jdir = tmp_path / ".faultlens" / "journal"
    jdir.mkdir(parents=True)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    dead_tmp = jdir / f".{dead.stdout.strip()}-abc.json{TMP_MARK}{dead.stdout.strip()}-0a0b0c0d"
    live_tmp = jdir / f".{os.getpid()}-abc.json{TMP_MARK}{os.getpid()}-0a0b0c0d"
    dead_tmp.write_text('{"pid": 1, "targ')
    live_tmp.write_text('{"pid": 1, "targ')
    recover_interrupted(Workspace.at(tmp_path))
    assert not dead_tmp.exists()
    assert live_tmp.exists()  # a live writer's journal is its own business
