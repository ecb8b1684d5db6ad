"""Helpers the recipe tests share: `faultlens run --recover` in a subprocess or
in process, a real command run and classified, the ledger beside a project."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Workspace


def faultlens_run_recover(
    cmd: list[str], cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`faultlens run --recover -- CMD` in a subprocess, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "run", "--recover", "--", *cmd],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, b: str | bytes) -> None:
        self.data += b.encode() if isinstance(b, str) else b

    def flush(self) -> None:
        pass


def run_recover_in_process(cmd: list[str], cwd: Path, task: str) -> tuple[Any, Workspace]:
    """`faultlens run --recover` in this process (output discarded): its report
    and the workspace whose ledger it wrote."""
    from faultlens.cli.run import run_command

    out, err = _Sink(), _Sink()
    ws = Workspace.at(cwd)
    report = run_command(
        cmd, cwd=cwd, ws=ws, task=task, recover=True, out=out, err_bytes=err, err=err
    )
    return report, ws


def run_classified(
    proj: Path, cmd: list[str], timeout: float | None = None
) -> tuple[subprocess.CompletedProcess[str], list[FailureRecord]]:
    """Run CMD in PROJ and classify its output (stdout, then stderr); every
    record's hint names the command, as `faultlens run` does."""
    res = subprocess.run(cmd, cwd=proj, capture_output=True, text=True, timeout=timeout)
    recs = classify_text(
        res.stdout + res.stderr, Options(cwd=str(proj), command=cmd, exit_code=res.returncode)
    )
    for r in recs:
        r.hint.setdefault("command", cmd)
    return res, recs


def workspace_beside(proj: Path, **kw: Any) -> Workspace:
    """A workspace on PROJ whose ledger lives beside it (PROJ/../state);
    `kw` goes to Workspace (settings=...)."""
    return Workspace(roots=[proj], state_dir=proj.parent / "state", **kw)
