import json


def parse(raw):
    data = json.loads(raw)
    return data["items"]


def main():
    for item in parse('{"item": []}'):
        print(item)


main()
