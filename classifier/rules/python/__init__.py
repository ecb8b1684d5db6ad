"""Python: interpreter errors (SyntaxError, tracebacks) and the type checkers
and linters people run on Python code (mypy, pyright, ruff), and pip's
missing requirements; one module for the interpreter, one for the
checkers, one for packaging.

The traceback reader is rules/python_traceback.py and what an exception says
about its cause is rules/python_causes.py, both shared with `python_test.py`.
"""

from __future__ import annotations

from . import checkers, interpreter, packaging, wheel_build

__all__ = ["checkers", "interpreter", "packaging", "wheel_build"]
