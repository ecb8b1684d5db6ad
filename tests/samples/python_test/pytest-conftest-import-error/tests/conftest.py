import pytest
from fakeredis import FakeRedis


@pytest.fixture
def cache():
    return FakeRedis()
