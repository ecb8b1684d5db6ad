"""C and C++: gcc and clang diagnostics, the linker, make, cmake, the test
runners (GoogleTest, Catch2, Unity, CTest), the sanitizers; one module per
tool."""

from __future__ import annotations

from . import build, compiler, linker, msvc, runners, sanitizer

__all__ = ["build", "compiler", "linker", "msvc", "runners", "sanitizer"]
