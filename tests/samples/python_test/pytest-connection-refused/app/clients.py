import socket
import urllib.request

import httpx
import requests

API = "http://127.0.0.1:59231"


def health_urllib() -> int:
    with urllib.request.urlopen(API + "/health", timeout=2) as resp:
        return resp.status


def health_requests() -> int:
    return requests.get("http://localhost:59232/health", timeout=2).status_code


def health_httpx() -> int:
    return httpx.get("http://127.0.0.1:59233/health", timeout=2).status_code


def redis_ping() -> bytes:
    with socket.create_connection(("127.0.0.1", 59234), timeout=2) as s:
        s.sendall(b"PING\r\n")
        return s.recv(16)
