import pytest


def handle(exc: Exception) -> str:
    return f"ERROR: {exc}"


def test_error_is_formatted():
    assert handle(ValueError("bad input")) == "ERROR: bad input"


def test_failed_status_is_reported():
    status = "FAILED"
    assert status.lower() == "failed"


def test_raises_error():
    with pytest.raises(ZeroDivisionError):
        1 / 0
