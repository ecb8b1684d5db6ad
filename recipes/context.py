"""What a planner gets: the record, the workspace, the recipe's settings, and
the command that produced the failure (to verify by re-running it).

Read-only helpers only; planners never write (the engine applies their plan).
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faultlens.classifier.files import read_text

from .docs import setting
from .model import CommandStep, RecipeDoc, UnsafeEdit, Workspace
from .safety import inside_workspace, to_workspace_relative

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


def command_of(value: Any) -> list[str] | None:
    """A command from a hint value: an argv list, or a string split like a shell
    would split it (never run by a shell)."""
    if isinstance(value, list) and value and all(isinstance(x, str) for x in value):
        return list(value)
    if isinstance(value, str) and value.strip():
        try:
            return shlex.split(value)
        except ValueError:
            return None
    return None


@dataclass(slots=True)
class PlanContext:
    """Everything a planner may look at."""

    record: FailureRecord
    ws: Workspace
    doc: RecipeDoc
    command: list[str] | None = None  # the command that produced the failure
    cwd: str = "."  # its directory, workspace-relative
    env: dict[str, str] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.ws.root

    @property
    def cwd_path(self) -> Path:
        return self.root if self.cwd in ("", ".") else inside_workspace(self.ws, self.cwd)

    def setting(self, dotted: str, default: Any) -> Any:
        return setting(self.doc, dotted, default)

    def rel(self, path: str | None) -> str | None:
        """A path as the record prints it (relative to the run's cwd, or absolute)
        as a workspace-relative posix path; None when outside the workspace."""
        if not path:
            return None
        p = Path(path)
        full = p if p.is_absolute() else self.cwd_path / p
        try:
            return to_workspace_relative(self.ws, full)
        except UnsafeEdit:
            return None

    @property
    def source(self) -> str | None:
        """The record's source file, workspace-relative (None when unknown/outside)."""
        return self.rel(self.record.source_file)

    def read(self, rel: str) -> str | None:
        """A workspace file's text, or None (missing, outside, not UTF-8)."""
        try:
            return read_text(inside_workspace(self.ws, rel))
        except (OSError, UnicodeDecodeError, UnsafeEdit):
            return None

    def exists(self, rel: str) -> bool:
        try:
            return inside_workspace(self.ws, rel).exists()
        except UnsafeEdit:
            return False

    def rerun_step(self, env: dict[str, str] | None = None) -> CommandStep | None:
        """Re-running the command that produced the failure, if known."""
        if not self.command:
            return None
        timeout = float(self.setting("verify.timeout", self.ws.settings.verify_timeout))
        return CommandStep(
            argv=list(self.command),
            cwd=self.cwd,
            env={**self.env, **(env or {})},
            timeout=timeout,
        )

    def step(
        self, argv: list[str], *, cwd: str | None = None, timeout: float = 600.0
    ) -> CommandStep:
        return CommandStep(
            argv=argv, cwd=self.cwd if cwd is None else cwd, env=dict(self.env), timeout=timeout
        )

    def python(self) -> str:
        """The project's Python: its .venv when present, else the one named in the
        failing command, else `python3`."""
        for cand in (".venv/bin/python", "venv/bin/python"):
            if (self.root / cand).exists():
                return str(self.root / cand)
        if self.command and os.path.basename(self.command[0]).startswith("python"):
            return self.command[0]
        return "python3"
