"""Render the changelog; a version string it cannot parse stops it."""


def parse_version(text):
    parts = text.split(".")
    if len(parts) != 3:
        raise RuntimeError(f"unexpected version string {text!r}")
    return tuple(int(p) for p in parts)


print(parse_version("2.1"))
