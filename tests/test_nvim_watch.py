"""Real Neovim: the quickfix list follows a watch task's cycles (tests/nvim/watch.lua).

A real `vitest --watch` (tools/node-watch, scripts/install-tools.sh test) on a copy
of tests/samples/watch/vitest-watch, run from Neovim with :FaultlensRun and
`quickfix = true`. After Neovim exits no process is left in the workspace.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.watchlib import WATCH_BIN, kill_all_in, processes_in, watch_env
from tests.test_nvim_e2e import PLUGIN, SCRIPTS, faultlens_executable, nvim_binary

pytestmark = [pytest.mark.nvim, pytest.mark.real_tool, pytest.mark.slow]

SAMPLE = Path(__file__).parent / "samples" / "watch" / "vitest-watch"
TIMEOUT = 400  # seconds: three vitest cycles and a stop on a loaded machine


def test_the_quickfix_list_follows_a_watch_tasks_cycles(tmp_path: Path) -> None:
    if not (WATCH_BIN / "vitest").exists():
        pytest.fail("vitest is missing: run scripts/install-tools.sh test")
    ws = tmp_path / "cart"
    shutil.copytree(
        SAMPLE, ws, ignore=shutil.ignore_patterns("output.txt", "cmd.txt", "cycles.json")
    )
    (ws / ".git").mkdir()  # the root marker
    xdg = tmp_path / "xdg"
    env = {k: v for k, v in watch_env().items() if not k.startswith("NVIM")}
    env.update(
        {
            "XDG_CONFIG_HOME": str(xdg / "config"),
            "XDG_DATA_HOME": str(xdg / "data"),
            "XDG_STATE_HOME": str(xdg / "state"),
            "XDG_CACHE_HOME": str(xdg / "cache"),
            "SHELL": "/bin/sh",
            "FAULTLENS_NVIM": str(PLUGIN),
            "TESTS_NVIM": str(SCRIPTS),
            "FAULTLENS": str(faultlens_executable()),
        }
    )
    argv = [str(nvim_binary()), "--headless", "-u", "NONE", "-l", str(SCRIPTS / "watch.lua")]
    started = time.monotonic()
    try:
        proc = subprocess.run(
            argv,
            cwd=ws,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"nvim watch.lua timed out after {TIMEOUT}s:\n{exc.stdout!r}")
    finally:
        left = processes_in(ws)
        kill_all_in(ws)
    lsp_log = xdg / "state" / "nvim" / "lsp.log"
    tail = lsp_log.read_text(errors="replace")[-3000:] if lsp_log.exists() else "(no lsp.log)"
    report = (
        f"nvim watch.lua: exit {proc.returncode} in {time.monotonic() - started:.1f}s\n"
        f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr[-3000:]}\n--- lsp.log\n{tail}"
    )
    lines = proc.stdout.rstrip().splitlines()
    assert proc.returncode == 0 and lines and lines[-1] == "PASS", report
    assert "cycle 2 (fixed): the list is empty" in proc.stdout
    assert not left, f"processes left in the workspace after Neovim exited: {left}"
