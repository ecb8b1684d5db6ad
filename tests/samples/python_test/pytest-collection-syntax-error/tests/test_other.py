def test_other():
    assert True
