"""`faultlens hook AGENT`: the coding-agent hook adapter.

Reads the hook payload the agent CLI writes on stdin after a shell tool call
(Claude Code's PostToolUse / PostToolUseFailure, Codex's PostToolUse,
Gemini CLI's AfterTool), classifies the call's output and answers on stdout
with the agent's documented JSON (`hookSpecificOutput.additionalContext`).
Silent, exit 0, when there is nothing to say.  A payload that is not one gets
one line on stderr and exit 1 (the agent shows it to the user and goes on).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

MAX_PAYLOAD = 64 * 1024 * 1024


def add_parser(sub: Any) -> None:
    from faultlens.agents.hook_payloads import AGENTS

    p = sub.add_parser(
        "hook",
        help="classify an agent's tool call from its hook payload (stdin)",
        description="Read a coding agent's hook payload on stdin, classify the shell call's "
        "output, and answer with the agent's hook JSON on stdout (nothing when there is no "
        "failure). The workspace is the agent's project ($CLAUDE_PROJECT_DIR, "
        "$GEMINI_PROJECT_DIR, else the folder the session started in) and its git work "
        "tree; outside a work tree nothing is written and no project config is read.",
    )
    p.add_argument("agent", choices=AGENTS, help="which agent CLI sent the payload")
    p.add_argument("--state-dir", metavar="DIR", help="where the ledger and logs live")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Exit 0 with the answer (or silence); 1 with one line on stderr for a
    payload that cannot be served (never 2, which the agents take for a
    blocking error; never a traceback)."""
    try:
        return _run(args)
    except Exception as exc:  # a crash is one line for the user, and the agent goes on
        text = str(exc).splitlines()[0][:300] if str(exc) else ""
        print(f"faultlens: hook failed: {type(exc).__name__}: {text}".rstrip(": "), file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    from faultlens.agents.hook import respond
    from faultlens.agents.hook_payloads import PayloadError, answer, parse
    from faultlens.agents.hook_root import PlaceError, place

    raw = sys.stdin.buffer.read(MAX_PAYLOAD + 1)
    if len(raw) > MAX_PAYLOAD:
        print("faultlens: hook payload larger than 64 MiB: ignored", file=sys.stderr)
        return 1
    try:
        call = parse(args.agent, json.loads(raw.decode("utf-8", "replace") or "null"))
        where = place(args.agent, call.cwd, os.environ, Path.cwd()) if call else None
    except RecursionError:
        print(f"faultlens: not a {args.agent} hook payload: nested too deeply", file=sys.stderr)
        return 1
    except (ValueError, PayloadError, PlaceError) as exc:
        print(f"faultlens: not a {args.agent} hook payload: {exc}".splitlines()[0], file=sys.stderr)
        return 1
    if call is None or where is None:
        return 0
    state = Path(args.state_dir).resolve() if args.state_dir else None
    text = respond(call, where.root, state, cwd=where.cwd, opened=where.opened or bool(state))
    if text:
        sys.stdout.write(json.dumps(answer(call, text), ensure_ascii=False) + "\n")
    return 0
