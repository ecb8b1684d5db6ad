"""`faultlens history sync`: send the runs queued for the team's database."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .main import UsageError
from .run import add_workspace_args, workspace_for


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "history",
        help="the team's history database (PostgreSQL): send what is queued",
        description="Runs are queued in the state dir and sent to the team's database "
        "(FAULTLENS_HISTORY_URL or [history] url) at the end of each run; `sync` sends "
        "what is still queued.",
    )
    p.add_argument("action", choices=("sync",))
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.recipes.team.database import HistoryUnavailable
    from faultlens.recipes.team.sync import sync

    ws = workspace_for(args, Path(args.cwd).resolve())
    try:
        sent, queued = sync(ws)
    except HistoryUnavailable as exc:
        raise UsageError(str(exc)) from None
    print(f"faultlens: sent {sent} run(s) to the team's history; {queued} still queued")
    return 0 if queued == 0 else 1
