import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a slow test")


def pytest_collection_finish_report(session):
    print("collected", len(session.items))
