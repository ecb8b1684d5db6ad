from __future__ import annotations

import os
import shutil
import tempfile

import pytest

# tests/samples/ holds the broken inputs the samples were captured from
# (failing test files among them): data, never part of this suite.
collect_ignore_glob = ["samples/*", "rerun_samples/*"]

_STATE_HOME: list[str] = []


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
