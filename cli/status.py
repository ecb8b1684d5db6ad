"""`faultlens status`: tasks, attempts and escalations from the ledger."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from .run import add_workspace_args, workspace_for


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "status",
        help="show tasks, attempts and escalations from the ledger",
        description="Show what the ledger knows: tasks (status, retries used), attempts by "
        "result, escalations (with --box, the boxed display of each), and the last run.",
    )
    p.add_argument("--cwd", default=".", help="a folder inside the workspace (default: .)")
    add_workspace_args(p)
    p.add_argument("--json", action="store_true", help="print the status as JSON")
    p.add_argument("--box", action="store_true", help="print the boxed display of escalations")
    p.add_argument(
        "--history",
        action="store_true",
        help="list the worst offenders: the failures seen most often across runs, with how "
        "often they were flaky and how each occurrence ended",
    )
    p.add_argument("--task", help="with --history: only this task's runs")
    p.add_argument(
        "--limit", type=int, default=20, help="with --history: how many to list (default: 20)"
    )
    p.set_defaults(func=run)


def _ago(ts: float) -> str:
    s = max(0, int(time.time() - ts))
    if s < 120:
        return f"{s}s ago"
    if s < 7200:
        return f"{s // 60}m ago"
    return f"{s // 3600}h ago"


def render(status: dict[str, Any], boxes: bool) -> str:
    lines: list[str] = []
    tasks = status["tasks"]
    if not tasks:
        return "faultlens: the ledger is empty (no runs yet)\n"
    lines.append(f"{'TASK':<20}  {'STATUS':<10}  {'RETRIES':<7}  ATTEMPTS")
    for t in tasks:
        counts = ", ".join(f"{n} {k}" for k, n in sorted(t["attempts"].items())) or "-"
        lines.append(f"{t['task']:<20}  {t['status']:<10}  {t['retries']:<7}  {counts}")
    esc = status["escalations"]
    lines.append("")
    lines.append(f"Escalations: {len(esc)}")
    for e in esc:
        rec = e.get("record") or {}
        where = rec.get("source_file") or "-"
        if rec.get("source_line"):
            where += f":{rec['source_line']}"
        lines.append(
            f"  {e['failure_id']}  {e['task']}  {e['failure_type']}  {where}  ({_ago(e['created'])})"
        )
        lines.append(f"      tried: {e['tried']}")
        lines.append(f"      why:   {e['reason']}")
        if boxes and e.get("box"):
            lines.extend("      " + b for b in e["box"].splitlines())
    last = status.get("last_run")
    if last:
        from faultlens.classifier.redact import shown_command

        lines.append("")
        lines.append(
            f"Last run: {shown_command(last['argv'])} (task {last['task']}, exit {last['exit_code']}, "
            f"{_ago(last['started'])})"
        )
    agents = status.get("agents") or []
    if agents:
        lines.append("")
        lines.append("Agent sessions (newest first):")
        for a in agents[:10]:
            lines.append(
                f"  {a['worker']:<14}  {a['session'] or '-':<38}  {a['events']} events, last {a['last']}"
            )
    return "\n".join(lines) + "\n"


def render_history(rows: list[dict[str, Any]]) -> str:
    """The worst offenders, one failure per line with its history."""
    if not rows:
        return "faultlens: no failure in the ledger's history yet\n"
    lines = [f"{'SEEN':>4}  {'FLAKY':>5}  {'CATEGORY':<17}  {'LOCATION':<40}  HISTORY"]
    for h in rows:
        where = h["where"] or "-"
        where = where if len(where) <= 40 else "…" + where[-39:]
        lines.append(
            f"{h['times']:>4}  {h['flaky']:>5}  {h['failure_type'] or '-':<17}  {where:<40}"
            f"  {h['summary']}"
        )
        ended = ", ".join(f"{n} {k}" for k, n in sorted(h["endings"].items()))
        what = h["test"] or h["signal"]
        what = what if len(what) <= 70 else what[:69] + "…"
        lines.append(f"{'':>4}  {'':>5}  {h['failure_id']:<17}  {what}")
        lines.append(f"{'':>4}  {'':>5}  {'':<17}  ended: {ended}")
    return "\n".join(lines) + "\n"


def run_history(args: argparse.Namespace) -> int:
    from faultlens.recipes import Ledger, history

    ws = workspace_for(args, Path(args.cwd).resolve())
    rows: list[dict[str, Any]] = []
    if (ws.state / "ledger.sqlite3").exists():
        ledger = Ledger.open(ws)
        rows = [history.as_json(h) for h in history.worst(ledger, max(1, args.limit), args.task)]
    from faultlens.recipes.team.sync import team_most_seen

    team, why_not = team_most_seen(ws, max(1, args.limit))
    if args.json:
        out: dict[str, Any] = {"history": rows}
        if team or why_not:
            out["team"] = {"failures": [h.to_json() for h in team], "unavailable": why_not}
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(render_history(rows))
        if team:
            sys.stdout.write("\nThe team's history:\n")
            for h in team:  # the database's text is data: no control sequence reaches the terminal
                what = _printable(h.test_id or h.signal)
                what = what if len(what) <= 70 else what[:69] + "…"
                sys.stdout.write(f"  {h.failure_type:<17} {what}\n    {h.describe()}\n")
        elif why_not:
            print(f"faultlens: team history: {why_not}", file=sys.stderr)
    return 0


def _printable(text: str) -> str:
    import re

    from faultlens.classifier.text import visible

    return re.sub(r"[\x00-\x1f\x7f-\x9f]", "?", visible(text))


def run(args: argparse.Namespace) -> int:
    from faultlens.recipes import EventLog, Ledger

    if args.history:
        return run_history(args)
    ws = workspace_for(args, Path(args.cwd).resolve())
    if not (ws.state / "ledger.sqlite3").exists():
        status: dict[str, Any] = {"tasks": [], "escalations": [], "last_run": None}
    else:
        status = Ledger.open(ws).status()
    status["agents"] = EventLog(ws).sessions()  # who ran it: MCP clients and hooks
    if args.json:
        print(json.dumps(status, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(render(status, args.box))
    return 0
