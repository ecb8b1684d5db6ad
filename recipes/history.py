"""A failure's history across runs: first seen, last seen, times seen, how each
occurrence ended, and how often it was flaky.

Every run is a row of the ledger (`runs`) and every failure it reported a row
of `run_records`, keyed by the record's stable id (the fingerprint survives
line shifts).  Schema 3 added what history needs:

- `runs.head` and `runs.tree`: the commit and a key of the work tree's state
  (the commit plus the content of every changed and untracked file) when the
  run was made (recipes/treestate.py).  Two runs with the same `tree` ran on
  the same code.
- `run_records.ended` (recovered | escalated | skipped | flaky; NULL when
  nothing was attempted) and `run_records.triage` (the verdict).

A test that failed in one run and passed in another run of the same command on
the same code (same `tree`: nothing changed in between) is flaky even though
it was never re-run: the history says so (`History.flips`).  "Passed" is
deliberately strict: the run exited 0.  A run that failed for another reason
proves nothing about this test (the runner may have stopped before it).

The module only reads and writes the ledger's history columns; the ledger
itself (recipes/ledger_schema.py) stays the owner of the schema.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord, Triage

    from .ledger import Ledger
    from .model import Outcome
    from .team.database import TeamHistory
    from .treestate import TreeState

ENDINGS = ("recovered", "escalated", "skipped", "flaky")
# How a stored record says its run was a mass failure (the ledger's JSON of
# `hint["mass_failure"] = True`, recipes/observe.py): found without parsing it.
MASS_MARK = '"mass_failure": true'


def note_tree(ledger: Ledger, run_id: int, state: TreeState | None) -> None:
    """Store where run `run_id` happened."""
    if state is None:
        return
    with ledger._tx() as db:
        db.execute("UPDATE runs SET head=?, tree=? WHERE id=?", (state.head, state.tree, run_id))


# -- how each occurrence ended --------------------------------------------------------------
def ending(outcome: Outcome) -> str:
    """How one occurrence ended, in history's words."""
    if outcome.result == "recovered" and (
        outcome.reason.startswith("flaky") or _verdict(outcome.record) == "flaky"
    ):
        return "flaky"
    return outcome.result


def _verdict(record: FailureRecord) -> str | None:
    return record.triage.verdict if record.triage is not None else None


def note_endings(ledger: Ledger, run_id: int, outcomes: Iterable[Outcome]) -> None:
    """Store how each failure of run `run_id` ended and its triage verdict."""
    rows = [(ending(o), _verdict(o.record), run_id, o.record.id) for o in outcomes]
    if not rows:
        return
    with ledger._tx() as db:
        db.executemany(
            "UPDATE run_records SET ended=?, triage=COALESCE(?, triage)"
            " WHERE run_id=? AND failure_id=?",
            rows,
        )


def note_triage(ledger: Ledger, run_id: int, records: Iterable[FailureRecord]) -> None:
    """Store the triage verdicts of run `run_id`'s failures (when nothing else ended them)."""
    rows = [(_verdict(r), run_id, r.id) for r in records if r.triage is not None]
    if not rows:
        return
    with ledger._tx() as db:
        db.executemany("UPDATE run_records SET triage=? WHERE run_id=? AND failure_id=?", rows)


# -- reading it back ----------------------------------------------------------------------
@dataclass(slots=True)
class Occurrence:
    run_id: int
    when: float
    ended: str | None  # None: nothing was attempted
    triage: str | None
    tree: str | None
    exit_code: int | None
    mass_failure: bool = False  # most of its run's tests failed: infrastructure, never flaky


