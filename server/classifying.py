"""Classifying output for the server: a stream classified in a worker
thread, its failures placed and published in place of the task's last ones,
the run recorded in the ledger, the automatic recipe attempts, and the run
logs kept (redacted) under the state folder."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lsprotocol import types as T

from . import placement, watch
from .publishing import DiagnosticsPublisher
from .store import Entry, TaskInfo

if TYPE_CHECKING:
    from faultlens.classifier.engine import Options
    from faultlens.classifier.record import FailureRecord
    from faultlens.classifier.structured import Recogniser
    from faultlens.recipes.confirm import Decided


@dataclass(slots=True)
class Classified:
    """What one classification produced."""

    records: list[FailureRecord]
    rule_errors: list[tuple[str, str]] = field(default_factory=list)
    secrets: set[str] = field(default_factory=set)  # named by scanners (the run log masks them)
    config_errors: list[str] = field(default_factory=list)  # the project config's, one line each


class ClassifyingServer(DiagnosticsPublisher):
    """The server's classification of runs and captured output."""

    # -- classification ---------------------------------------------------------------
    def options(
        self,
        *,
        cwd: Path,
        task: str | None,
        command: Any,
        exit_code: int | None,
        log_file: str | None,
    ) -> Options:
        from faultlens.classifier.engine import Options

        return Options(
            cwd=str(cwd), task=task, command=command, exit_code=exit_code, log_file=log_file
        )

    @staticmethod
    def classify_stream(stream: IO[bytes], options: Options) -> Classified:
        """Classify a whole stream (structured or text).  Blocking."""
        from faultlens.classifier.structured import Recogniser

        c = Recogniser(options)
        while data := stream.read(1 << 20):
            c.feed(data)
        return Classified(c.close(), list(c.rule_errors), c.secrets, list(c.config_errors))

    @staticmethod
    def finish(c: Recogniser) -> Classified:
        return Classified(c.close(), list(c.rule_errors), c.secrets, list(c.config_errors))

    def place_all(self, records: Sequence[FailureRecord], cwd: Path) -> list[Entry]:
        """Decide where each record is shown.  Blocking (reads config files)."""
        root = self.root
        out = []
        for r in records:
            try:
                where = placement.place(r, cwd, root)
            except Exception as exc:
                self.crashed(f"placing {r.id}", exc)
                where = None
            out.append(Entry(record=r, task="", cwd=cwd, placement=where))
        return out

    async def take(
        self,
        store_task: str,
        result: Classified,
        cwd: Path,
        info: TaskInfo,
        *,
        write_log: Callable[[], None] | None = None,
        partial: bool = False,
        source: str | None = None,
    ) -> list[Entry]:
        """Replace a task's failures with a new classification and publish.

        `source` (the command and folder, or the log, that produced them):
        only the task's failures from that same source are replaced.
        `partial`: the run did not finish (stopped, cancelled, timed out), so
        what it found is added and nothing it did not re-check is cleared.
        `write_log` saves the run's output (redacted) after publishing, so the
        diagnostics do not wait for it; a failure shown on its output line is
        placed without reading the log (convert.whole_line)."""
        for rule_id, error in result.rule_errors:
            self.window_log_message(
                T.LogMessageParams(
                    type=T.MessageType.Warning, message=f"faultlens: rule {rule_id} failed: {error}"
                )
            )
        for problem in result.config_errors:  # a bad project rule: said once, the rest classify
            if problem not in self._config_said:
                self._config_said.add(problem)
                self.warn(f"faultlens: {problem}", show=True)
        entries = await asyncio.to_thread(self.place_all, result.records, cwd)
        for e in entries:
            e.task = store_task
            e.source = source or ""
        if partial:
            touched = self.store.merge(store_task, entries, info)
        else:
            touched = self.store.replace(store_task, entries, info, source=source)
        self.publish(touched)
        if write_log is not None:
            self.spawn(asyncio.to_thread(write_log), "saving the run log")
        self.spawn(self._record(info, result.records), "ledger and event log")
        files = {e.placement.path for e in entries if e.placement}
        self.info(f"faultlens: {store_task}: {len(entries)} failure(s) in {len(files)} file(s)")
        fixable = [e.record.id for e in entries if e.record.auto_recoverable is True]
        if self.settings.auto_recover and fixable:
            self.spawn(self.auto_recover(fixable), "auto-recover")
        return entries

    async def auto_recover(self, failure_ids: Sequence[str]) -> None:
        """The one automatic attempt for each fixable failure, one after the other
        (two fixes never edit the same file at once), through the recipe command
        that server/commands.py registered (`self.recover_one`)."""
        recover = self.recover_one
        if recover is None:
            return
        for fid in failure_ids:
            if self.store.get(fid) is None:
                continue  # gone meanwhile (a re-run, a previous fix)
            try:
                await recover(fid)
            except Exception as exc:
                self.crashed(f"automatic recipe for {fid}", exc)

    async def _record(self, info: TaskInfo, records: Sequence[FailureRecord]) -> None:
        for d in await asyncio.to_thread(self.record_run, info, records):
            self.info(f"faultlens: {d.state} {d.failure_id} (the fix applied earlier): {d.reason}")

    def record_run(self, info: TaskInfo, records: Sequence[FailureRecord]) -> list[Decided]:
        """The run in the shared ledger (CLI `status` sees it) and `failure.classified`
        events; the fixes applied earlier that nothing verified, decided by this run
        or ingest (recipes/confirm.py).  Blocking."""
        from faultlens.recipes import Ledger
        from faultlens.recipes.observe import RunRecorder

        ws = self.recipe_workspace()
        # One recording for every run (recipes/observe.py): its row with the
        # tree state it ended on, the events, history; a fix applied earlier
        # with nothing to verify it: this run or ingest decides.
        cwd = info.cwd if info.cwd is not None else self.root
        recorder = RunRecorder(
            ws, task=info.task, command=info.argv, cwd=cwd, ledger=Ledger.open(ws)
        )
        # Copies are stamped and stored: the store's records are placed against
        # the root (`root_relative`), where a stamped cwd would count twice.
        stored = [dataclasses.replace(r, hint=dict(r.hint)) for r in records]
        return recorder.finish(info.exit_code, stored)

    def rel_cwd(self, cwd: Path | None) -> str | None:
        """A run's cwd relative to the root (what the recipe engine wants)."""
        if cwd is None:
            return None
        rel = watch.relative(cwd, self.root)
        return None if rel is None else (rel or ".")

    def root_relative(self, entry: Entry) -> FailureRecord:
        """The record with its source file relative to the root (for recipe calls that
        take no cwd)."""
        rec = entry.record
        if not rec.source_file or entry.cwd == self.root:
            return rec
        rel = watch.relative(placement.resolve(rec.source_file, entry.cwd), self.root)
        return rec if rel is None else dataclasses.replace(rec, source_file=rel)

    def command_of(self, store_task: str) -> tuple[list[str] | None, str | None]:
        """The command (and root-relative cwd) that produced a task's failures."""
        info = self.store.tasks.get(store_task)
        if info is None:
            return None, None
        return info.argv, self.rel_cwd(info.cwd)

    def run_log(self, store_task: str) -> Path:
        """Where a run's output is kept (the log line a location-less failure
        points at): named by a hash of the store key, so two keys never share
        a log (`make a`, `make-a`) and the name shows nothing of the command.
        Its folder is made without following a symlink a checkout left."""
        from faultlens.recipes import StateUnavailable, statefs
        from faultlens.recipes.events import unwritable

        ws = self.recipe_workspace()
        try:
            return statefs.ensure_dirs(ws.state, "runs") / run_log_name(store_task)
        except (OSError, StateUnavailable) as exc:
            unwritable(ws, exc)  # and never the vetted path: it may lead out of the workspace
            scratch = self._scratch_state(f"run logs cannot be kept in {ws.state_dir}")
            return statefs.ensure_dirs(scratch, "runs") / run_log_name(store_task)

    def log_writer(
        self, path: Path, data: bytes, vault: set[str] | None = None
    ) -> Callable[[], None]:
        """A function saving `data` (redacted: the log on disk never holds a
        secret, nor one its classification's scanners named: `vault`) as the
        run log `path`.  Of two writes of the same log, only the latest
        requested lands, whichever runs first.  Blocking."""
        seq = self._log_seq[path] = self._log_seq.get(path, 0) + 1

        def write() -> None:
            from faultlens.classifier.logredact import LogRedactor
            from faultlens.recipes import StateUnavailable, statefs
            from faultlens.recipes.events import unwritable

            scrub = LogRedactor(vault or ())
            text = scrub.feed(data) + scrub.close()
            ws = self.recipe_workspace()
            with self._log_lock:
                if self._log_seq.get(path) == seq:
                    try:  # never through a symlink a checkout left under runs/
                        rel = path.relative_to(ws.state).as_posix()
                        statefs.write_state(ws.state, rel, text, durable=False)
                    except (OSError, ValueError, StateUnavailable) as exc:
                        unwritable(ws, exc)

        return write


def run_log_name(store_task: str) -> str:
    """`<16 hex digits>.log`: the first 64 bits of the key's SHA-256."""
    return hashlib.sha256(store_task.encode("utf-8", "surrogatepass")).hexdigest()[:16] + ".log"
