"""Real Neovim: the quickfix list follows a watch task's cycles (tests/nvim/watch.lua).

A real `vitest --watch` (tools/node-watch, scripts/install-tools.sh test) on a copy
of tests/samples/watch/vitest-watch, run from Neovim with :FaultlensRun and
`quickfix = true`. After Neovim exits no process is left in the workspace.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.watchlib import WATCH_BIN, kill_all_in, processes_in, watch_env
from tests.test_nvim_e2e import nvim_env, run_script

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
    left: list[int] = []

    def after() -> None:
        left.extend(processes_in(ws))
        kill_all_in(ws)

    out = run_script("watch", ws, nvim_env(xdg, watch_env()), xdg, TIMEOUT, after)
    assert "cycle 2 (fixed): the list is empty" in out
    assert not left, f"processes left in the workspace after Neovim exited: {left}"
