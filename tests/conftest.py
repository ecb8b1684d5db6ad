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
    """faultlens keeps its machine key under $XDG_STATE_HOME (recipes/machinekey.py):
    the suite, and every process it starts, uses a folder of its own."""
    if os.environ.get("FAULTLENS_TEST_STATE_HOME") == "keep":
        return
    folder = tempfile.mkdtemp(prefix="faultlens-state-home-")
    _STATE_HOME.append(folder)
    os.environ["XDG_STATE_HOME"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _STATE_HOME:
        shutil.rmtree(folder, ignore_errors=True)
