"""`faultlens mcp`: serve the MCP tools (classify, run, recover, status,
explain) over stdio for a coding agent.  Needs the `mcp` SDK
(`pip install 'faultlens[mcp]'`)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from .main import UsageError
from .run import add_workspace_args, find_root


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve the MCP tools over stdio (for coding agents)",
        description="Serve faultlens' MCP tools over stdio: classify, run, recover, status and "
        "explain, sharing the ledger with the CLI and the editors. The workspace is the git "
        "work tree around --cwd (default: the current directory).",
    )
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)
    p.add_argument(
        "--agent",
        default=os.environ.get("FAULTLENS_AGENT", "mcp"),
        help="who is calling, as the lifecycle log names it (default: mcp, or $FAULTLENS_AGENT)",
    )
    p.add_argument(
        "--session",
        default=os.environ.get("FAULTLENS_SESSION"),
        help="the agent's session id for the lifecycle log (default: $FAULTLENS_SESSION)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from faultlens.agents.mcp_server import serve
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "mcp":
            raise UsageError(
                "the MCP server needs the mcp SDK: pip install 'faultlens[mcp]'"
            ) from None
        raise
    from faultlens.agents.service import Caller

    cwd = Path(args.cwd).resolve()
    if not cwd.is_dir():
        raise UsageError(f"--cwd {args.cwd!r} is not a directory")
    root = Path(args.workspace).resolve() if args.workspace else find_root(cwd)
    state = Path(args.state_dir).resolve() if args.state_dir else None
    serve(root, Caller(agent=args.agent, session=args.session), state)
    return 0
