from app import clients


def test_urllib():
    assert clients.health_urllib() == 200


def test_requests():
    assert clients.health_requests() == 200


def test_httpx():
    assert clients.health_httpx() == 200


def test_socket():
    assert clients.redis_ping() == b"+PONG\r\n"
