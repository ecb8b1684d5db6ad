from app import settings


def test_api_key_is_long():
    assert len(settings.api_key()) > 10


def test_api_key_prefix():
    assert settings.api_key().startswith("sk_")


def test_database_url():
    assert settings.database_url().startswith("postgres://")


def test_region():
    assert settings.region() == "us"
