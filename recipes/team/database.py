"""The team database (PostgreSQL, through psycopg 3): its schema, the writes
of queued runs, the reads of a failure's history and the quarantine.

The schema is faultlens's own (`faultlens.*`), created and migrated by
faultlens: numbered steps, each applied once, under an advisory lock so
that many runners starting at once migrate it once.  The database user
needs rights on that schema only.  Every statement has a time limit, and
connecting gives up after a few seconds: the caller keeps the facts queued.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .facts import RunFact

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT_S = 3
STATEMENT_TIMEOUT_MS = 5000
LOCK = 0x6661756C746C656E  # "faultlen": the advisory lock of the migrations

_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: runs, occurrences, quarantine
        "CREATE TABLE faultlens.runs ("
        " key text PRIMARY KEY, workspace text NOT NULL, host text NOT NULL, ci_url text,"
        " commit text, tree text, command text NOT NULL, exit_code integer,"
        " started timestamptz NOT NULL, duration real, front text NOT NULL,"
        " mass_failure boolean NOT NULL DEFAULT false, received timestamptz NOT NULL DEFAULT now())",
        "CREATE TABLE faultlens.occurrences ("
        " key text PRIMARY KEY, run_key text NOT NULL REFERENCES faultlens.runs(key),"
        " failure_id text NOT NULL, test_id text, failure_type text NOT NULL, verdict text,"
        " signal text NOT NULL)",
        "CREATE INDEX occurrences_failure ON faultlens.occurrences(failure_id)",
        "CREATE INDEX occurrences_test ON faultlens.occurrences(test_id)",
        "CREATE INDEX occurrences_run ON faultlens.occurrences(run_key)",
        "CREATE INDEX runs_code ON faultlens.runs(tree, command) WHERE exit_code = 0",
        "CREATE TABLE faultlens.quarantine ("
        " test_id text PRIMARY KEY, reason text NOT NULL, added_by text NOT NULL,"
        " added timestamptz NOT NULL DEFAULT now())",
    ),
    (  # 2: the runner's own count (the mass-failure guard), runs by their code
        "ALTER TABLE faultlens.runs ADD COLUMN IF NOT EXISTS tests_total integer",
        "ALTER TABLE faultlens.runs ADD COLUMN IF NOT EXISTS tests_failed integer",
        "CREATE INDEX IF NOT EXISTS runs_tree ON faultlens.runs(tree)",
    ),
)
SCHEMA_VERSION = len(_MIGRATIONS)


class HistoryUnavailable(Exception):
    """The team database cannot be used now (one line, never the URL)."""


def available() -> bool:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return False
    return True


@contextmanager
def connect(url: str) -> Iterator[psycopg.Connection[Any]]:
    """A connection with time limits, the schema migrated; HistoryUnavailable
    when the server cannot be reached or refuses."""
    try:
        import psycopg
    except ImportError:
        raise HistoryUnavailable(
            "team history needs psycopg: pip install 'faultlens[team]'"
        ) from None
    try:
        conn = psycopg.connect(
            url,
            connect_timeout=CONNECT_TIMEOUT_S,
            application_name="faultlens",
            client_encoding="utf8",  # text as str even from a SQL_ASCII database
            autocommit=True,  # each write its own transaction; a read holds none open
            options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
        )
    except psycopg.Error as exc:
        raise HistoryUnavailable(f"the team database is unreachable: {_first_line(exc)}") from None
    try:
        migrate(conn)
        yield conn
    except psycopg.Error as exc:
        raise HistoryUnavailable(f"the team database failed: {_first_line(exc)}") from None
    finally:
        conn.close()


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def migrate(conn: psycopg.Connection[Any]) -> int:
    """Bring the schema to SCHEMA_VERSION (idempotent, safe concurrently)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
        conn.execute("CREATE SCHEMA IF NOT EXISTS faultlens")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS faultlens.meta (key text PRIMARY KEY, value text NOT NULL)"
        )
        row = conn.execute("SELECT value FROM faultlens.meta WHERE key = 'schema'").fetchone()
        version = int(row[0]) if row else 0
        for step, statements in enumerate(_MIGRATIONS[version:], start=version + 1):
            for sql in statements:
                conn.execute(sql)
            conn.execute(
                "INSERT INTO faultlens.meta(key, value) VALUES ('schema', %s)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(step),),
            )
        return max(version, SCHEMA_VERSION)


