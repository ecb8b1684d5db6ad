import json


def load_settings(text):
    return json.loads(text)


load_settings("{'debug': true}")
