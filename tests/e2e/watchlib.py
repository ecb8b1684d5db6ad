"""Helpers of the watch-mode tests: the real watchers, and the processes they leave.

Every wait is on a condition (a diagnostic published, a progress report, a
process gone) with a generous hang guard: a loaded 2-core machine makes tsc's
first compile take 10 s and more.  Teardown kills every process whose working
folder is inside the test's workspace (their whole process groups), so a
failed test never leaves a watcher behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

from benchmarks.watch import processes_in

__all__ = ["processes_in"]

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
TSC_BIN = TOOLS / "node" / "node_modules" / ".bin"
WATCH_BIN = TOOLS / "node-watch" / "node_modules" / ".bin"
CYCLE_TIMEOUT = 120.0  # seconds for one watcher cycle (tsc starts slowly under load)


def watch_env() -> dict[str, str]:
    """The server's environment: the project's tools first on PATH (so `npx tsc`
    finds tsc without the registry), no CI variable (watchers change behaviour
    under CI), no colour."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    env["PATH"] = os.pathsep.join([str(TSC_BIN), str(WATCH_BIN), env.get("PATH", "")])
    env.update({"NO_COLOR": "1", "FORCE_COLOR": "0", "npm_config_yes": "false"})
    return env


def kill_all_in(root: Path) -> None:
    """Kill what a test left running in its workspace (process groups first)."""
    for pid in processes_in(root):
        with contextlib.suppress(OSError):
            os.killpg(os.getpgid(pid), signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


SCRIPTED_WATCHER = '''\
"""A watcher the tests drive: each cycle prints `== build N`, then report.txt
(a real tool's captured output, copied there by the test), then `== failed`
or `== ok`; the next cycle begins when report.txt changes."""
import os
import time

with open("watcher.pid", "w") as fh:
    fh.write(str(os.getpid()))


def stamp():
    try:
        st = os.stat("report.txt")
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size)


n = 0
while True:
    n += 1
    seen = stamp()
    text = open("report.txt").read() if seen else ""
    print(f"== build {n}", flush=True)
    print(text, end="" if text.endswith("\\n") or not text else "\\n", flush=True)
    print("== failed" if text.strip() else "== ok", flush=True)
    while stamp() == seen:
        time.sleep(0.05)
'''
# its cycle banners, given with the run as VS Code's background matchers give them
SCRIPTED_BANNERS = {"watch": True, "begin": "^== build", "end": "^== (ok|failed)"}


def scripted_watcher(folder: Path, report: str) -> list[str]:
    """Put the scripted watcher in `folder` with `report` as its first cycle's
    output; the argv that runs it."""
    (folder / "watcher.py").write_text(SCRIPTED_WATCHER)
    (folder / "report.txt").write_text(report)
    return [sys.executable, "watcher.py"]


def watcher_pid(folder: Path) -> int | None:
    """The scripted watcher's pid, once it has written it."""
    try:
        return int((folder / "watcher.pid").read_text())
    except (OSError, ValueError):
        return None
