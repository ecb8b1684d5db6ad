"""Where a hook call belongs: the agent's project, never the payload's say-so.

A hook payload's `cwd` is what the agent reports; taken blindly as the
workspace, `"cwd": "/"` made `/.faultlens/`, and a pre-created
`/tmp/.faultlens.toml` was read as project configuration.  The workspace is
the project the user opened in the agent: `$CLAUDE_PROJECT_DIR` (Claude
Code), `$GEMINI_PROJECT_DIR` (Gemini CLI, which also sets the former), else
the folder the session started in (the hook's own working directory: the
agents run their hooks there); its git work tree when it is in one.  Outside
a git work tree, and with no project directory named, faultlens keeps no
state and reads no project configuration (`opened` is false).  The payload's
`cwd` only says where inside that workspace the command ran; a `cwd` outside
it is ignored, one that does not exist is an error (exit 1, one line).
Pure apart from reading the file system.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PROJECT_ENV = {
    "claude-code": ("CLAUDE_PROJECT_DIR",),
    "gemini": ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
    "codex": (),
}


class PlaceError(ValueError):
    """The payload names a place that cannot be used; the text is one line."""


@dataclass(slots=True, frozen=True)
class HookPlace:
    root: Path  # the workspace root
    cwd: Path  # where the call ran, inside root
    opened: bool  # a work tree the user opened: state and project config allowed


def work_tree(folder: Path) -> Path | None:
    """The git work tree containing `folder`, if any."""
    for f in (folder, *folder.parents):
        if (f / ".git").exists():
            return f
    return None


def place(
    agent: str, payload_cwd: str | None, environ: Mapping[str, str], start: Path
) -> HookPlace:
    """The workspace of one hook call (see the module doc).  PlaceError when
    the payload's cwd does not exist."""
    project: Path | None = None
    for name in PROJECT_ENV.get(agent, ()):
        value = environ.get(name)
        if value and os.path.isabs(value) and os.path.isdir(value):
            project = Path(value).resolve()
            break
    if project is not None:
        root, opened = work_tree(project) or project, True
    else:
        tree = work_tree(start.resolve())
        root, opened = (tree, True) if tree is not None else (start.resolve(), False)
    cwd = root
    if payload_cwd:
        try:
            given = Path(payload_cwd).resolve()
            exists = given.is_dir()
        except (OSError, ValueError, RuntimeError):
            exists = False
        if not exists:
            raise PlaceError(f"the payload's cwd {payload_cwd[:200]!r} is not a directory")
        if given.is_relative_to(root):
            cwd = given
    return HookPlace(root, cwd, opened)
