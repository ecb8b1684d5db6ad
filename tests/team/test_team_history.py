"""Team history on a real PostgreSQL server (a throwaway cluster per
session, a database per test): real `faultlens run`s of a real pytest suite
in several clones of one repository write their runs; any clone reads the
team's view; a stopped or slow server never changes a run's result."""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

from faultlens.recipes.team import database
from faultlens.recipes.team.facts import run_fact

from .pgcluster import Cluster
from .runs import clone as _clone
from .runs import count as _count
from .runs import faultlens as _faultlens
from .runs import pytest_run as _pytest_run

pytestmark = pytest.mark.postgres


def test_a_test_failing_on_one_clone_and_passing_on_another_is_flaky_for_a_third(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    """The issue's "done when": two clones at one commit, one failing a test
    and one passing it; a third clone that never ran anything lists it as
    flaky in `faultlens status --history --json`."""
    failing, passing, reader = (_clone(origin, n) for n in ("a", "b", "c"))
    mark = tmp_path / "cold-cache"
    mark.write_text("")
    failed = _pytest_run(failing, history_url, FLAKE_MARK=str(mark))
    assert failed.returncode == 1, failed.stdout + failed.stderr
    passed = _pytest_run(passing, history_url)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    status = _faultlens(reader, history_url, "status", "--history", "--json")
    assert status.returncode == 0, status.stderr
    team = json.loads(status.stdout)["team"]
    (seen,) = [f for f in team["failures"] if "test_the_cache_is_warm" in (f["test_id"] or "")]
    assert seen["passes_on_same_code"] is True and seen["flaky"] >= 1
    assert seen["seen"] == 1 and seen["failure_type"] == "test"
    text = _faultlens(reader, history_url, "status", "--history").stdout
    assert "passes on the same code elsewhere" in text
    # what the hover and the boxes read: the same view, for the failure's id
    from faultlens.recipes import Workspace
    from faultlens.recipes.team.sync import team_history

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAULTLENS_HISTORY_URL", history_url)
        found = team_history(Workspace.at(reader), [seen["failure_id"]])
    assert "passes on the same code elsewhere" in found[seen["failure_id"]].describe()


def test_a_failure_on_code_that_passed_on_another_runner_is_triaged_flaky_without_a_rerun(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    passing, failing = _clone(origin, "p"), _clone(origin, "f")
    assert _pytest_run(passing, history_url).returncode == 0
    mark = tmp_path / "mark"
    mark.write_text("")
    failed = _faultlens(
        failing,
        history_url,
        "run",
        "--format",
        "json",
        "--",
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        FLAKE_MARK=str(mark),
    )
    assert failed.returncode == 1
    summary = json.loads(failed.stderr.strip().splitlines()[-1])  # the summary is on stderr
    (test,) = [r for r in summary["records"] if r["failure_type"] == "test"]
    assert test["triage"]["verdict"] == "flaky"
    assert "another runner" in test["triage"]["reason"]


def test_four_clones_failing_three_times_at_once_add_exactly_twelve_occurrences(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    clones = [_clone(origin, f"w{i}") for i in range(4)]
    mark = tmp_path / "mark"
    mark.write_text("")

    def three(clone: Path) -> list[int]:
        return [_pytest_run(clone, history_url, FLAKE_MARK=str(mark)).returncode for _ in range(3)]

    with ThreadPoolExecutor(4) as pool:
        codes = [c for cs in pool.map(three, clones) for c in cs]
    assert codes == [1] * 12
    for clone in clones:  # whatever a run's end could not send, the next sync does
        _faultlens(clone, history_url, "history", "sync")
    assert _count(history_url, "SELECT count(*) FROM faultlens.runs") == 12
    assert (
        _count(
            history_url,
            "SELECT count(*) FROM faultlens.occurrences WHERE test_id LIKE '%test_the_cache_is_warm'",
        )
        == 12
    )


def test_a_run_made_while_the_server_is_stopped_keeps_its_status_and_is_sent_later(
    origin: Path, pg: Cluster, tmp_path: Path
) -> None:
    url = pg.new_database()
    clone = _clone(origin, "offline")
    mark = tmp_path / "mark"
    mark.write_text("")
    pg.stop()
    try:
        offline = _pytest_run(clone, url, FLAKE_MARK=str(mark))
    finally:
        pg.start()
    assert offline.returncode == 1  # the command's own status, the server away
    queue = clone / ".faultlens" / "history-outbox.sqlite3"
    assert queue.exists()
    again = _pytest_run(clone, url)  # the next run sends what was queued, then its own
    assert again.returncode == 0
    synced = _faultlens(clone, url, "history", "sync")
    assert "0 still queued" in synced.stdout, synced.stdout + synced.stderr
    assert _count(url, "SELECT count(*) FROM faultlens.runs") == 2
    assert _count(url, "SELECT count(*) FROM faultlens.occurrences") == 1


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP port that accepts connections and never answers (a hung server)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        yield f"postgresql://fl@127.0.0.1:{listener.getsockname()[1]}/postgres"
    finally:
        stop.set()
        t.join(5)
        for s in held:
            s.close()
        listener.close()


def test_a_server_that_never_answers_leaves_the_run_its_status_and_the_fact_queued(
    origin: Path, silent_server: str
) -> None:
    clone = _clone(origin, "slow")
    result = _pytest_run(clone, silent_server, FAULTLENS_HISTORY_WAIT="1")
    assert result.returncode == 0, result.stdout + result.stderr
    sync = _faultlens(clone, silent_server, "history", "sync")
    assert sync.returncode == 2 and "unreachable" in sync.stderr
    assert sync.stderr.count("\n") == 1 and "fl@" not in sync.stderr


def test_the_schema_is_migrated_once_by_many_runners_starting_together(history_url: str) -> None:
    def start() -> int:
        with psycopg.connect(history_url) as conn:
            return database.migrate(conn)

    with ThreadPoolExecutor(8) as pool:
        versions = list(pool.map(lambda _: start(), range(8)))
    assert versions == [database.SCHEMA_VERSION] * 8
    assert _count(history_url, "SELECT value::int FROM faultlens.meta WHERE key='schema'") == (
        database.SCHEMA_VERSION
    )


def test_a_fact_sent_twice_counts_once(history_url: str) -> None:
    fact = run_fact(
        workspace="w",
        command=["pytest"],
        tree=None,
        exit_code=1,
        records=[],
        started=0.0,
        duration=1.0,
        front="test",
        key="k1",
    )
    with database.connect(history_url) as conn:
        database.send(conn, [fact])
        database.send(conn, [fact])
    assert _count(history_url, "SELECT count(*) FROM faultlens.runs") == 1


def test_a_hostile_row_is_shown_as_text_and_never_run(
    origin: Path, history_url: str, tmp_path: Path
) -> None:
    marker = tmp_path / "pwned"
    with database.connect(history_url) as conn, conn.transaction():
        conn.execute(
            "INSERT INTO faultlens.runs(key, workspace, host, command, started, front, exit_code)"
            " VALUES ('h', '../../etc', '$(id)', %s, now(), 'x', 1)",
            (f"touch {marker}",),
        )
        conn.execute(
            "INSERT INTO faultlens.occurrences(key, run_key, failure_id, test_id, failure_type,"
            " signal) VALUES ('h:0', 'h', '../../etc/passwd', %s, 'test', %s)",
            (None, "\x1b]52;c;cHduZWQ=\x07 `rm -rf /` $(touch " + str(marker) + ")"),
        )
    reader = _clone(origin, "reader")
    out = _faultlens(reader, history_url, "status", "--history")
    assert out.returncode == 0, out.stderr
    assert "$(touch " in out.stdout and "\x1b" not in out.stdout
    assert not marker.exists()
    as_json = json.loads(_faultlens(reader, history_url, "status", "--history", "--json").stdout)
    assert as_json["team"]["failures"][0]["failure_id"] == "../../etc/passwd"


def test_quarantine_add_list_remove(origin: Path, history_url: str) -> None:
    clone = _clone(origin, "q")
    test_id = "tests/test_cache.py::test_the_cache_is_warm"
    assert (
        _faultlens(
            clone, history_url, "quarantine", "add", test_id, "--reason", "cold cache"
        ).returncode
        == 0
    )
    listed = json.loads(_faultlens(clone, history_url, "quarantine", "list", "--json").stdout)
    assert [q["test_id"] for q in listed["quarantine"]] == [test_id]
    assert _faultlens(clone, history_url, "quarantine", "remove", test_id).returncode == 0
    gone = _faultlens(clone, history_url, "quarantine", "remove", test_id)
    assert gone.returncode == 2 and "was not quarantined" in gone.stderr


def test_a_mass_failure_run_is_kept_out_of_the_flaky_statistics(history_url: str) -> None:
    base = {"workspace": "w", "command": "pytest", "started": 0.0, "duration": 1.0, "front": "t"}
    from faultlens.recipes.team.facts import OccurrenceFact, RunFact

    def run(key: str, tree: str, code: int, mass: bool, failing: bool) -> RunFact:
        occ = (OccurrenceFact(f"{key}:0", "f1", "t::x", "test", None, "boom"),) if failing else ()
        return RunFact(
            key=key,
            host=key,
            ci_url=None,
            commit="c",
            tree=tree,
            exit_code=code,
            mass_failure=mass,
            occurrences=occ,
            **base,
        )  # type: ignore[arg-type]

    with database.connect(history_url) as conn:
        database.send(conn, [run("r1", "T", 1, True, True), run("r2", "T", 0, False, False)])
        assert database.history_of(conn, ["f1"]) == {}
        database.send(conn, [run("r3", "T", 1, False, True)])
        (h,) = database.history_of(conn, ["f1"]).values()
    assert (h.seen, h.flaky, h.passes_on_same_code) == (1, 1, True)
