"""`faultlens retry TASK`, `faultlens skip TASK`, `faultlens stop [TASK]`: the
seed's options from the terminal, with the retry limit (2) and a fresh
attempt for every failure of a retried task."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.real_tool

REAL = (
    "import unittest\n\n\nclass PriceTest(unittest.TestCase):\n"
    "    def test_price(self):\n        self.assertEqual(2 + 2, 5)\n"
)


def faultlens(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def _project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "test_price.py").write_text(REAL)
    return tmp_path


def flat(text: str) -> str:
    """Text with the box's frame and wrapping taken out."""
    return " ".join(line.strip("║ ").strip() for line in text.splitlines())


def _task(proj: Path, name: str) -> dict:
    data = json.loads(faultlens("status", "--json", cwd=proj).stdout)
    (task,) = [t for t in data["tasks"] if t["task"] == name]
    return task


def test_retry_reruns_the_task_with_fresh_attempts_until_the_limit(tmp_path):
    proj = _project(tmp_path)
    cmd = ["run", "--recover", "--task", "T-1", "--", sys.executable, "-m", "unittest"]
    first = faultlens(*cmd, cwd=proj)
    assert first.returncode == 1
    assert "[retry T-1] - Try again with fresh context (2 retries left)" in first.stderr
    again = faultlens("retry", "T-1", cwd=proj)
    assert again.returncode == 1  # the test still fails
    assert "retry 1 of 2" in again.stderr
    assert "anti-loop" not in again.stderr  # a fresh attempt, not a repeat
    assert "Tried: re-ran test_price.PriceTest.test_price once (unittest)" in flat(again.stderr)
    assert "Expected: 5" in flat(again.stderr) and "Actual: 4" in flat(again.stderr)
    assert "(1 retry left)" in flat(again.stderr)
    assert faultlens("retry", "T-1", cwd=proj).returncode == 1
    refused = faultlens("retry", "T-1", cwd=proj)
    assert refused.returncode == 1
    assert "2 of 2 retries used; a human must decide" in refused.stderr
    assert _task(proj, "T-1")["retries"] == 2


def test_skip_and_stop_are_recorded_and_a_stopped_task_attempts_nothing(tmp_path):
    proj = _project(tmp_path)
    cmd = ["run", "--recover", "--task", "T-2", "--", sys.executable, "-m", "unittest"]
    assert faultlens(*cmd, cwd=proj).returncode == 1
    assert faultlens("skip", "T-2", cwd=proj).returncode == 0
    assert _task(proj, "T-2")["status"] == "skipped"
    stopped = faultlens("stop", cwd=proj)
    assert stopped.returncode == 0
    assert faultlens("stop", "T-2", cwd=proj).returncode == 0
    assert _task(proj, "T-2")["status"] == "stopped"
    after = faultlens(*cmd, cwd=proj)
    assert after.returncode == 1
    assert "the task is stopped" in after.stderr


def test_the_options_need_a_ledger(tmp_path):
    res = faultlens("retry", "T-9", cwd=tmp_path)
    assert res.returncode == 2 and "no ledger" in res.stderr
