"""`faultlens stop`: see cli/tasks.py."""

from __future__ import annotations

from .tasks import add_stop as add_parser

__all__ = ["add_parser"]
