"""The editor's applier (recipes/lifecycle/apply.py): a plan's edits go through
the client's `workspace/applyEdit`, then to the disk for the files the editor
left as they were (the re-run reads the disk), then what they wrote is kept
for a revert.

The attempt's lifecycle is synchronous (recipes/single_attempt.py) and runs
in a worker thread (`asyncio.to_thread`).  The applier's one request to the
client is sent on the server's loop (`asyncio.run_coroutine_threadsafe`) and
the worker waits for the answer; log messages are posted to the loop too, so
nothing but the loop talks to the client.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types as T

from . import actions
from .app import FaultLensServer, PendingPlan

if TYPE_CHECKING:
    from faultlens.recipes import Plan, TextEdit, Workspace
    from faultlens.recipes.edits import Written
    from faultlens.recipes.lifecycle.apply import ApplyResult, Fixing

_T = TypeVar("_T")
POLL = 0.5  # seconds between looks at whether the server's loop still runs, while waiting


class EditorApplier:
    """Edits through the editor's buffers (recipes' `Applier`), for the lifecycle
    running in a worker thread; `offered`: the plan made when the code action
    was offered, whose edit the client has applied already."""

    def __init__(
        self,
        ls: FaultLensServer,
        ws: Workspace,
        loop: asyncio.AbstractEventLoop,
        *,
        offered: PendingPlan | None = None,
    ) -> None:
        self.ls = ls
        self.ws = ws
        self.loop = loop
        self.offered = offered

    def lock(self) -> AbstractContextManager[object]:
        from faultlens.recipes.lifecycle.apply import unlocked

        return unlocked()  # the editor applies the edit, not this process

    def apply(self, edits: Sequence[TextEdit], fixing: Fixing) -> ApplyResult:
        from faultlens.recipes import revert
        from faultlens.recipes.lifecycle.apply import ApplyResult

        error: str | None = None
        written: list[Written] = []
        if edits:
            if self.offered is not None:  # the client applied the offered edit already
                before, raw = self.offered.before, self.offered.raw
            else:
                before = texts_of(self.ls, edits)
                raw = revert.snapshot(self.ws, [e.path for e in edits])
                error = self._through_client(edits, fixing.title)
            if error is None:
                error = sync_disk(self.ws, self.ls.root, edits, before)
            if error is None:
                written = self._remember(raw, fixing)
        self._post(
            self.ls.info, f"faultlens: {fixing.title}: edit applied={error is None}; verifying"
        )
        return ApplyResult(written, error)

    def _through_client(self, edits: Sequence[TextEdit], title: str) -> str | None:
        """workspace/applyEdit (a client that cannot edit: the files written here)."""
        from faultlens.recipes.lifecycle.apply import NOT_APPLIED

        if not self.ls.supports("workspace.apply_edit"):
            from faultlens.recipes import apply_edits

            try:
                apply_edits(edits, self.ws)
            except Exception as exc:
                return str(exc)
            return None
        try:
            result = self._on_loop(self._request(edits, title))
        except Exception as exc:
            return f"the editor did not answer workspace/applyEdit: {exc}"
        return None if result.applied else (result.failure_reason or NOT_APPLIED)

    async def _request(self, edits: Sequence[TextEdit], title: str) -> T.ApplyWorkspaceEditResult:
        edit = actions.workspace_edit(edits, self.ls.root, self.ls.text_of)
        return await self.ls.workspace_apply_edit_async(
            T.ApplyWorkspaceEditParams(edit=edit, label=f"faultlens: {title}")
        )

    def _remember(self, raw: dict[str, bytes | None], fixing: Fixing) -> list[Written]:
        """Keep what the editor's edit wrote, so the fix can be reverted exactly."""
        from faultlens.recipes import Ledger, revert
        from faultlens.recipes.lifecycle.apply import keep_for_revert

        try:
            written = revert.written_since(self.ws, raw)
            keep_for_revert(Ledger.open(self.ws), written, fixing)
        except Exception as exc:  # the fix stands; it just cannot be reverted
            self._post(self.ls.crashed, "keeping the fix for a revert", exc)
            return []
        return written

    def _on_loop(self, coro: Coroutine[Any, Any, _T]) -> _T:
        """Run `coro` on the server's loop and wait for it (from a worker thread)."""
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            coro.close()
            raise RuntimeError("the editor applier runs in a worker thread, not on the loop")
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        while True:
            try:
                return future.result(timeout=POLL)
            except concurrent.futures.TimeoutError:
                if self.loop.is_closed() or not self.loop.is_running():
                    future.cancel()
                    raise RuntimeError("the server stopped") from None

    def _post(self, fn: Any, *args: Any) -> None:
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn, *args)


def offered_plan(ls: FaultLensServer, plan: Plan) -> PendingPlan:
    """A plan offered as a code action, with the files as they are before its
    edit (text to compare, bytes to revert to)."""
    from faultlens.recipes import revert

    raw = revert.snapshot(ls.recipe_workspace(), [e.path for e in plan.edits])
    return PendingPlan(plan=plan, before=texts_of(ls, plan.edits), raw=raw)


def texts_of(ls: FaultLensServer, edits: Sequence[TextEdit]) -> dict[Path, str | None]:
    return {ls.root / e.path: _read(ls.root / e.path) for e in edits}


def sync_disk(
    ws: Workspace, root: Path, edits: Sequence[TextEdit], before: dict[Path, str | None]
) -> str | None:
    """Make sure the files on disk carry the edit before verifying.

    An editor applies a workspace edit to its buffers; verification re-runs the
    build, which reads the disk.  When a file still holds its old text the same
    edits are written (atomically, all or none; `before`: each file's text
    before the edit, by its path under `root`).  Returns a problem, or None.
    """
    from faultlens.recipes import apply_edits

    stale = [p for p, text in before.items() if text is not None and _read(p) == text]
    if not stale:
        return None
    try:
        apply_edits([e for e in edits if (root / e.path) in stale], ws)
    except Exception as exc:
        return f"could not write the edit to disk: {exc}"
    return None


def _read(path: Path) -> str | None:
    """A file a plan edits, as it is now (None: missing, special, too large or not UTF-8)."""
    from faultlens.classifier.files import read_text

    try:
        return read_text(path)
    except (OSError, ValueError):
        return None
