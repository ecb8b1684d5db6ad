"""`faultlens retry`: see cli/tasks.py."""

from __future__ import annotations

from .tasks import add_retry as add_parser

__all__ = ["add_parser"]
