"""The attempt ledger: one automatic attempt per failure per task, retry limits,
restarts, and several processes writing at once without lost updates."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3

import pytest

from faultlens.classifier import classify_text
from faultlens.recipes import Ledger, Outcome, Workspace, retry_task

TSC = "src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n"


def _record(task: str | None = "TASK-1"):
    (rec,) = classify_text(TSC)
    rec.task = task
    return rec


def _outcome(rec, result="escalated", box="BOX"):
    return Outcome(record=rec, result=result, tried="tried it", reason="it failed", box=box)


def test_the_ledger_is_sqlite_in_wal_mode_under_the_state_dir(tmp_path):
    ws = Workspace.at(tmp_path)
    Ledger.open(ws)
    path = tmp_path / ".faultlens" / "ledger.sqlite3"
    assert path.exists()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_failure_gets_one_automatic_attempt_per_task(tmp_path):
    ledger = Ledger.open(Workspace.at(tmp_path))
    first = ledger.claim("abc", "TASK-1", "compile")
    assert first is not None
    assert ledger.claim("abc", "TASK-1", "compile") is None
    assert ledger.claim("abc", "TASK-2", "compile") is not None  # another task
    assert ledger.claim("abc", "TASK-1", "compile", automatic=False) is not None  # by hand
    assert ledger.attempts("abc", "TASK-1") == 2
    assert ledger.attempts("abc") == 3


def test_record_attempt_refuses_a_second_automatic_attempt(tmp_path):
    ledger = Ledger.open(Workspace.at(tmp_path))
    rec = _record()
    assert ledger.record_attempt(_outcome(rec)) is True
    assert ledger.record_attempt(_outcome(rec)) is False
    assert ledger.attempts(rec.id, rec.task) == 1


def test_the_ledger_survives_a_restart(tmp_path):
    ws = Workspace.at(tmp_path)
    rec = _record()
    Ledger.open(ws).record_attempt(_outcome(rec, box="THE BOX"))
    again = Ledger.open(Workspace.at(tmp_path))  # a new process would do exactly this
    assert again.attempts(rec.id, rec.task) == 1
    last = again.last_outcome(rec.id)
    assert last is not None
    assert last["result"] == "escalated"
    assert last["box"] == "THE BOX"
    assert last["record"]["id"] == rec.id
    assert again.claim(rec.id, rec.task, "compile") is None


def test_state_dir_is_configurable(tmp_path):
    ws = Workspace(roots=[tmp_path / "proj"], state_dir=tmp_path / "elsewhere")
    (tmp_path / "proj").mkdir()
    Ledger.open(ws).claim("x", None, "compile")
    assert (tmp_path / "elsewhere" / "ledger.sqlite3").exists()
    assert not (tmp_path / "proj" / ".faultlens").exists()


def test_a_task_is_retried_at_most_twice(tmp_path):
    ws = Workspace.at(tmp_path)
    first, second, third = (retry_task("TASK-7", ws) for _ in range(3))
    assert (first.accepted, first.retries_used) == (True, 1)
    assert (second.accepted, second.retries_used) == (True, 2)
    assert third.accepted is False
    assert third.retries_used == 2
    assert "2 of 2 retries used" in third.message
    assert Ledger.open(ws).task_retries("TASK-7") == 2


def test_runs_and_their_records_are_kept_and_found_by_id_prefix(tmp_path):
    ledger = Ledger.open(Workspace.at(tmp_path))
    rec = _record()
    run_id = ledger.start_run("TASK-1", ["tsc", "-p", "."], ".")
    ledger.finish_run(run_id, 2, [rec])
    found = ledger.find_record(rec.id[:6])
    assert found is not None
    data, run = found
    assert data["id"] == rec.id
    assert run.argv == ["tsc", "-p", "."]
    assert run.exit_code == 2
    assert ledger.find_record("zz_%") is None  # LIKE wildcards are escaped


def test_status_lists_tasks_attempts_and_escalations(tmp_path):
    ledger = Ledger.open(Workspace.at(tmp_path))
    rec = _record()
    ledger.record_attempt(_outcome(rec))
    status = ledger.status()
    (task,) = status["tasks"]
    assert task["task"] == "TASK-1"
    assert task["status"] == "failed"
    assert task["attempts"] == {"escalated": 1}
    (esc,) = status["escalations"]
    assert esc["failure_id"] == rec.id
    assert esc["box"] == "BOX"


def _writer(state_dir: str, worker: int, n: int, shared: int) -> None:
    ledger = Ledger(__import__("pathlib").Path(state_dir) / "ledger.sqlite3")
    for i in range(n):
        ledger.claim(f"w{worker}-{i}", "TASK-1", "compile")
        # Both workers race for the same shared failures: only one may win each.
        if i < shared:
            ledger.claim(f"shared-{i}", "TASK-1", "compile")
        ledger.note_retry(f"T-{worker}-{i % 3}", 1000)


@pytest.mark.slow  # several processes: the full suite's, not the inner loop's
def test_two_processes_recording_at_once_lose_nothing(tmp_path):
    ws = Workspace.at(tmp_path)
    Ledger.open(ws)
    n, shared = 150, 60
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(ws.state), w, n, shared)) for w in (1, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    db = sqlite3.connect(ws.state / "ledger.sqlite3")
    per_worker = db.execute(
        "SELECT substr(failure_id, 1, 2), COUNT(*) FROM attempts WHERE failure_id LIKE 'w%' GROUP BY 1"
    ).fetchall()
    assert dict(per_worker) == {"w1": n, "w2": n}
    (shared_rows,) = db.execute(
        "SELECT COUNT(*) FROM attempts WHERE failure_id LIKE 'shared-%'"
    ).fetchone()
    assert shared_rows == shared  # each shared failure claimed exactly once
    retries = dict(db.execute("SELECT task, retries FROM tasks WHERE task LIKE 'T-%'").fetchall())
    assert sum(retries.values()) == 2 * n  # every increment kept


def test_reads_see_a_ledger_removed_and_made_again_at_the_same_path(tmp_path):
    """Read connections are kept per thread; a new file at the same path must
    not be read through the old one."""
    import shutil

    from faultlens.recipes import Ledger, Workspace
    from faultlens.recipes import ledger as ledger_module

    ws = Workspace.at(tmp_path)
    first = Ledger.open(ws)
    first.finish_run(first.start_run("T-1", ["true"], "."), 0, [])
    assert first.last_run("T-1") is not None  # read through the kept connection
    shutil.rmtree(ws.state)
    ledger_module._READY.discard(ws.state / "ledger.sqlite3")
    again = Ledger.open(ws)
    assert again.last_run("T-1") is None


# -- schema 2: generations and one attempt per failure type per run -------------------
# What schema 1 had that schema 2 changed (the rest of the file is as it was).
_BACK_TO_V1 = """
DROP INDEX run_records_by_failure;
DROP INDEX runs_by_tree;
ALTER TABLE runs DROP COLUMN head;
ALTER TABLE runs DROP COLUMN tree;
ALTER TABLE run_records DROP COLUMN ended;
ALTER TABLE run_records DROP COLUMN triage;
DROP TABLE applied_edits;
DROP INDEX attempts_one_automatic_v2;
DROP TABLE type_attempts;
ALTER TABLE attempts DROP COLUMN run_id;
ALTER TABLE attempts DROP COLUMN generation;
CREATE UNIQUE INDEX attempts_one_automatic ON attempts (failure_id, task) WHERE automatic = 1;
UPDATE meta SET value = '1' WHERE key = 'schema';
INSERT INTO attempts(failure_id, task, failure_type, state, pid, created)
    VALUES ('old', 'TASK-1', 'compile', 'escalated', 1, 0);
