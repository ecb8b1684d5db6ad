from app.config import DATABASE_URL


def test_url_is_postgres():
    assert DATABASE_URL.startswith("postgres://")
