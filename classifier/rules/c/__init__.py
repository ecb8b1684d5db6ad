"""C and C++: gcc and clang diagnostics, the linker, make, cmake, the test
runners (Unity, CTest); one module per tool."""

from __future__ import annotations

from . import build, compiler, ctest, linker

__all__ = ["build", "compiler", "ctest", "linker"]
