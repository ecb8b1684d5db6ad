from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# tests/samples/ holds the broken inputs the samples were captured from
# (failing test files among them): data, never part of this suite.
collect_ignore_glob = ["samples/*", "rerun_samples/*"]

_STATE_HOME: list[str] = []

TESTS = Path(__file__).resolve().parent
# What keeps a test out of the inner loop (`pytest -m fast`): a real tool,
# editor or a marked slow test; or a folder whose tests start servers,
# editors' clients and hostile probes (each a process or more).
NOT_FAST_MARKERS = ("real_tool", "nvim", "vscode", "slow", "postgres")
NOT_FAST_FOLDERS = frozenset({"e2e", "security", "agents", "server"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the inner loop: every other test is `fast` (pure logic, the
    sample matrix, the CLI on small inputs): `pytest -m fast` runs them."""
    for item in items:
        try:
            folder = item.path.resolve().relative_to(TESTS).parts[0]
        except ValueError:
            continue
        if folder in NOT_FAST_FOLDERS:
            continue
        if any(item.get_closest_marker(m) is not None for m in NOT_FAST_MARKERS):
            continue
        item.add_marker(pytest.mark.fast)


def pytest_configure(config: pytest.Config) -> None:
    """faultlens keeps its machine key under $XDG_STATE_HOME (recipes/machinekey.py)
    and its start-up caches under $XDG_CACHE_HOME (classifier/cachefile.py): the
    suite, and every process it starts, uses folders of its own."""
    if os.environ.get("FAULTLENS_TEST_STATE_HOME") == "keep":
        return
    for var, prefix in (("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")):
        folder = tempfile.mkdtemp(prefix=f"faultlens-{prefix}-home-")
        _STATE_HOME.append(folder)
        os.environ[var] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _STATE_HOME:
        shutil.rmtree(folder, ignore_errors=True)
