import os
import json


def load(path):
    with open(path) as fh:
        data = json.load(fh)
    return dta


def save(path, data) :
    with open(path, "w") as fh:
        json.dump(data, fh)
