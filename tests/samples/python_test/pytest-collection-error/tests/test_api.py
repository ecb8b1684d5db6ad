import responses_client


def test_get():
    assert responses_client.get("/health").status == 200
