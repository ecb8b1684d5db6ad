"""`faultlens explain ID`: what happened to one stored failure — its state,
the boxed escalation note (what was classified, what was tried, why it
failed) and the options, then the recipe of its category."""

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
        "explain",
        help="show one failure's escalation note, options and recipe",
        description="Show what the ledger knows of one stored failure (ID: its id or a "
        "unique prefix): whether its one attempt was made and how it ended, the boxed "
        "escalation note, the options, and the recipe document of its category.",
    )
    p.add_argument("id", metavar="ID", help="the failure id (or a prefix of it)")
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)
    p.add_argument("--json", action="store_true", help="print it as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.agents.service import AgentError, Agents, Caller

    ws = workspace_for(args, Path(args.cwd).resolve())
    agents = Agents(ws.root, Caller(agent="cli"), ws.state_dir)
    try:
        result = agents.explain(args.id, limit=None)  # a terminal shows the whole box
    except AgentError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return 0
    out = [f"failure {result.failure_id}: {result.state}"]
    if result.box:
        out.append(result.box.rstrip("\n"))
    if result.options:
        out.append("Options:")
        out.extend(f"  {o}" for o in result.options)
    out.append("")
    out.append(result.recipe.rstrip("\n"))
    sys.stdout.write("\n".join(out) + "\n")
    return 0
