"""Team history at scale (issue 29's targets, measured, never asserted):
with 100,000 runs and 5 million occurrences in the database, one failure's
history under 20 ms and a run's writes under 5 ms; 16 runners writing at
once lose nothing.

    python -m benchmarks.team_history [--url postgresql://…] [--runs N --occurrences M]

Without --url it makes a throwaway cluster (tests/team/pgcluster.py: initdb
and pg_ctl, Debian's postgresql) and removes it after.  The rows are made
server-side (generate_series), then the same code as a run's end reads and
writes through faultlens.recipes.team.database.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

FAILURE_IDS = 20_000


def _median_ms(fn: Callable[[], object], n: int = 25) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def fill(url: str, runs: int, occurrences: int) -> None:
    from faultlens.recipes.team import database

    with database.connect(url) as conn, conn.transaction():
        conn.execute("SET LOCAL statement_timeout = 0")  # the fill, not a run's statement
        conn.execute(
            "INSERT INTO faultlens.runs(key, workspace, host, commit, tree, command, exit_code,"
            " started, duration, front)"
            " SELECT 'r' || i, 'acme/shop', 'host' || (i %% 40), md5(i::text), md5((i / 3)::text),"
            " 'python -m pytest -q', CASE WHEN i %% 5 = 0 THEN 0 ELSE 1 END,"
            " now() - make_interval(secs => i), 1.5, 'cli' FROM generate_series(1, %s) i",
            (runs,),
        )
        conn.execute(
            "INSERT INTO faultlens.occurrences(key, run_key, failure_id, test_id, failure_type,"
            " verdict, signal)"
            " SELECT 'o' || i, 'r' || (1 + i %% %s), 'f' || (i %% %s), 'tests/t.py::test_' || (i %% %s),"
            " 'test', NULL, 'AssertionError: assert 1 == 2' FROM generate_series(1, %s) i",
            (runs, FAILURE_IDS, FAILURE_IDS, occurrences),
        )
    with database.connect(url) as conn:
        conn.execute("SET statement_timeout = 0")
        conn.execute("ANALYZE faultlens.runs")
        conn.execute("ANALYZE faultlens.occurrences")


def measure(url: str, writers: int = 16, each: int = 25) -> list[tuple[str, float]]:
    from faultlens.recipes.team import database
    from faultlens.recipes.team.facts import OccurrenceFact, RunFact

    def fact() -> RunFact:
        key = uuid.uuid4().hex
        occ = tuple(
            OccurrenceFact(f"{key}:{i}", f"f{i}", f"tests/t.py::test_{i}", "test", None, "boom")
            for i in range(5)
        )
        return RunFact(
            key,
            "acme/shop",
            "bench",
            None,
            "c",
            "t",
            "pytest",
            1,
            time.time(),
            1.0,
            "bench",
            False,
            occ,
        )

    out = []
    with database.connect(url) as conn:
        out.append(
            ("one failure's history (ms)", _median_ms(lambda: database.history_of(conn, ["f7"])))
        )
        tests = [f"tests/t.py::test_{i}" for i in range(5)]
        tree = conn.execute("SELECT tree FROM faultlens.runs WHERE key = 'r7'").fetchone()[0]  # type: ignore[index]

        def run_end() -> object:  # recipes/team/reads.py run_view: one connection, two reads
            database.passes_elsewhere(conn, tree, "python -m pytest -q")
            return database.quarantined(conn, tests)

        out.append(("a run's end read: passes elsewhere + quarantine (ms)", _median_ms(run_end)))
        out.append(
            ("known flakes of 5 tests (ms)", _median_ms(lambda: database.flaky_tests(conn, tests)))
        )
        out.append(
            (
                "failing on the upstream's commit (ms)",
                _median_ms(
                    lambda: database.failing_on(
                        conn, tree, "python -m pytest -q", ["f7"], ["tests/t.py::test_7"]
                    )
                ),
            )
        )
        out.append(
            (
                "a run's writes, 5 occurrences (ms)",
                _median_ms(lambda: database.send(conn, [fact()])),
            )
        )
        before = int(conn.execute("SELECT count(*) FROM faultlens.runs").fetchone()[0])  # type: ignore[index]

    def writer(_: int) -> None:
        with database.connect(url) as c:
            for _ in range(each):
                database.send(c, [fact()])

    t0 = time.perf_counter()
    with ThreadPoolExecutor(writers) as pool:
        list(pool.map(writer, range(writers)))
    took = time.perf_counter() - t0
    with database.connect(url) as conn:
        after = int(conn.execute("SELECT count(*) FROM faultlens.runs").fetchone()[0])  # type: ignore[index]
    out.append(
        (f"{writers} writers x {each} runs: runs lost", float(writers * each - (after - before)))
    )
    out.append((f"{writers} writers x {each} runs: seconds", took))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url")
    ap.add_argument("--runs", type=int, default=100_000)
    ap.add_argument("--occurrences", type=int, default=5_000_000)
    args = ap.parse_args()
    if args.url:
        rows = _run(args.url, args)
    else:
        from tests.team.pgcluster import cluster

        with cluster() as c:
            rows = _run(c.new_database(), args)
    for name, value in rows:
        print(f"{name:<45} {value:10.2f}")


def _run(url: str, args: argparse.Namespace) -> list[tuple[str, float]]:
    t0 = time.perf_counter()
    fill(url, args.runs, args.occurrences)
    filled = time.perf_counter() - t0
    return [(f"fill {args.runs} runs, {args.occurrences} occurrences (s)", filled), *measure(url)]


if __name__ == "__main__":
    main()
