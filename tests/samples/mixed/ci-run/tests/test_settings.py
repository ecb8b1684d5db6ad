from app.settings import SETTINGS


def test_region_is_the_default():
    assert SETTINGS == {"region": "us-east-1", "bucket": "reports"}
