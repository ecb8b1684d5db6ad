def test_cache(cache):
    cache.set("a", 1)
    assert cache.get("a") == b"1"