def send(conn: psycopg.Connection[Any], facts: Sequence[RunFact]) -> None:
    """Write runs and their occurrences in one transaction; a key already
    there is skipped (a fact sent twice counts once)."""
    with conn.transaction(), conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO faultlens.runs(key, workspace, host, ci_url, commit, tree, command,"
            " exit_code, started, duration, front, mass_failure, tests_total, tests_failed)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, to_timestamp(%s), %s, %s, %s, %s, %s)"
            " ON CONFLICT (key) DO NOTHING",
            [
                (
                    f.key,
                    f.workspace,
                    f.host,
                    f.ci_url,
                    f.commit,
                    f.tree,
                    f.command,
                    f.exit_code,
                    f.started,
                    f.duration,
                    f.front,
                    f.mass_failure,
                    f.tests_total,
                    f.tests_failed,
                )
                for f in facts
            ],
        )
        cur.executemany(
            "INSERT INTO faultlens.occurrences(key, run_key, failure_id, test_id, failure_type,"
            " verdict, signal) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (key) DO NOTHING",
            [
                (o.key, f.key, o.failure_id, o.test_id, o.failure_type, o.verdict, o.signal)
                for f in facts
                for o in f.occurrences
            ],
        )


@dataclass(slots=True)
class TeamHistory:
    """What the team has seen of one failure (or test)."""

    failure_id: str
    test_id: str | None
    failure_type: str
    signal: str
    seen: int
    machines: int
    first_seen: float | None
    last_seen: float | None
    flaky: int  # occurrences on code that also passed, or triaged flaky
    passes_on_same_code: bool
    quarantined: bool = False

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def describe(self) -> str:
        """`seen 14× on 6 machines since 1 Dec; flaky 5 of 14; passes on the same code elsewhere`"""
        parts = [f"seen {self.seen}× on {self.machines} machine{'s' * (self.machines != 1)}"]
        if self.first_seen is not None:
            parts[0] += " since " + time.strftime("%-d %b", time.gmtime(self.first_seen))
        if self.flaky:
            parts.append(f"flaky {self.flaky} of {self.seen}")
        if self.passes_on_same_code:
            parts.append("passes on the same code elsewhere")
        if self.quarantined:
            parts.append("quarantined")
        return "; ".join(parts)


_STATS = """
SELECT o.failure_id, max(o.test_id), max(o.failure_type), max(o.signal),
       count(*), count(DISTINCT r.host),
       extract(epoch FROM min(r.started)), extract(epoch FROM max(r.started)),
       count(*) FILTER (WHERE o.verdict = 'flaky' OR EXISTS (
           SELECT 1 FROM faultlens.runs p
           WHERE p.exit_code = 0 AND p.tree = r.tree AND p.command = r.command)),
       bool_or(EXISTS (
           SELECT 1 FROM faultlens.runs p
           WHERE p.exit_code = 0 AND p.tree = r.tree AND p.command = r.command)),
       bool_or(EXISTS (SELECT 1 FROM faultlens.quarantine q WHERE q.test_id = o.test_id))
FROM faultlens.occurrences o JOIN faultlens.runs r ON r.key = o.run_key
WHERE NOT r.mass_failure {where}
GROUP BY o.failure_id
"""


def _history(row: Sequence[Any]) -> TeamHistory:
    return TeamHistory(
        failure_id=str(row[0]),
        test_id=row[1],
        failure_type=str(row[2]),
        signal=str(row[3]),
        seen=int(row[4]),
        machines=int(row[5]),
        first_seen=float(row[6]) if row[6] is not None else None,
        last_seen=float(row[7]) if row[7] is not None else None,
        flaky=int(row[8]),
        passes_on_same_code=bool(row[9]),
        quarantined=bool(row[10]),
    )


def history_of(conn: psycopg.Connection[Any], failure_ids: Sequence[str]) -> dict[str, TeamHistory]:
    if not failure_ids:
        return {}
    rows = conn.execute(
        _STATS.format(where="AND o.failure_id = ANY(%s)"),
        (list(failure_ids),),
    ).fetchall()
    return {h.failure_id: h for h in map(_history, rows)}


def most_seen(conn: psycopg.Connection[Any], limit: int = 20) -> list[TeamHistory]:
    rows = conn.execute(
        _STATS.format(where="") + " ORDER BY count(*) DESC, o.failure_id LIMIT %s",
        (limit,),
    ).fetchall()
    return [_history(r) for r in rows]


