"""faultlens.cli: the `faultlens` command line."""

from __future__ import annotations

from faultlens.classifier.package_version import version


def __getattr__(name: str) -> str:
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["version"]
