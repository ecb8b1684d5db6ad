"""Running a triage check (recipes/triage_check.py made the worktree): the
failing tests re-run there the way the test attempt builds them (one command
per runner), or the original command once, classified; what each failure did
there — fails, passes, absent (its test is not in that tree) or inconclusive.

Every process a check starts carries a random token in its environment
(TOKEN_VAR), journalled before the first one starts (kind "triage.procs"): a
start after a kill -9 stops whatever still runs with it, then removes the
worktree (`recover_processes`, registered in recipes/crash_restore.py).
"""

from __future__ import annotations

import os
import posixpath
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .triage import Check
from .triage_check import (
    TOKEN_VAR,
    Checkout,
    LocalChanges,
    check_env,
    map_command,
    prepared_tree,
)

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from . import journal
    from .model import Workspace

KIND = "triage.procs"


# -- running a check ------------------------------------------------------------------------
def check_in(
    ws: Workspace,
    co: Checkout,
    records: Sequence[FailureRecord],
    command: Sequence[str],
    timeout: float,
    commit: str,
    merge: str | None,
    changes: LocalChanges | None,
) -> dict[str, Check]:
    """Each failure's result in a worktree of `commit` (with `merge` merged in
    and `changes` applied): inconclusive for all when the tree cannot be made so."""
    with prepared_tree(ws, co, commit=commit, merge=merge, changes=changes) as (tree, bad):
        if bad:
            return {r.id: Check("inconclusive", bad) for r in records}
        return run_check(ws, co, tree, records, command, timeout)


def run_check(
    ws: Workspace,
    co: Checkout,
    tree: Path,
    records: Sequence[FailureRecord],
    command: Sequence[str],
    timeout: float,
) -> dict[str, Check]:
    """Run the failures' tests (or the original command) in `tree`; what each
    failure did there.  The processes are journalled first, so a start after
    a kill stops them."""
    from . import journal
    from .model import Workspace as WorkspaceType

    token = secrets.token_hex(16)
    entry = journal.begin(ws, KIND, {"token": token, "repo": str(co.top), "path": str(tree)})
    try:
        check_ws = WorkspaceType(roots=[tree], settings=ws.settings)
        env = check_env(co, tree, token)
        argv = map_command(command, co, tree)
        return _judge_all(check_ws, co, tree, records, argv, env, timeout)
    finally:
        journal.end(ws, entry)


def _judge_all(
    check_ws: Workspace,
    co: Checkout,
    tree: Path,
    records: Sequence[FailureRecord],
    argv: list[str],
    env: dict[str, str],
    timeout: float,
) -> dict[str, Check]:
    from .test_batch import plan_reruns, run_reruns

    tests = [r for r in records if r.failure_type.value == "test"]
    out: dict[str, Check] = {}
    selections, per_record, _refused = (
        plan_reruns(tests, check_ws, argv, co.cwd) if tests else ([], {}, {})
    )
    if selections:
        runs = run_reruns(selections, check_ws, co.cwd, env, timeout, None)
        by_test: dict[str, tuple[str, str]] = {}
        for _sel, judged in runs:
            for tid, res in judged.results.items():
                by_test[tid] = (res, judged.summary)
        for rec in tests:
            got = [by_test.get(t.test_id) for t in per_record.get(rec.id, [])]
            if not got:
                continue
            states = [g[0] if g else "not_run" for g in got]
            summary = next((g[1] for g in got if g), "")
            if any(s == "failed" for s in states):
                out[rec.id] = Check("fails", summary)
            elif all(s == "passed" for s in states):
                out[rec.id] = Check("passes", summary)
            elif _test_absent(rec, tree / co.cwd):
                out[rec.id] = Check("absent", "the test is not there")
            else:
                out[rec.id] = Check("inconclusive", f"the re-run did not run it ({summary})")
    rest = [r for r in records if r.id not in out]
    if rest:
        out.update(_original(check_ws, co, tree, rest, argv, env, timeout))
    return out


