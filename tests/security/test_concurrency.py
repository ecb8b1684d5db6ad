"""Concurrency and load.

* 4 processes recording attempts in the ledger and writing events at once,
  10,000 of each in all: none is lost, none is torn, the database is sound.
* 100 concurrent ingests of 10,000-line outputs into `faultlens serve`: the
  server's memory stays bounded and hover keeps answering while they run.
  How quickly it answers is a benchmark (`python -m benchmarks.run --only
  editor`), not an assertion: a busy machine must not fail this test.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

PROCESSES = 4
EVENTS_TOTAL = 10_000


@pytest.mark.slow
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


# -- the server under load ------------------------------------------------------------------
INGESTS = 100
LINES = 10_000


def _rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def _big_output(n: int) -> str:
    """LINES lines of build noise with one TypeScript error (in its own file)
    in the middle: what a terminal running a build sends."""
    noise = [
        f"[{n:03d}:{i:05d}] npm info building module-{i % 97} ({i * 7 % 1000} ms)"
        for i in range(LINES - 1)
    ]
    half = len(noise) // 2
    error = f"gen/mod{n:03d}.ts(1,7): error TS2304: Cannot find name 'Missing{n}'."
    return "\n".join([*noise[:half], error, *noise[half:]]) + "\n"


def test_100_concurrent_ingests_keep_memory_bounded_and_hover_answering(tmp_path):
    import shutil
    import statistics
    import threading
    import time

    from .conftest import SAMPLES
    from .lsp_raw import RawClient

    sample = SAMPLES / "typescript" / "tsc-plain-ts2304"
    ws = tmp_path / "ws"
    shutil.copytree(sample, ws)
    output = (ws / "output.txt").read_text()
    c = RawClient(ws)
    try:
        c.initialize()
        c.notify("faultlens/ingest", {"output": output, "task": "warm"})
        uri = (ws / "src" / "auth" / "middleware.ts").as_uri()
        pos = c.diagnostics_for(uri)[0]["range"]["start"]
        hover = {"textDocument": {"uri": uri}, "position": pos}
        for _ in range(5):
            c.request("textDocument/hover", hover)
        base = _rss_kib(c.proc.pid)
        (ws / "gen").mkdir()
        for n in range(INGESTS):
            (ws / "gen" / f"mod{n:03d}.ts").write_text(f"const a = Missing{n};\n")
        payloads = [_big_output(n) for n in range(INGESTS)]
        total_mib = sum(len(p) for p in payloads) / 2**20

        latencies: list[float] = []
        peak = [base]
        done = threading.Event()

        def probe() -> None:
            while not done.is_set():
                t0 = time.perf_counter()
                res = c.request("textDocument/hover", hover, timeout=60)
                latencies.append(time.perf_counter() - t0)
                assert res.get("result"), res
                peak[0] = max(peak[0], _rss_kib(c.proc.pid))
                time.sleep(0.02)

        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        t_start = time.perf_counter()
        for n, p in enumerate(payloads):
            c.notify("faultlens/ingest", {"output": p, "task": f"load-{n}"})
        del payloads
        # all ingested: the last task's failures are listed
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            listed = c.request("faultlens/failures", {"task": f"load-{INGESTS - 1}"})
            if listed["result"]["failures"]:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the ingests did not finish")
        elapsed = time.perf_counter() - t_start
        during = len(latencies)
        # at least 20 hovers answered in all, however slow the machine is
        deadline = time.monotonic() + 600
        while len(latencies) < 20 and prober.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        done.set()
        prober.join(timeout=60)
        tasks = {
            f["task"] if "task" in f else f.get("record", {}).get("task")
            for f in c.request("faultlens/failures", {})["result"]["failures"]
        }
        after = _rss_kib(c.proc.pid)
    finally:
        c.close()
    median_ms = statistics.median(latencies) * 1000
    growth_mib = (peak[0] - base) / 1024
    print(
        f"{INGESTS} ingests of {LINES} lines ({total_mib:.0f} MiB) in {elapsed:.1f}s; "
        f"hover median {median_ms:.1f} ms over {len(latencies)}, max {max(latencies) * 1000:.0f} ms; "
        f"RSS {base // 1024} MiB -> peak {peak[0] // 1024} MiB -> after {after // 1024} MiB"
    )
    assert len(latencies) >= 20
    assert during >= 1, "no hover was answered while the ingests ran"
    # bounded: the server holds neither all outputs at once nor a copy per ingest
    assert growth_mib < max(256.0, 1.5 * total_mib), f"grew {growth_mib:.0f} MiB"
    assert len(tasks) >= INGESTS
