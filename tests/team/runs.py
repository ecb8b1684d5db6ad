"""What the team-history tests share: a small git repository with a real
pytest suite (one test fails where a marker file exists, so the same code
passes or fails by the machine), its clones, and real `faultlens` runs in
them against the test's own database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg

GIT = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
}
TEST = """import os


def test_the_cache_is_warm():
    # fails where the marker file exists: the same code passes or fails by the machine
    assert not os.path.exists(os.environ.get("FLAKE_MARK", "/nonexistent/x"))


def test_the_clock():
    # fails where its marker exists: a second failure, for quarantine
    assert not os.path.exists(os.environ.get("CLOCK_MARK", "/nonexistent/x"))


def test_arithmetic():
    assert 1 + 1 == 2
"""


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT}, check=True, capture_output=True
    )


def clone(origin: Path, name: str) -> Path:
    dest = origin.parent / name
    git(origin.parent, "clone", "-q", str(origin), str(dest))
    return dest


def faultlens(cwd: Path, url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CI_"))},
        "FAULTLENS_HISTORY_URL": url,
        # a busy machine may take seconds to connect: the tests wait for the
        # database as long as it takes (the default, 1 s, keeps runs fast)
        "FAULTLENS_HISTORY_WAIT": "60",
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "faultlens", *args],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=180,
    )


def pytest_run(cwd: Path, url: str, **env: str) -> subprocess.CompletedProcess[str]:
    return faultlens(
        cwd, url, "run", "--", sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", **env
    )


def count(url: str, sql: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(sql).fetchone()  # type: ignore[arg-type]
    assert row is not None
    return int(row[0])
