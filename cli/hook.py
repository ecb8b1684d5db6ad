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
import sys
from pathlib import Path
from typing import Any

from .main import UsageError
from .run import find_root

MAX_PAYLOAD = 64 * 1024 * 1024


def add_parser(sub: Any) -> None:
    from faultlens.agents.hook_payloads import AGENTS

    p = sub.add_parser(
        "hook",
        help="classify an agent's tool call from its hook payload (stdin)",
        description="Read a coding agent's hook payload on stdin, classify the shell call's "
        "output, and answer with the agent's hook JSON on stdout (nothing when there is no "
        "failure). The workspace is the git work tree around the payload's cwd.",
    )
    p.add_argument("agent", choices=AGENTS, help="which agent CLI sent the payload")
    p.add_argument("--state-dir", metavar="DIR", help="where the ledger and logs live")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.agents.hook import respond
    from faultlens.agents.hook_payloads import PayloadError, answer, parse

    raw = sys.stdin.buffer.read(MAX_PAYLOAD + 1)
    if len(raw) > MAX_PAYLOAD:
        print("faultlens: hook payload larger than 64 MiB: ignored", file=sys.stderr)
        return 1
    try:
        call = parse(args.agent, json.loads(raw.decode("utf-8", "replace") or "null"))
    except (ValueError, PayloadError) as exc:
        print(f"faultlens: not a {args.agent} hook payload: {exc}".splitlines()[0], file=sys.stderr)
        return 1
    if call is None:
        return 0
    cwd = Path(call.cwd) if call.cwd else Path.cwd()
    if not cwd.is_dir():
        raise UsageError(f"the payload's cwd {call.cwd!r} is not a directory")
    root = find_root(cwd.resolve())
    state = Path(args.state_dir).resolve() if args.state_dir else None
    text = respond(call, root, state)
    if text:
        sys.stdout.write(json.dumps(answer(call, text), ensure_ascii=False) + "\n")
    return 0
