from helpers import risky


def test_risky():
    print("starting")
    assert risky() == 4