def passes_elsewhere(conn: psycopg.Connection[Any], tree: str, command: str) -> bool:
    """A run of the same command on the same code passed (on any runner)."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM faultlens.runs WHERE exit_code = 0 AND tree = %s"
        " AND command = %s)",
        (tree, command),
    ).fetchone()
    return bool(row and row[0])


def quarantine_add(conn: psycopg.Connection[Any], test_id: str, reason: str, who: str) -> None:
    with conn.transaction():
        conn.execute(
            "INSERT INTO faultlens.quarantine(test_id, reason, added_by) VALUES (%s, %s, %s)"
            " ON CONFLICT (test_id) DO UPDATE SET reason = excluded.reason",
            (test_id, reason, who),
        )


def quarantine_remove(conn: psycopg.Connection[Any], test_id: str) -> bool:
    with conn.transaction():
        cur = conn.execute("DELETE FROM faultlens.quarantine WHERE test_id = %s", (test_id,))
        return cur.rowcount > 0


def quarantine_list(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT test_id, reason, added_by, extract(epoch FROM added) FROM faultlens.quarantine"
        " ORDER BY test_id"
    ).fetchall()
    return [{"test_id": r[0], "reason": r[1], "added_by": r[2], "added": float(r[3])} for r in rows]


def auto_quarantine(conn: psycopg.Connection[Any], times: int, days: int = 7) -> list[str]:
    """Quarantine every test flaky at least `times` times in `days` days."""
    if times <= 0:
        return []
    with conn.transaction():
        rows = conn.execute(
            "INSERT INTO faultlens.quarantine(test_id, reason, added_by)"
            " SELECT o.test_id, %s, 'faultlens' FROM faultlens.occurrences o"
            " JOIN faultlens.runs r ON r.key = o.run_key"
            " WHERE o.test_id IS NOT NULL AND NOT r.mass_failure"
            " AND r.started > now() - make_interval(days => %s)"
            " AND (o.verdict = 'flaky' OR EXISTS (SELECT 1 FROM faultlens.runs p"
            "      WHERE p.exit_code = 0 AND p.tree = r.tree AND p.command = r.command))"
            " GROUP BY o.test_id HAVING count(*) >= %s"
            " ON CONFLICT (test_id) DO NOTHING RETURNING test_id",
            (f"flaky at least {times} times in {days} days", days, times),
        ).fetchall()
    return [str(r[0]) for r in rows]


def quarantined(conn: psycopg.Connection[Any], test_ids: Sequence[str]) -> dict[str, str]:
    """test id -> why, of these tests that are quarantined."""
    if not test_ids:
        return {}
    rows = conn.execute(
        "SELECT test_id, reason FROM faultlens.quarantine WHERE test_id = ANY(%s)",
        (list(test_ids),),
    ).fetchall()
    return {str(r[0]): str(r[1]) for r in rows}


def flaky_tests(conn: psycopg.Connection[Any], test_ids: Sequence[str]) -> set[str]:
    """These tests that have a flaky history on any runner: triaged flaky, or
    failed on code that a run of the same command passed on (mass failures
    left out)."""
    if not test_ids:
        return set()
    rows = conn.execute(  # per test, the first flaky occurrence is enough
        "SELECT t.id FROM unnest(%s::text[]) AS t(id) WHERE EXISTS ("
        " SELECT 1 FROM faultlens.occurrences o JOIN faultlens.runs r ON r.key = o.run_key"
        " WHERE o.test_id = t.id AND NOT r.mass_failure"
        " AND (o.verdict = 'flaky' OR EXISTS (SELECT 1 FROM faultlens.runs p"
        "      WHERE p.exit_code = 0 AND p.tree = r.tree AND p.command = r.command)))",
        (list(dict.fromkeys(test_ids)),),
    ).fetchall()
    return {str(r[0]) for r in rows}


@dataclass(frozen=True, slots=True)
class FailingOn:
    """A failure seen on one exact code (a clean checkout of a commit)."""

    failure_id: str
    test_id: str | None
    runs: int
    machines: int


def failing_on(
    conn: psycopg.Connection[Any],
    tree: str,
    command: str,
    failure_ids: Sequence[str],
    test_ids: Sequence[str],
) -> list[FailingOn]:
    """The failures (by id, or by test) that runs of `command` on the code
    `tree` reported, on any runner (mass failures left out)."""
    if not failure_ids and not test_ids:
        return []
    rows = conn.execute(
        "SELECT o.failure_id, o.test_id, count(DISTINCT r.key), count(DISTINCT r.host)"
        " FROM faultlens.occurrences o JOIN faultlens.runs r ON r.key = o.run_key"
        " WHERE r.tree = %s AND r.command = %s AND NOT r.mass_failure"
        " AND (o.failure_id = ANY(%s) OR o.test_id = ANY(%s))"
        " GROUP BY o.failure_id, o.test_id",
        (tree, command, list(failure_ids), list(test_ids)),
    ).fetchall()
    return [FailingOn(str(r[0]), r[1], int(r[2]), int(r[3])) for r in rows]
