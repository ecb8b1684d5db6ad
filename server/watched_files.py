"""Watched and opened log files: the watch globs registered with the client
(or polled), a changed or opened log classified, failures cleared from
deleted files and moved with the user's edits."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types as T

from . import convert, watch
from .classifying import Classified, ClassifyingServer
from .store import TaskInfo


class WatchingServer(ClassifyingServer):
    """The server's watched log files and opened log documents."""

    # -- watched files --------------------------------------------------------------
    async def setup_watching(self) -> None:
        """Register the watch globs with the client, or poll them ourselves."""
        async with self.watch_lock:
            wanted = (tuple(self.settings.watch_globs), self.settings.watch_poll_interval)
            if wanted == self.watching:
                return
            await self._setup_watching()
            self.watching = wanted

    async def _setup_watching(self) -> None:
        globs = list(self.settings.watch_globs)
        if self.supports("workspace.did_change_watched_files.dynamic_registration"):
            if self.watch_registration is not None:
                await self.client_unregister_capability_async(
                    T.UnregistrationParams(
                        unregisterations=[
                            T.Unregistration(
                                id=self.watch_registration,
                                method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            )
                        ]
                    )
                )
                self.watch_registration = None
            if not globs:
                return
            reg_id = f"faultlens-watch-{uuid.uuid4()}"
            relative = self.supports("workspace.did_change_watched_files.relative_pattern_support")
            root_uri = convert.path_to_uri(self.root)
            watchers = [
                T.FileSystemWatcher(
                    glob_pattern=T.RelativePattern(base_uri=root_uri, pattern=g) if relative else p,
                    kind=T.WatchKind.Create | T.WatchKind.Change | T.WatchKind.Delete,
                )
                for g, p in zip(globs, watch.watcher_patterns(globs), strict=True)
            ]
            # every deletion (a failure shown in a deleted file is cleared)
            watchers.append(
                T.FileSystemWatcher(
                    glob_pattern=T.RelativePattern(base_uri=root_uri, pattern="**/*")
                    if relative
                    else "**/*",
                    kind=T.WatchKind.Delete,
                )
            )
            await self.client_register_capability_async(
                T.RegistrationParams(
                    registrations=[
                        T.Registration(
                            id=reg_id,
                            method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=T.DidChangeWatchedFilesRegistrationOptions(
                                watchers=watchers
                            ),
                        )
                    ]
                )
            )
            self.watch_registration = reg_id
            self.info(f"faultlens: watching {', '.join(globs)} (client-side)")
            return
        if self.poll_task is not None:
            self.poll_task.cancel()
            self.poll_task = None
        if globs and self.settings.watch_poll_interval > 0:
            self.poll_task = self.spawn(self.poll(), "polling log files")
            self.info(f"faultlens: watching {', '.join(globs)} (polling)")

    async def poll(self) -> None:
        """Classify matching files that appear or change (clients that cannot watch)."""
        globs = list(self.settings.watch_globs)
        seen = await asyncio.to_thread(watch.scan, self.root, globs)
        for path in seen:
            await self.log_file_changed(path)
        while True:
            await asyncio.sleep(self.settings.watch_poll_interval)
            now = await asyncio.to_thread(watch.scan, self.root, globs)
            changed, deleted = watch.diff(seen, now)
            seen = now
            for path in changed:
                await self.log_file_changed(path)
            for path in deleted:
                self.log_file_deleted(path)
            self.files_gone([p for p in self.store.paths() if not p.exists()])

    def log_task(self, path: Path) -> tuple[str, str]:
        rel = watch.relative(path, self.root) or str(path)
        return f"log:{rel}", rel

    async def log_file_changed(self, path: Path) -> None:
        """Classify a watched file (paths in it resolve from the workspace root)."""
        store_task, rel = self.log_task(path)
        opts = self.options(cwd=self.root, task=None, command=None, exit_code=None, log_file=rel)

        def work() -> Classified:
            from faultlens.classifier.files import open_stream

            with open_stream(path) as fh:  # a FIFO or device named like a log: refused
                return self.classify_stream(fh, opts)

        try:
            result = await asyncio.to_thread(work)
        except OSError as exc:
            self.warn(f"faultlens: cannot read {rel}: {exc.strerror or exc}")
            return
        await self.take(store_task, result, self.root, TaskInfo(log_path=path))

    def files_gone(self, paths: Sequence[Path]) -> None:
        """Files (or folders) deleted or renamed: the failures shown in them are
        cleared (a rename's new name gets failures again from the next run)."""
        if not paths:
            return
        touched = self.store.remove_paths(paths)
        if touched:
            self.publish(touched)
            self.info(f"faultlens: cleared {len(touched)} file(s) that were deleted or renamed")

    def follow_edits(self, path: Path, changes: Sequence[Any]) -> bool:
        """Move the failures shown in `path` with the user's edits (until the
        next run replaces them); whether any moved."""
        from .tracking import moved

        entries = [
            e for e in self.store.for_path(path) if e.placement and e.placement.kind != "log"
        ]
        ranged = [c for c in changes if getattr(c, "range", None) is not None]
        if not entries or not ranged:
            return False
        changed = False
        for e in entries:
            assert e.placement is not None
            before = e.placement
            for c in ranged:
                start = (c.range.start.line, c.range.start.character)
                end = (c.range.end.line, c.range.end.character)
                e.placement = moved(e.placement, start, end, c.text)
            changed = changed or e.placement != before
        return changed

    def log_file_deleted(self, path: Path) -> None:
        store_task, _ = self.log_task(path)
        self.publish(self.store.remove_task(store_task))

    async def classify_document(self, uri: str) -> None:
        """An opened log file: classify its text (paths resolve from the root)."""
        path = convert.uri_to_path(uri)
        doc = self.workspace.text_documents.get(uri)
        if path is None or doc is None:
            return
        store_task, rel = self.log_task(path)
        opts = self.options(cwd=self.root, task=None, command=None, exit_code=None, log_file=rel)
        data = doc.source.encode("utf-8", "surrogatepass")

        def work() -> Classified:
            import io

            return self.classify_stream(io.BytesIO(data), opts)

        result = await asyncio.to_thread(work)
        await self.take(store_task, result, self.root, TaskInfo(log_path=path))


def is_log_document(uri: str, root: Path, state_dir: Path | None = None) -> bool:
    """An opened document classified as output: a *.log file inside the workspace,
    except faultlens' own (saved run output, the seed's session logs)."""
    path = convert.uri_to_path(uri)
    if path is None or path.suffix.lower() != ".log":
        return False
    if state_dir is not None:
        for own in ("runs", "logs"):
            if watch.relative(path, state_dir / own) is not None:
                return False
    return watch.relative(path, root) is not None