def _original(
    check_ws: Workspace,
    co: Checkout,
    tree: Path,
    records: Sequence[FailureRecord],
    argv: list[str],
    env: dict[str, str],
    timeout: float,
) -> dict[str, Check]:
    """The original command run once in the worktree, classified."""
    from .model import CommandStep
    from .observe import recogniser
    from .rerun_proof import base_id, record_tests
    from .runner import run_step

    cwd = tree / co.cwd
    classifier = recogniser(cwd, task=None, command=argv)
    step = CommandStep(argv=list(argv), cwd=co.cwd, env=dict(env), timeout=timeout)
    try:
        res = run_step(step, check_ws, on_data=classifier.feed)
    except Exception as exc:  # the folder vanished, a refused path
        return {r.id: Check("inconclusive", f"could not run: {exc}") for r in records}
    classifier.options.exit_code = res.exit_code
    found = classifier.close()
    if res.error:
        return {r.id: Check("inconclusive", f"could not start: {res.error}") for r in records}
    if res.timed_out:
        return {r.id: Check("inconclusive", f"timed out after {timeout:g} s") for r in records}
    ids = {base_id(r.id) for r in found}
    named = record_tests(found)
    out: dict[str, Check] = {}
    for rec in records:
        mine = record_tests([rec])
        if base_id(rec.id) in ids or (mine and mine & named):
            out[rec.id] = Check("fails", f"exit {res.exit_code}")
        elif res.exit_code == 0:
            out[rec.id] = Check("passes", "exit 0")
        elif rec.failure_type.value == "test" and _test_absent(rec, cwd):
            out[rec.id] = Check("absent", "the test is not there")
        else:
            other = found[0].signal[:120] if found else f"exit {res.exit_code}"
            out[rec.id] = Check("inconclusive", f"it fails otherwise: {other}")
    return out


def _test_absent(rec: FailureRecord, cwd: Path) -> bool:
    """The record's test is not in this tree: its file is missing, or the
    file does not name the test."""
    file = rec.hint.get("test_file") or (rec.source_file if rec.hint.get("runner") else None)
    if not isinstance(file, str) or not file or os.path.isabs(file):
        return False
    rel = posixpath.normpath(file)
    if rel.startswith(".."):
        return False
    path = cwd / rel
    if not path.exists():
        return True
    leaf = _leaf(rec)
    if not leaf:
        return False
    try:
        with open(path, "rb") as f:
            text = f.read(8 << 20).decode("utf-8", "replace")
    except OSError:
        return False
    return leaf not in text


def _leaf(rec: FailureRecord) -> str:
    """The test's own name as its source spells it (function or title)."""
    path = rec.hint.get("test_path")
    if isinstance(path, list) and path and isinstance(path[-1], str):
        return path[-1]
    name = rec.hint.get("test_name")
    if isinstance(name, str) and name:
        return name
    tid = rec.hint.get("test_id")
    if not isinstance(tid, str):
        return ""
    leaf = tid.split("::")[-1] if "::" in tid else tid.rsplit(".", 1)[-1]
    return leaf.split("[", 1)[0].split("/", 1)[0]


# -- after a kill ---------------------------------------------------------------------------------
def stop_processes(token: str) -> int:
    """Kill what a check left running; how many processes."""
    from .proctree import stop_tagged

    return stop_tagged(TOKEN_VAR, token)


def recover_processes(
    ws: Workspace, entry: journal.JournalEntry, *, stale: bool
) -> journal.Recovered:
    """The start-up handler of kind "triage.procs": stop the processes a killed
    check left, then remove its worktree (if the worktree's own journal entry
    has not already)."""
    from . import journal, scratch

    token = entry.data.get("token")
    stopped = stop_processes(token) if isinstance(token, str) else 0
    removed = scratch.recover_worktree(ws, entry, stale=stale)
    what = f"stopped {stopped} process(es) of an interrupted triage check" if stopped else ""
    summary = "; ".join(x for x in (what, removed.summary) if x)
    return journal.Recovered(summary, fields={"stopped": stopped, **removed.fields})
