import ctypes

def test_native_parser():
    ctypes.string_at(0)
