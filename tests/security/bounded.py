"""Run a piece of faultlens in a child process with a memory ceiling and a
deadline, for tests of inputs that would exhaust memory or hang (a link to
/dev/zero, a FIFO): the test fails cleanly instead of taking the machine down."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEMORY = 1 << 30  # address space of the child: 1 GiB


@dataclass(frozen=True)
class Bounded:
    code: int | None  # None: killed at the deadline
    out: str
    err: str

    @property
    def hung(self) -> bool:
        return self.code is None


def _limit() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_bounded(
    source: str, *args: str, timeout: float = 20.0, env: dict[str, str] | None = None
) -> Bounded:
    """Run `source` (Python) with `args` in sys.argv[1:], at most MEMORY bytes
    and `timeout` seconds."""
    proc = subprocess.Popen(
        [sys.executable, "-c", source, *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limit,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return Bounded(None, out, err)
    return Bounded(proc.returncode, out, err)
