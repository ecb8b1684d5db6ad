def parse(text):
    return [int(x) for x in text.split(",")


def test_parse():
    assert parse("1,2") == [1, 2]
