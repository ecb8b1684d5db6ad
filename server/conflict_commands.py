"""Conflict resolution for the server: the edit that takes one side (or
both) of a merge-conflict hunk, offered as a code action and applied by the
`faultlens.acceptConflict` command."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as T

from . import actions, convert
from . import protocol as P
from .app import FaultLensServer


async def accept_conflict(ls: FaultLensServer, a: P.ConflictArgs) -> dict[str, Any]:
    """Apply the resolution of the hunk at `a.line` through the client."""
    edit = conflict_edit(ls, a.uri, a.line, a.choice)
    if edit is None:
        raise P.invalid(f"no conflict hunk at line {a.line + 1} of {a.uri}")
    result = await ls.workspace_apply_edit_async(
        T.ApplyWorkspaceEditParams(edit=edit, label=f"faultlens: accept {a.choice}")
    )
    ls.info(f"faultlens: accept {a.choice} at {a.uri}:{a.line + 1}: applied={result.applied}")
    return {"applied": result.applied}


def resolve_conflict_action(
    ls: FaultLensServer, action: T.CodeAction, data: P.ConflictActionData
) -> T.CodeAction:
    """codeAction/resolve of a conflict action: the edit, computed now."""
    edit = conflict_edit(ls, data.uri, data.line, data.choice)
    if edit is None:
        raise P.invalid("the conflict hunk is gone")
    action.edit = edit
    return action


def conflict_edit(ls: FaultLensServer, uri: str, line: int, choice: str) -> T.WorkspaceEdit | None:
    """The edit that resolves the conflict hunk starting at/around `line`."""
    from faultlens.recipes import conflict_hunks, resolve_hunk

    path = convert.uri_to_path(uri)
    if path is None or choice not in ("current", "incoming", "both"):
        return None
    lines, _, _ = ls.text_of(path)
    hunks = conflict_hunks(str(path), "".join(lines))
    for h in hunks:
        if h.start_line <= line <= h.end_line:
            te = resolve_hunk(h, choice)  # type: ignore[arg-type]
            rel = (
                path.relative_to(ls.root).as_posix() if path.is_relative_to(ls.root) else str(path)
            )
            te.path = rel
            return actions.workspace_edit([te], ls.root, ls.text_of)
    return None
