"""Child process for the crash and load tests: record attempts (and events)
in a loop (argv: root, worker name, count or 0 for forever, events 0/1).

Prints `committed <failure id>` after each attempt's transaction returns."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from faultlens.classifier import classify_text
from faultlens.recipes import EventLog, Ledger, Outcome, RecipeSettings, Workspace

TSC = "src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n"


def main() -> None:
    root, worker, count, with_events = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    ws = Workspace.at(root, settings=RecipeSettings(worker=worker))
    ledger = Ledger.open(ws)
    events = EventLog(ws)
    (base,) = classify_text(TSC)
    payload = "x" * 2000  # a record of realistic size, so a kill lands mid-write
    i = 0
    while count == 0 or i < count:
        rec = dataclasses.replace(base, id=f"{worker}-{i}", task=f"T-{worker}")
        out = Outcome(record=rec, result="escalated", tried="tried", reason=payload)
        if not ledger.record_attempt(out):
            raise SystemExit(f"attempt {rec.id} refused")
        if with_events == "1":
            events.emit("recovery.attempted", rec, tried="tried", seq=i)
        print(f"committed {rec.id}", flush=True)
        i += 1


if __name__ == "__main__":
    main()
