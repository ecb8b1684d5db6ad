"""Build a lookup table far larger than the machine allows."""
import resource

resource.setrlimit(resource.RLIMIT_AS, (512 * 1024 * 1024, 512 * 1024 * 1024))


def build(n):
    return bytearray(n)


table = build(4 * 1024 * 1024 * 1024)
