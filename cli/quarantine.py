"""`faultlens quarantine add|remove|list [TEST]`: the team's quarantined
tests (known flaky ones whose failures are reported, not blocking)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .main import UsageError
from .run import add_workspace_args, workspace_for


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "quarantine",
        help="quarantine a known flaky test for the whole team (list, add, remove)",
        description="Quarantined tests' failures are reported as quarantined, not blocking. "
        "Kept in the team's history database (FAULTLENS_HISTORY_URL or [history] url); "
        "`[history] quarantine_after = N` quarantines a test flaky N times in 7 days.",
    )
    p.add_argument("action", choices=("add", "remove", "list"))
    p.add_argument("test", nargs="?", help="the test id, as faultlens shows it")
    p.add_argument("--reason", default="", help="with add: why")
    p.add_argument("--json", action="store_true", help="with list: as JSON")
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.recipes.team.database import HistoryUnavailable
    from faultlens.recipes.team.sync import quarantine

    if args.action != "list" and not args.test:
        raise UsageError(f"quarantine {args.action}: name the test")
    ws = workspace_for(args, Path(args.cwd).resolve())
    try:
        result = quarantine(ws, args.action, args.test, args.reason)
    except HistoryUnavailable as exc:
        raise UsageError(str(exc)) from None
    if args.action == "list":
        if args.json:
            print(json.dumps({"quarantine": result}, indent=2, ensure_ascii=False))
        else:
            for q in result:
                print(f"{q['test_id']}  ({q['reason']}; {q['added_by']})")
            if not result:
                print("faultlens: no test is quarantined")
        return 0
    if args.action == "add":
        print(f"faultlens: quarantined {args.test}")
        return 0
    if not result:
        raise UsageError(f"{args.test} was not quarantined")
    print(f"faultlens: {args.test} is no longer quarantined")
    return 0
