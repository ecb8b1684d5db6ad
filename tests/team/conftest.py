from __future__ import annotations

from collections.abc import Iterator

import pytest

from .pgcluster import Cluster, cluster


@pytest.fixture(scope="session")
def pg() -> Iterator[Cluster]:
    with cluster() as c:
        yield c


@pytest.fixture
def history_url(pg: Cluster) -> str:
    return pg.new_database()
