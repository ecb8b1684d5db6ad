import sys
import os
from app import billing
import json
from collections import OrderedDict, defaultdict


def main():
    return json.dumps({"os": os.name, "argv": sys.argv, "n": len(OrderedDict()), "d": defaultdict, "b": billing})
