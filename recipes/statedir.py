"""Making the state dir (`.faultlens/`): when faultlens creates it, it gets a
`.gitignore` holding `*`, so nothing of it is ever committed by accident
(ledger, logs, run logs, journals).  A state dir that already exists is left
as its owner made it."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

GITIGNORE = "# made by faultlens: its state is never committed\n*\n"

_MADE: set[Path] = set()  # state dirs this process has checked


def ensure(state: Path) -> None:
    """Create `state` (and its parents) if missing; a new one gets its .gitignore."""
    if state in _MADE and state.is_dir():
        return
    try:
        state.mkdir(parents=True)
    except FileExistsError:
        _MADE.add(state)
        return
    except OSError:
        return  # read-only or full: the state's writers say so, once
    with contextlib.suppress(OSError):
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(state / ".gitignore", flags, 0o644)
        try:
            os.write(fd, GITIGNORE.encode())
        finally:
            os.close(fd)
    _MADE.add(state)
