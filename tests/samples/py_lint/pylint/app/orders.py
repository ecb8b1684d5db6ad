import os
import json


def load(path):
    with open(path) as fh:
        data = json.load(fh)
    return dta


class store:
    def save(self, path, data):
        with open(path, "w") as fh:
            json.dump(data, fh)
