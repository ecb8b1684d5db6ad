"""What keeping workspace state safely costs (in-process, median of N runs):
an atomic three-file apply (signed journal, hashes, fsyncs), the start-up
recovery with nothing to put back, and logging a run's 500 failures
(events, session log, error log: O_NOFOLLOW walks, lock, fresh-line check).

    python -m benchmarks.run --only state
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TSC = "src/a{0}.ts({0},1): error TS2304: Cannot find name 'X{0}'.\n"


def _median_ms(fn: Callable[[], object], n: int) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def measure(n: int = 15) -> list[tuple[str, float]]:
    from faultlens.classifier import classify_text
    from faultlens.recipes import EventLog, Ledger, TextEdit, Workspace, apply_edits
    from faultlens.recipes.crash_restore import recover_state

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ws = Workspace.at(root)
        Ledger.open(ws)
        files = [f"src/m{i}.py" for i in range(3)]
        for f in files:
            (root / f).parent.mkdir(parents=True, exist_ok=True)
            (root / f).write_text("x = 1\n" * 2000)

        def apply() -> None:
            apply_edits([TextEdit(f, 0, 0, 0, 0, "# faultlens\n") for f in files], ws)

        records = classify_text("".join(TSC.format(i) for i in range(1, 501)))
        events = EventLog(ws)
        return [
            ("apply_edits, 3 files of 12 KB", _median_ms(apply, n)),
            ("recover_state, nothing to put back", _median_ms(lambda: recover_state(ws), n)),
            (
                f"EventLog.emit_many, {len(records)} records",
                _median_ms(lambda: events.emit_many("failure.classified", records), n),
            ),
        ]


def table(rows: list[tuple[str, float]]) -> list[str]:
    return ["| operation | median ms |", "|---|---:|", *(f"| {k} | {v:.2f} |" for k, v in rows)]
