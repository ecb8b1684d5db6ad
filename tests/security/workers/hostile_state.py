"""Child process for the hostile-workspace property tests: do what faultlens
does with a workspace's state (a start's recovery, an apply, the event log,
the ledger, recipe documents, a whole recipe attempt), with an audit hook
recording every file opened by path, every SQLite database connected and
every process started (argv: the workspace root).

Prints one JSON object: {"opens": [...], "databases": [...], "spawned":
[[argv...], ...], "errors": [...], "results": {...}}.  The parent checks the
invariants; this process only reports."""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

OPENS: list[str] = []
DATABASES: list[str] = []
SPAWNED: list[list[str]] = []


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and args and isinstance(args[0], str | bytes):
        path = os.fsdecode(args[0])
        if os.path.isabs(path):
            OPENS.append(path)
    elif event == "sqlite3.connect" and args:
        DATABASES.append(os.fsdecode(args[0]) if isinstance(args[0], str | bytes) else str(args[0]))
    elif event == "subprocess.Popen" and len(args) > 1:
        SPAWNED.append([os.fsdecode(a) if isinstance(a, str | bytes) else str(a) for a in args[1]])
    elif event == "os.exec" or event == "os.posix_spawn":
        SPAWNED.append([str(args)])


def main() -> None:
    root = sys.argv[1]
    from faultlens.classifier import classify_text
    from faultlens.classifier.engine import Options

    with open(os.path.join(root, "output.txt"), encoding="utf-8") as f:
        output = f.read()
    (record,) = classify_text(output, Options(cwd=root))
    from faultlens.recipes import (
        ApplyError,
        EventLog,
        Ledger,
        StateUnavailable,
        TextEdit,
        UnsafeEdit,
        Workspace,
        apply_edits,
        attempt,
        recipe_doc,
    )
    from faultlens.recipes.crash_restore import recover_state

    sys.addaudithook(_hook)
    errors: list[str] = []
    results: dict[str, Any] = {}

    def step(name: str, fn: Any, *expected: type[BaseException]) -> Any:
        try:
            value = fn()
        except expected as exc:
            results[name] = f"refused: {type(exc).__name__}"
            return None
        except BaseException as exc:  # the parent decides
            errors.append(f"{name}: {''.join(traceback.format_exception(exc))[-1500:]}")
            return None
        results[name] = "ok"
        return value

    ws = Workspace.at(root)
    step("start", lambda: recover_state(ws))
    step(
        "apply",
        lambda: apply_edits([TextEdit("src/auth/http.ts", 0, 0, 0, 0, "// faultlens\n")], ws),
        ApplyError,
        UnsafeEdit,
    )
    step(
        "apply-through-link",
        lambda: apply_edits([TextEdit("gl/hooks/post-checkout", 0, 0, 0, 0, "x\n")], ws),
        ApplyError,
        UnsafeEdit,
    )
    # Before this process stores a run of its own: a committed ledger's run is
    # then the only one a recipe could take its command from.
    step("attempt", lambda: attempt(record, ws).result)
    events = EventLog(ws)
    step("emit", lambda: events.emit("failure.classified", record))
    step("info", lambda: events.info("user selected: retry", task="T-1"))
    step("read-events", events.read_events)
    for ft in ("compile", "test", "branch_divergence", "infra"):
        step(f"doc-{ft}", lambda ft=ft: recipe_doc(ft, ws))

    def ledger_round() -> None:
        ledger = Ledger.open(ws)
        run = ledger.start_run("T-1", ["tsc", "-p", "."], ".")
        ledger.finish_run(run, 2, [record])
        ledger.find_record(record.id)
        ledger.history()

    step("ledger", ledger_round, StateUnavailable)
    print(
        json.dumps(
            {
                "opens": OPENS,
                "databases": DATABASES,
                "spawned": SPAWNED,
                "errors": errors,
                "results": results,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