"""


def test_a_schema_1_ledger_is_migrated_and_keeps_its_attempts(tmp_path):
    from faultlens.recipes import ledger as ledger_module

    ws = Workspace.at(tmp_path)
    Ledger.open(ws)  # made (and owned) by this machine, then taken back to schema 1
    db = sqlite3.connect(ws.state / "ledger.sqlite3")
    db.executescript(_BACK_TO_V1)
    db.close()
    ledger_module._READY.discard(ws.state / "ledger.sqlite3")
    ledger = Ledger.open(ws)
    db = sqlite3.connect(ws.state / "ledger.sqlite3")
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == str(
        ledger_module.SCHEMA_VERSION
    )
    assert ledger.automatic_attempt("old", "TASK-1") is not None  # still counts
    assert ledger.claim("old", "TASK-1", "compile") is None
    assert ledger.claim_type("TASK-1", 1, "compile", ["old"]) is not None


def test_a_retried_task_gets_one_fresh_attempt_per_failure(tmp_path):
    from faultlens.recipes import ledger as ledger_module

    ws = Workspace.at(tmp_path)
    ledger = Ledger.open(ws)
    assert ledger.claim("abc", "TASK-1", "compile") is not None
    assert ledger.claim("abc", "TASK-1", "compile") is None
    assert ledger.note_retry("TASK-1", 2) == (True, 1)
    ledger_module._READY.discard(ws.state / "ledger.sqlite3")
    ledger = Ledger.open(ws)  # opened again, as by another process
    assert ledger.automatic_attempt("abc", "TASK-1") is None  # a fresh generation
    assert ledger.claim("abc", "TASK-1", "compile") is not None
    assert ledger.claim("abc", "TASK-1", "compile") is None


def test_a_failure_type_gets_one_attempt_per_task_per_run(tmp_path):
    ledger = Ledger.open(Workspace.at(tmp_path))
    first = ledger.claim_type("TASK-1", 7, "compile", ["a", "b"])
    assert first is not None
    assert ledger.claim_type("TASK-1", 7, "compile", ["c"]) is None  # the same run
    assert ledger.claim_type("TASK-1", 7, "test", ["d"]) is not None  # another type
    assert ledger.claim_type("TASK-2", 7, "compile", ["a"]) is not None  # another task
    ledger.finish_type(first, "recovered", "2 imports", "gone", changed=True)
    (row, _) = ledger.type_attempts("TASK-1", 7)
    assert (row.state, row.failure_ids, row.changed) == ("recovered", ["a", "b"], True)


def _type_claimer(state: str, run_id: int, out: mp.Queue) -> None:  # type: ignore[type-arg]
    ws = Workspace.at(state.rsplit("/.faultlens", 1)[0])
    out.put(Ledger.open(ws).claim_type("TASK-1", run_id, "compile", ["x"]))


@pytest.mark.slow  # several processes: the full suite's, not the inner loop's
def test_two_processes_claiming_one_type_attempt_get_it_once(tmp_path):
    ws = Workspace.at(tmp_path)
    Ledger.open(ws)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_type_claimer, args=(str(ws.state), 3, out)) for _ in range(4)]
    for p in procs:
        p.start()
    got = [out.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(60)
    assert sum(1 for g in got if g is not None) == 1


def test_a_state_dir_faultlens_creates_gets_a_gitignore_holding_a_star(tmp_path):
    ws = Workspace.at(tmp_path)
    Ledger.open(ws)
    assert (ws.state / ".gitignore").read_text().splitlines()[-1] == "*"
    mine = tmp_path / "own"
    mine.mkdir()  # made by its owner: left as it is
    Ledger.open(Workspace(roots=[tmp_path], state_dir=mine))
    assert not (mine / ".gitignore").exists()


def test_the_gitignore_keeps_the_state_out_of_git(tmp_path):
    import shutil
    import subprocess

    if shutil.which("git") is None:
        return
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    Ledger.open(Workspace.at(tmp_path))
    out = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout == ""


@pytest.mark.slow  # several processes: the full suite's, not the inner loop's
def test_wal_mode_is_set_while_another_process_reads_a_new_ledger(tmp_path):
    """Two runs starting together on a new ledger: SQLite refuses the switch
    to WAL at once (no busy wait) while the other holds a read lock; one run
    went on without a ledger, so without recipes.  The switch now waits."""
    import threading

    from faultlens.recipes.ledger_db import use_wal

    path = tmp_path / "l.sqlite3"
    reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    reader.execute("CREATE TABLE t (x)")
    reader.execute("BEGIN")
    reader.execute("SELECT * FROM t").fetchall()  # a shared lock, held
    db = sqlite3.connect(path, timeout=5, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="locked"):  # at once, no busy wait
        db.execute("PRAGMA journal_mode=WAL")
    threading.Timer(0.3, lambda: reader.execute("COMMIT")).start()
    use_wal(db)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
