import sys

import pytest


def test_error_path_returns_none():
    assert {}.get("error") is None


@pytest.mark.xfail(reason="FAILED upstream: issue 42", strict=False)
def test_known_failure():
    assert 1 == 2


@pytest.mark.skipif(sys.platform == "linux", reason="ERROR handling differs on linux")
def test_windows_only():
    assert False
