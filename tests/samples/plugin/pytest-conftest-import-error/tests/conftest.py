import factory_helpers_missing


def pytest_configure(config):
    factory_helpers_missing.setup()
