import pytest


@pytest.fixture
def conn():
    raise RuntimeError("database unreachable")


def test_fine():
    assert 1 + 1 == 2


def test_uses_db(conn):
    assert conn


def test_uses_missing(nothere):
    pass
