"""A watcher whose cycle never ends costs bounded memory and disk (issue 27,
item 6).

`faultlens run -- <watcher>` held 2 GB after 20 s of a cycle that never
ended (the follower's queue and the cycle's classifier grew without bound),
and the server's watch mode wrote a 211 MB run log in 20 s.  Now the follower
takes at most QUEUE_CHUNKS chunks (the pump waits, as on a slow terminal) and
classifies at most MAX_CYCLE_BYTES of one cycle, and a run log stops at
MAX_RUN_LOG with a line saying so.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SPEW = (
    "import sys, time\n"
    "sys.stdout.write('BEGIN\\n')\n"
    "line = 'src/app.py:{n}: error: something went wrong with item {n} ' + 'y' * 200 + '\\n'\n"
    "total, n, limit = 0, 0, int(sys.argv[1]) * 1024 * 1024\n"
    "while total < limit:\n"
    "    chunk = ''.join(line.format(n=n + i) for i in range(1000))\n"
    "    sys.stdout.write(chunk)\n"
    "    total += len(chunk)\n"
    "    n += 1000\n"
    "sys.stdout.flush()\n"
    "open(sys.argv[2], 'w').write('done')\n"
    "time.sleep(600)\n"
)


def _peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_a_cycle_that_never_ends_is_followed_in_bounded_memory(tmp_path):
    (tmp_path / ".git").mkdir()
    flag = tmp_path / "printed"
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "faultlens.cli",
            "run",
            "--begin",
            "^BEGIN",
            "--end",
            "^END",
            "--",
            sys.executable,
            "-c",
            SPEW,
            "300",
            str(flag),
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        for _ in range(6000):  # 300 MB printed into one cycle (the pump waits when it must)
            if flag.exists() or run.poll() is not None:
                break
            time.sleep(0.05)
        assert flag.exists()
        peak = _peak_kib(run.pid)
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=60)
    assert peak < 200 * 1024, f"faultlens held {peak // 1024} MiB for 300 MB of one cycle"


def test_a_run_log_stops_at_its_cap_with_a_line_saying_so(tmp_path):
    from faultlens.server.runlog import CAPPED, CappedLog

    path = tmp_path / "run.log"
    with open(path, "wb") as raw:
        log = CappedLog(raw, limit=1000)
        for i in range(500):
            log.write(f"line {i} of a watcher that never stops\n".encode())
        log.flush()
    data = path.read_bytes()
    assert len(data) <= 1000 + len(CAPPED)
    assert data.endswith(CAPPED) and data.count(CAPPED) == 1
    assert data.startswith(b"line 0 of") and b"\nline 1 of" in data  # whole lines, numbered as run
