from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .pgcluster import Cluster, cluster
from .runs import TEST, git


@pytest.fixture(scope="session")
def pg() -> Iterator[Cluster]:
    with cluster() as c:
        yield c


@pytest.fixture
def history_url(pg: Cluster) -> str:
    return pg.new_database()


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    repo = tmp_path / "origin"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_cache.py").write_text(TEST)
    (repo / ".gitignore").write_text("__pycache__/\n.faultlens/\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "tests")
    return repo
