"""MCP `run` of a watcher (issue 27, item 2): `tsc --watch` never exits, so
the call answers after the watcher's first cycle, with that cycle's failures,
and the watcher is stopped with its process group; with `recover`, the fix is
verified by the watcher's first cycle run again.  The real tsc on the seed's
TypeScript example (TS2304 at middleware.ts:42), through the SDK's client."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .conftest import tool
from .test_mcp_server import call, session

TSC = tool("tsc")
pytestmark = [
    pytest.mark.real_tool,
    pytest.mark.skipif(TSC is None, reason="tsc is not installed (scripts/install-tools.sh)"),
]


def _watchers_of(proj: Path) -> list[int]:
    """The processes still running `tsc --watch` on `proj`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--watch" in argv and str(proj).encode() in argv:
            found.append(int(entry.name))
    return found


def _all_gone(proj: Path, within: float = 30) -> bool:
    end = time.monotonic() + within
    while _watchers_of(proj):
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


async def test_run_of_a_watcher_answers_after_its_first_cycle_and_stops_it(ts_project):
    cmd = [str(TSC), "--watch", "--preserveWatchOutput", "-p", str(ts_project)]
    t0 = time.monotonic()
    async with session(ts_project) as s:
        got = await call(s, "run", {"command": cmd, "timeout": 240})
        took = time.monotonic() - t0
        assert _all_gone(ts_project), "the watcher still runs after the answer"
    assert took < 200, f"answered after {took:.0f} s: at the timeout, not the first cycle"
    assert got["first_cycle"] is True and got["timed_out"] is False
    assert got["exit_code"] == 1
    (failure,) = got["failures"]
    assert failure["failure_type"] == "compile" and failure["source_line"] == 42
    assert failure["source_file"].endswith("middleware.ts")
    assert "Watching for file changes" in got["output_tail"]


async def test_recover_on_a_watcher_is_verified_by_its_first_cycle_run_again(ts_project):
    cmd = [str(TSC), "--watch", "--preserveWatchOutput", "-p", str(ts_project)]
    t0 = time.monotonic()
    async with session(ts_project) as s:
        got = await call(s, "run", {"command": cmd, "recover": True, "timeout": 240})
        took = time.monotonic() - t0
        assert _all_gone(ts_project), "a watcher still runs after the answer"
    assert took < 200, f"answered after {took:.0f} s: the re-run waited for the watcher's exit"
    assert got["first_cycle"] is True and got["timed_out"] is False
    (attempt,) = got["attempts"]
    assert attempt["result"] == "recovered", attempt  # its first cycle, run again: clean
    assert got["exit_code"] == 0
    assert "import" in (ts_project / "src" / "auth" / "middleware.ts").read_text()
