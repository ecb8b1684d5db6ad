"""`faultlens revert ID`: undo the fix applied for failure ID (offered when the
fix failed verification).  Restores exactly the files the fix changed, each
only while it still holds what the fix wrote; a file edited since is kept and
named.  Recorded in the ledger and as a `recovery.reverted` event.

Exit status: 0 when something was restored (or nothing needed it), 1 when no
applied fix is known for ID, it was reverted already, or every file changed
since (nothing restored), 2 on bad usage."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .run import add_workspace_args, workspace_for


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "revert",
        help="revert the fix applied for a failure (files unchanged since only)",
        description="Restore the files the fix for failure ID changed (an id or its first "
        "characters, as `faultlens status` shows it), each only while it still holds what the "
        "fix wrote; files edited since are kept and listed.",
    )
    p.add_argument("id", metavar="ID", help="the failure id (or a prefix of it)")
    p.add_argument("--dry-run", action="store_true", help="say what would be restored, do nothing")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)
    p.set_defaults(func=run)


def _say(text: str) -> None:
    sys.stderr.write(f"faultlens: {text}\n")


def run(args: argparse.Namespace) -> int:
    from faultlens.recipes import Ledger, StateUnavailable
    from faultlens.recipes import revert as reverting

    ws = workspace_for(args, Path(args.cwd).resolve())
    try:
        if not (ws.state / "ledger.sqlite3").exists():
            _say(f"no applied fix is known for {args.id} (the ledger is empty)")
            return 1
        ledger = Ledger.open(ws)
        from faultlens.recipes.crash_restore import recover_state

        recover_state(ws)  # a revert (or apply) a killed faultlens left half done
        applied = reverting.find(ledger, args.id)
    except StateUnavailable as exc:
        _say(f"cannot read the ledger: {exc}")
        return 1
    if applied is None:
        _say(f"no applied fix is known for {args.id}")
        return 1
    try:
        if args.dry_run:
            done, _ = reverting.plan_revert(ws, applied)
        else:
            done = reverting.revert(ws, applied, who=ws.settings.worker)
    except reverting.RevertError as exc:
        _say(str(exc))
        return 1
    if args.json:
        print(json.dumps({"dry_run": args.dry_run, **done.to_json()}, ensure_ascii=False))
    title = f" ({applied.title})" if applied.title else ""
    if args.dry_run:
        _say(f"would revert the fix{title}: {done.summary(planned=True)}")
    else:
        _say(f"reverted the fix{title}: {done.summary()}")
    if done.kept:
        _say(f"kept (edited after the fix, not touched): {', '.join(done.kept)}")
    return 0 if done.restored or done.removed or not done.kept else 1
