"""`faultlens explain ID`: what happened to one stored failure — its state,
the boxed escalation note (what was classified, what was tried, why it
failed) and the options, then the recipe of its category."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .main import UsageError
from .run import add_workspace_args, workspace_for

if TYPE_CHECKING:
    from faultlens.recipes.explain import Explanation


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
    from faultlens.recipes.explain import NotStored, explain

    ws = workspace_for(args, Path(args.cwd).resolve())
    try:
        found = explain(ws, args.id)  # a terminal shows the whole box
    except NotStored as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(_as_json(found), indent=2, ensure_ascii=False))
        return 0
    out = [f"failure {found.failure_id}: {found.state}"]
    if found.box:
        out.append(found.box.rstrip("\n"))
    if found.options:
        out.append("Options:")
        out.extend(f"  {o}" for o in found.options)
    out.append("")
    out.append(found.recipe.rstrip("\n"))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _as_json(found: Explanation) -> dict[str, Any]:
    """The MCP `explain` answer's shape (`truncated` always false here)."""
    return {**dataclasses.asdict(found), "truncated": False}