@dataclass(slots=True)
class History:
    """Every occurrence of one failure id, oldest first."""

    failure_id: str
    occurrences: list[Occurrence] = field(default_factory=list)
    # Runs of the same command on the same code that passed (exit 0): a failing
    # occurrence on that code is flaky without any re-run.
    passes_on_same_code: list[int] = field(default_factory=list)
    passed_trees: set[str] = field(default_factory=set)  # the `tree` keys of those runs
    signal: str = ""
    where: str = ""
    failure_type: str = ""
    test: str = ""  # the test id, for a test failure

    @property
    def times(self) -> int:
        return len(self.occurrences)

    @property
    def first_seen(self) -> float | None:
        return self.occurrences[0].when if self.occurrences else None

    @property
    def last_seen(self) -> float | None:
        return self.occurrences[-1].when if self.occurrences else None

    @property
    def flips(self) -> bool:
        """It failed and passed on the same code: flaky, re-run or not."""
        return bool(self.passes_on_same_code)

    @property
    def flaky(self) -> int:
        """Occurrences that were flaky: passed on their own re-run, or failed on
        code that another run of the same command passed on."""
        return sum(1 for o in self.occurrences if self._flaky(o))

    def _flaky(self, o: Occurrence) -> bool:
        if o.mass_failure:  # the mass-failure guard: infrastructure, not flakiness
            return False
        return o.ended == "flaky" or o.triage == "flaky" or o.tree in self.passed_trees

    @property
    def endings(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.occurrences:
            key = "flaky" if self._flaky(o) else (o.ended or "not attempted")
            out[key] = out.get(key, 0) + 1
        return out


def _day(ts: float, now: float) -> str:
    d = datetime.fromtimestamp(ts).astimezone()
    today = datetime.fromtimestamp(now).astimezone()
    text = f"{d.day} {d:%b}"
    return text if d.year == today.year else f"{text} {d.year}"


def describe(h: History, now: float | None = None) -> str:
    """`seen 5× since 2 Dec; flaky 2 of 5` (the line hovers and boxes show)."""
    import time

    if not h.occurrences:
        return ""
    now = time.time() if now is None else now
    first = h.first_seen
    assert first is not None
    since = _day(first, now)
    text = f"seen {h.times}× since {since}" if h.times > 1 else f"first seen {since}"
    flaky = h.flaky
    if flaky:
        text += f"; flaky {flaky} of {h.times}"
    if h.flips:
        n = len(h.passes_on_same_code)
        text += f"; passed {n}× on the same code"
    return text


def _like(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def history(
    ledger: Ledger, failure_id: str, *, task: str | None = None, limit: int = 1000
) -> History:
    """The occurrences of `failure_id` (exact id, or `id.N` repeats of it), in
    every task or in `task`'s runs only."""
    from .ledger import task_key

    only = None if task is None else task_key(task)
    with ledger._read() as db:
        rows = db.execute(
            "SELECT rr.run_id, r.started, rr.ended, rr.triage, r.tree, r.exit_code,"
            " r.task, r.argv, r.cwd, rr.record"
            " FROM run_records rr JOIN runs r ON r.id = rr.run_id"
            " WHERE (rr.failure_id = ? OR rr.failure_id LIKE ? ESCAPE '\\')"
            " AND (? IS NULL OR r.task = ?)"
            " ORDER BY rr.run_id LIMIT ?",
            (failure_id, _like(failure_id + "."), only, only, limit),
        ).fetchall()
        passes: list[int] = []
        trees: set[str] = set()
        seen: set[tuple[str, str, str, str]] = set()
        for row in rows:
            tree, task, argv, cwd = row[4], row[6], row[7], row[8]
            if tree is None or (tree, task, argv, cwd) in seen:
                continue
            seen.add((tree, task, argv, cwd))
            found = db.execute(
                "SELECT id FROM runs WHERE tree=? AND task=? AND argv=? AND cwd=?"
                " AND exit_code=0 ORDER BY id",
                (tree, task, argv, cwd),
            ).fetchall()
            if found:
                trees.add(tree)
                passes.extend(int(f[0]) for f in found)
    h = History(failure_id, passes_on_same_code=sorted(set(passes)), passed_trees=trees)
    for row in rows:
        h.occurrences.append(
            Occurrence(
                run_id=int(row[0]),
                when=float(row[1]),
                ended=row[2],
                triage=row[3],
                tree=row[4],
                exit_code=None if row[5] is None else int(row[5]),
                mass_failure=MASS_MARK in (row[9] or ""),
            )
        )
    if rows:
        _describe_record(h, rows[-1][9])
    return h


def _describe_record(h: History, raw: str) -> None:
    try:
        data: Any = json.loads(raw)
    except ValueError:
        return
    if not isinstance(data, dict):
        return
    h.signal = str(data.get("signal") or "")
    h.failure_type = str(data.get("failure_type") or "")
    file, line = data.get("source_file"), data.get("source_line")
    h.where = f"{file}:{line}" if file and line else str(file or "")
    hint = data.get("hint")
    test = hint.get("test_id") if isinstance(hint, dict) else None
    h.test = test if isinstance(test, str) else ""


def histories(ledger: Ledger, failure_ids: Sequence[str]) -> dict[str, History]:
    """The history of each id (for a box listing several failures)."""
    return {fid: history(ledger, fid) for fid in dict.fromkeys(failure_ids)}


def worst(ledger: Ledger, limit: int = 20, task: str | None = None) -> list[History]:
    """The worst offenders: the failures seen most often, the flaky ones first
    among equals (`faultlens status --history`)."""
    from .ledger import task_key

    with ledger._read() as db:
        if task is None:
            rows = db.execute(
                "SELECT failure_id, COUNT(*) AS n FROM run_records"
                " GROUP BY failure_id ORDER BY n DESC, MAX(run_id) DESC LIMIT ?",
                (limit * 3,),
            ).fetchall()
        else:
            rows = db.execute(
                "SELECT rr.failure_id, COUNT(*) AS n FROM run_records rr"
                " JOIN runs r ON r.id = rr.run_id WHERE r.task = ?"
                " GROUP BY rr.failure_id ORDER BY n DESC, MAX(rr.run_id) DESC LIMIT ?",
                (task_key(task), limit * 3),
            ).fetchall()
    found = [history(ledger, str(r[0]), task=task) for r in rows]
    found.sort(key=lambda h: (-h.times, -h.flaky, -(h.last_seen or 0)))
    return found[:limit]


def flaky_by_history(ledger: Ledger, record: FailureRecord) -> Triage | None:
    """`flaky` when the same command passed on the same code as this failure's
    newest occurrence (no re-run needed), else None."""
    from faultlens.classifier.record import Triage

    h = history(ledger, record.id)
    if not h.flips or not h.occurrences:
        return None
    newest = h.occurrences[-1]
    if newest.tree is None or newest.tree not in h.passed_trees or newest.mass_failure:
        return None
    runs = ", ".join(f"#{r}" for r in h.passes_on_same_code[-3:])
    return Triage(
        verdict="flaky",
        reason=f"the same command passed on the same code (run {runs}) and failed here: "
        "nothing changed in between",
    )


def as_json(h: History) -> dict[str, Any]:
    return {
        "failure_id": h.failure_id,
        "failure_type": h.failure_type,
        "signal": h.signal,
        "where": h.where,
        "test": h.test,
        "times": h.times,
        "first_seen": h.first_seen,
        "last_seen": h.last_seen,
        "flaky": h.flaky,
        "endings": h.endings,
        "passes_on_same_code": h.passes_on_same_code,
        "summary": describe(h),
    }


TRIAGED = ("test", "compile")


def after_run(
    ledger: Ledger,
    run_id: int,
    state: TreeState | None,
    records: Sequence[FailureRecord],
    recover: bool,
) -> None:
    """What a finished run adds to history: where it ran, and the verdict
    history alone can give (flaky: the same command passed on the same code).
    Without --recover nothing else is checked, and the record says so."""
    from faultlens.classifier.record import Triage

    note_tree(ledger, run_id, state)
    for rec in records:
        if rec.failure_type.value not in TRIAGED or rec.triage is not None:
            continue
        found = flaky_by_history(ledger, rec) if state is not None and state.tree else None
        if found is not None:
            rec.triage = found
        elif not recover:
            rec.triage = Triage(
                verdict="unknown",
                reason="not checked: triage runs with `faultlens run --recover`",
            )
    note_triage(ledger, run_id, records)


def box_lines(
    ledger: Ledger,
    record: FailureRecord,
    details: Sequence[str] = (),
    team: TeamHistory | None = None,
) -> list[str]:
    """What the escalation box adds for one failure: its triage verdict (when
    the details do not say it yet, and it was checked), its history ("seen 5× since 2 Dec;
    flaky 2 of 5"), when it was seen before, and the team's ("seen 14× on 6 machines since
    1 Dec; flaky 5 of 14; passes on the same code elsewhere"), when a team database knows it."""
    from .triage import text

    out = []
    t = record.triage
    said = any(d.startswith("Triage:") for d in details)
    if t is not None and not said and not t.reason.startswith("not checked"):
        out.append(f"Triage: {text(t)}")
    try:
        h = history(ledger, record.id)
    except Exception:  # history is a courtesy: the box never fails for it
        h = None
    if h is not None and (h.times > 1 or h.flaky):
        out.append(f"History: {describe(h)}")
    if team is not None:  # the database's text is data: the box takes control characters out
        out.append(f"Team: {team.describe()}")
    return out
