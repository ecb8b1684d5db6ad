"""The mcp_startup recipe's planner (see recipes/mcp_startup.md).

Retry the server once: its entry is found in `.mcp.json`, `.vscode/mcp.json`
or `.cursor/mcp.json` (classifier/mcpconfig.py, by the name the output gave
or the one server the output's words point at); the command, arguments and
environment are read from that file, validated, spawned as an argv list and
taken through the MCP `initialize` handshake with a timeout
(recipes/fixes/mcp_probe.py, the `mcp` Python SDK, in its own process group,
killed on timeout).  Handshake done: recovered.  Still failing: skipped with
a warning that names the server's entry (file:line:column) — the session
goes on degraded; nothing is written to the configuration.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from faultlens.classifier.files import read_text
from faultlens.classifier.mcpconfig import ServerEntry, declared_servers, pick_server
from faultlens.classifier.redact import shown_command

from ..context import PlanContext
from ..fixes.mcp_probe import BadEntry, load_spec
from ..model import Plan, Refusal, VerifyResult
from ..runner import build_env, stream_process
from ..safety import to_workspace_relative

MAX_NAME = 200


def _server_name(ctx: PlanContext) -> str | None:
    name = ctx.record.hint.get("server")
    if not isinstance(name, str) or not name or len(name) > MAX_NAME:
        return None
    if any(ord(c) < 32 for c in name):
        return None
    return name


def find_entry(ctx: PlanContext) -> tuple[ServerEntry, Path] | None:
    """The server's entry and the folder its configuration file belongs to."""
    name = _server_name(ctx)
    mentions = ctx.record.hint.get("mentions")
    words = [str(m) for m in mentions] if isinstance(mentions, list) else []
    seen: list[Path] = []
    for base in (ctx.cwd_path, ctx.root):
        if base in seen:
            continue
        seen.append(base)
        entries = declared_servers(base)
        entry = pick_server(entries, name=name, mentions=() if name else words)
        if entry is not None:
            return entry, base
    return None


def _warning(entry: ServerEntry, where: str) -> str:
    return (
        f"MCP server '{entry.name}' skipped (degraded, work continues): fix its entry at "
        f"{where} and reconnect it; faultlens did not disable or change it"
    )


def _probe(
    ctx: PlanContext, entry: ServerEntry, base: Path, config_rel: str, where: str, timeout: float
) -> VerifyResult:
    argv = [
        sys.executable,
        "-m",
        "faultlens.recipes.fixes.mcp_probe",
        f"--config={base / entry.file}",
        f"--server={entry.name}",
        f"--base={base}",
        f"--timeout={timeout:g}",
    ]
    out: list[bytes] = []
    res = stream_process(
        argv,
        cwd=base,
        env=build_env(ctx.ws, ctx.env),
        timeout=timeout + 30,  # the SDK's own start-up on a loaded machine
        on_stdout=out.append,
    )
    lines = b"".join(out).decode("utf-8", "replace").strip().splitlines()
    try:
        data = json.loads(lines[-1]) if lines else {}
    except ValueError:
        data = {}
    if res.timed_out:
        data = {"ok": False, "error": f"the handshake did not finish within {timeout + 30:g} s"}
    if data.get("ok"):
        return VerifyResult(
            True,
            f"MCP server '{entry.name}' started and completed initialize "
            f"({config_rel}); reconnect it in your client",
        )
    error = str(data.get("error") or f"the probe exited {res.exit_code}")
    stderr = data.get("stderr")
    last = f" (server stderr: {stderr[-1]})" if isinstance(stderr, list) and stderr else ""
    return VerifyResult(
        False,
        f"retried once: {error}{last}. {_warning(entry, where)}",
        exit_code=res.exit_code,
    )


def plan(ctx: PlanContext) -> Plan | Refusal:
    rec = ctx.record
    hint = rec.hint
    found = find_entry(ctx)
    if found is None:
        who = _server_name(ctx)
        return Refusal(
            f"MCP server {who!r} is not declared in .mcp.json, .vscode/mcp.json or .cursor/mcp.json"
            if who
            else "which MCP server failed is not clear from the output",
            suggestions=["check the client's MCP configuration"],
            result="skipped",
        )
    entry, base = found
    config_rel = to_workspace_relative(ctx.ws, base / entry.file)
    where = f"{config_rel}:{entry.line}:{entry.column}"
    if hint.get("stage") == "tool":
        return Refusal(
            f"MCP server '{entry.name}' is running but does not offer the tool "
            f"{hint.get('tool')!r}; re-spawning it will not add it",
            details=[f"Entry: {where}"],
            result="skipped",
        )
    try:
        text = read_text(base / entry.file)
        spec = load_spec(text, entry.name, build_env(ctx.ws, ctx.env), base)
    except (OSError, UnicodeDecodeError, BadEntry) as exc:
        return Refusal(
            f"MCP server '{entry.name}' cannot be retried from its entry: {exc}",
            details=[_warning(entry, where)],
            result="skipped",
        )
    timeout = ctx.setting("handshake.timeout", 10)
    timeout = float(timeout) if isinstance(timeout, int | float) and 0 < timeout <= 300 else 10.0

    def check() -> VerifyResult:
        return _probe(ctx, entry, base, config_rel, where, timeout)

    shown = shown_command([spec.command, *spec.args])
    return Plan(
        failure_id=rec.id,
        failure_type="mcp_startup",
        title=f"Restart MCP server '{entry.name}' once (initialize within {timeout:g} s)",
        summary=f"spawn `{shown}` from {config_rel} and complete the MCP initialize handshake",
        verify_by="check",
        check=check,
        on_failure="skipped",
        success_note=f"MCP server '{entry.name}' answers initialize again",
        details=[f"Entry: {where}", f"Command (from {config_rel}): {shown}"],
    )
