"""`faultlens recover ID`: apply one failure's recipe by hand, from the records
of the runs stored in the state dir."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .main import UsageError
from .run import add_workspace_args, workspace_for


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "recover",
        help="apply one failure's recipe by hand",
        description="Apply the recipe of one failure found by an earlier `faultlens run` "
        "(ID: its id, or a unique prefix). Refused when the recipe was already tried for "
        "it (the anti-loop rule) unless --force. Exit 0 when recovered, 1 otherwise.",
    )
    p.add_argument("id", metavar="ID", help="the failure id (or a prefix of it)")
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)
    p.add_argument("--force", action="store_true", help="try even if already attempted")
    p.add_argument("--dry-run", action="store_true", help="show the plan, change nothing")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.set_defaults(func=run)


def _echo(chunk: bytes) -> None:
    sys.stderr.buffer.write(chunk)
    sys.stderr.buffer.flush()


def _masked_rerun(record: Any, ws: Any, argv: list[str], cwd: str) -> str | None:
    """The masked secret of the stored command when the recipe would run it
    (the ledger keeps commands redacted: `redact.masked_secret`), else None."""
    from faultlens.classifier.redact import masked_secret
    from faultlens.recipes import Plan, plan

    if masked_secret(argv) is None:
        return None
    p = plan(record, ws, command=argv, cwd=cwd)
    if not isinstance(p, Plan):
        return None
    for step in (*p.commands, p.verify):
        found = masked_secret(step.argv) if step is not None else None
        if found is not None:
            return found
    return None


def run(args: argparse.Namespace) -> int:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import Ledger, Plan, attempt, availability, plan
    from faultlens.recipes.lifecycle.claim import settled, settled_reason

    ws = workspace_for(args, Path(args.cwd).resolve())
    if not (ws.state / "ledger.sqlite3").exists():
        raise UsageError(f"no ledger in {ws.state}: run `faultlens run -- CMD` first")
    if not args.dry_run:
        from faultlens.recipes.crash_restore import recover_state

        recover_state(ws)  # what a killed faultlens left half done, first
    found = Ledger.open(ws).find_record(args.id)
    if found is None:
        raise UsageError(f"no stored failure with id {args.id!r}")
    data, run_row = found
    record = FailureRecord.from_json(data)
    masked = _masked_rerun(record, ws, run_row.argv, run_row.cwd)
    if masked is not None and not args.dry_run:
        print(
            f"faultlens: not applying: the stored command held a secret, now masked ({masked});"
            " run it again with `faultlens run --recover -- CMD`",
            file=sys.stderr,
        )
        return 1
    avail = availability(record, ws)
    if args.dry_run:
        p = plan(record, ws, command=run_row.argv, cwd=run_row.cwd)
        if isinstance(p, Plan):
            print(f"{p.title}\n  {p.summary}")
            for e in p.edits:
                print(f"  edit {e.path}:{e.start_line + 1}:{e.start_col + 1}: {e.new_text!r}")
            for c in p.commands:
                print(f"  run  {c.display()}")
            if p.verify:
                print(f"  verify: {p.verify.display()} ({p.verify_by})")
        else:
            print(f"no plan: {p.reason}")
            for s in p.suggestions:
                print(f"  suggested: {s}")
        if not avail.enabled:
            print(f"(disabled: {avail.reason})")
        return 0
    if not avail.enabled and not args.force:
        done = settled(Ledger.open(ws).automatic_attempt(record.id, record.task))
        if done is not None:  # asked again: its settled state, no new attempt
            print(f"{done.state}: {done.tried} ({settled_reason(done)})")
            return 0 if done.state == "recovered" else 1
        print(f"faultlens: not applying: {avail.reason}", file=sys.stderr)
        last = Ledger.open(ws).last_outcome(record.id)
        if last and last.get("box"):
            sys.stderr.write(last["box"])
        return 1
    outcome = attempt(
        record,
        ws,
        command=run_row.argv,
        cwd=run_row.cwd,
        echo=_echo,
        manual=True,
    )
    if args.json:
        print(json.dumps(outcome.to_json(), indent=2, ensure_ascii=False))
    else:
        print(f"{outcome.result}: {outcome.tried} ({outcome.reason})")
        if outcome.box:
            sys.stdout.write(outcome.box)
    return 0 if outcome.result == "recovered" else 1
