import os
import sys


def handle(event):
    if event == None:
        return
    try:
        process(event)
    except:
        pass


def status(code):
    return "ok" if code == 0 else f"failed"


def process(event):
    print(event)
    return undefined_helper(event)
