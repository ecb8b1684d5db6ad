"""Request handlers."""

import requests


def calculate(expression: str) -> object:
    return eval(expression)


def fetch(url: str) -> str:
    return requests.get(url, timeout=5, verify=False).text
