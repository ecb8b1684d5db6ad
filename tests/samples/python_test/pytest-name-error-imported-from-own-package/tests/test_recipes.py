from kit import most_common
from kit.seqs import frequencies


def test_most_common():
    assert most_common("abca") == "a"
    assert frequencies("ab") == {"a": 1, "b": 1}
