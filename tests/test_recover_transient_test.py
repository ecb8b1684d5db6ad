"""A transient failure inside a test is retried where it failed: the failing
test alone, selected as its runner selects one, with the backoff; then the
command once, for the run's honest exit (issue 28, item 6).  Real pytest."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]

# The first two calls of test_fetch meet a refused connection (the discard
# port of loopback, where nothing listens); later calls pass.  A sibling test
# counts how often the whole suite ran.
TESTS = """\
import socket


def test_slow_neighbour():
    with open("neighbour.runs", "a") as f:
        f.write("x")


def test_fetch():
    with open("fetch.calls", "a+") as f:
        f.write("x")
        f.seek(0)
        calls = len(f.read())
    if calls <= 2:
        socket.create_connection(("127.0.0.1", 9), timeout=1)
"""


def test_a_refused_connection_in_one_test_is_retried_in_that_test_alone(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "test_net.py").write_text(TESTS)
    report, _ = run_recover_in_process(PYTEST, tmp_path, "T")
    (o,) = report.outcomes
    assert o.record.failure_type.value == "infra" and o.result == "recovered"
    assert "-rA test_net.py::test_fetch" in o.tried
    # two retries of the test alone; the suite ran twice: first, then once to
    # confirm (a retry of the command each time ran it three times)
    assert (tmp_path / "fetch.calls").read_text() == "xxxx"
    assert (tmp_path / "neighbour.runs").read_text() == "xx"
    assert report.exit_code == 0
