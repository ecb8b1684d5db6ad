import os


def connect():
    url = os.environ["DATABASE_URL"]
    return url


connect()
