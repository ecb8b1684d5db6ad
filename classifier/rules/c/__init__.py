"""C and C++: gcc and clang diagnostics, the linker, make, cmake; one
module per tool."""

from __future__ import annotations

from . import build, compiler, linker

__all__ = ["build", "compiler", "linker"]
