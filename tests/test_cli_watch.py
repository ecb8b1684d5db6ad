"""`faultlens run --watch`: a real `tsc --watch` followed cycle by cycle from the CLI.

The watcher runs on a copy of tests/samples/typescript/tsc-plain-ts2304 (TS2304
at src/auth/middleware.ts:42); each test waits on the CLI's own report lines
(with generous hang guards), then stops it as a terminal's Ctrl-C would (SIGINT
to the process group) and checks that no process is left in the folder.
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from faultlens.cli.main import UsageError
from faultlens.cli.run import _watcher
from tests.e2e.watchlib import TSC_BIN, kill_all_in, processes_in, watch_env

SAMPLE = Path(__file__).parent / "samples" / "typescript" / "tsc-plain-ts2304"
FAULTLENS = [sys.executable, "-m", "faultlens.cli"]
CYCLE = 120.0


class Watching:
    """A `faultlens run` in its own process group, its stderr read line by line."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.proc = subprocess.Popen(
            [*FAULTLENS, "run", *argv],
            cwd=cwd,
            env=watch_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = CYCLE) -> str:
        """A line holding `text`, printed already or within `timeout` seconds (two
        threads report: the cycles and a recovery, so their order may vary)."""
        for line in self.seen:
            if text in line:
                return line
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"no {text!r} within {timeout:g} s; stderr so far: {self.seen}")

    def interrupt(self) -> int:
        os.killpg(self.proc.pid, signal.SIGINT)
        return self.proc.wait(60)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    if not (TSC_BIN / "tsc").exists():
        pytest.fail("tsc is missing: run scripts/install-tools.sh test")
    root = tmp_path / "app"
    shutil.copytree(SAMPLE, root)
    (root / ".git").mkdir()
    yield root
    kill_all_in(root)


def fix(root: Path) -> None:
    path = root / "src" / "auth" / "middleware.ts"
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = "import type { UserProfile } from '../models/user';\n"
    path.write_text("".join(lines))


@pytest.mark.real_tool
@pytest.mark.slow
def test_run_follows_tsc_watch_cycle_by_cycle_and_ctrl_c_ends_it(project: Path) -> None:
    w = Watching(["--", "tsc", "--watch", "--preserveWatchOutput", "-p", "."], project)
    w.wait_for("(tsc cycles; Ctrl-C stops)", 30)
    w.wait_for("cycle 1: 1 compile failure")
    w.wait_for("compile  src/auth/middleware.ts:42  error TS2304")
    assert processes_in(project), "tsc keeps running after its first cycle"
    fix(project)
    w.wait_for("cycle 2: no failures")
    assert w.interrupt() == 130
    assert not processes_in(project)


@pytest.mark.real_tool
@pytest.mark.slow
def test_run_recover_verifies_a_fix_by_the_watchers_next_cycle(project: Path) -> None:
    w = Watching(["--recover", "--", "tsc", "--watch", "--preserveWatchOutput", "-p", "."], project)
    w.wait_for("cycle 1: 1 compile failure")
    w.wait_for("cycle 2: no failures")  # the recipe's import, seen by tsc itself
    w.wait_for("verified by the watcher's next cycle (tsc)")
    w.wait_for("recovered compile")
    assert "UserProfile" in (project / "src" / "auth" / "middleware.ts").read_text().split("\n")[1]
    assert w.interrupt() == 130
    assert not processes_in(project)


@pytest.mark.real_tool
@pytest.mark.slow
def test_a_sigterm_to_faultlens_alone_ends_the_watchers_whole_tree(project: Path) -> None:
    """`kill <faultlens>` (no terminal signals the group): npx's tsc would
    outlive npm; the watcher's whole tree is ended with it."""
    (project / "node_modules").symlink_to(TSC_BIN.parent)  # as `npm install` leaves it
    w = Watching(["--", "npx", "tsc", "--watch", "--preserveWatchOutput", "-p", "."], project)
    w.wait_for("cycle 1: 1 compile failure")
    assert len(processes_in(project)) >= 3, "faultlens, npm and tsc run in the folder"
    os.kill(w.proc.pid, signal.SIGTERM)
    assert w.proc.wait(60) == 128 + signal.SIGTERM
    deadline = time.monotonic() + 10
    while processes_in(project) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not processes_in(project), "a process of the watcher's tree is left"


def _args(**kw: object) -> argparse.Namespace:
    return argparse.Namespace(**{"watch": None, "begin": None, "end": None, **kw})


def test_the_watcher_comes_from_the_command_or_the_flags() -> None:
    assert _watcher(["tsc", "--watch"], _args()).name == "tsc"
    assert _watcher(["tsc", "--watch"], _args(watch=False)) is None
    assert _watcher(["make", "watch"], _args()) is None
    auto = _watcher(["make", "watch"], _args(watch=True))
    assert auto.name == "auto" and auto.quiet
    assert _watcher(["./dev.sh"], _args(begin="^== build", end="^== done")).name == "--begin/--end"
    with pytest.raises(UsageError, match="bad cycle pattern"):
        _watcher(["./dev.sh"], _args(end="("))
