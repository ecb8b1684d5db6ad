"""Spawn a configured MCP server and complete the `initialize` handshake.

The server's command, arguments and environment come from the project's
MCP configuration file (`.mcp.json`, `.vscode/mcp.json`, `.cursor/mcp.json`,
`.gemini/settings.json`, Codex CLI's `.codex/config.toml`),
never from tool output; they are validated (`load_spec`, pure) and run as an
argv list.  The handshake uses the `mcp` Python SDK (`stdio_client` +
`ClientSession.initialize`) under a timeout, in its own process:

    python -m faultlens.recipes.fixes.mcp_probe --config .mcp.json --server NAME --timeout 10

prints one JSON line (`{"ok": true, "server": ..., "version": ...}` or
`{"ok": false, "error": ..., "stderr": ...}`) and exits 0 / 1 (2: the entry is
unusable).  The caller runs it with a hard timeout on the process group, so
a server that hangs is killed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from faultlens.classifier.files import read_text
from faultlens.classifier.lazyre import lazy_compile
from faultlens.classifier.mcpconfig import SERVER_KEYS

MAX_ARG = 4096
_VAR = lazy_compile(r"\$\{(?P<body>[^}]{1,200})\}")
_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}", re.ASCII)


class BadEntry(ValueError):
    """The configuration entry cannot be spawned as it is."""


@dataclass(slots=True)
class ServerSpec:
    name: str
    command: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str = "."


def _clean(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise BadEntry(f"{what} is not a string")
    if not value or len(value) > MAX_ARG or any(c in value for c in "\x00\r\n"):
        raise BadEntry(f"{what} is empty, too long or has a control character")
    return value


def expand(value: str, env: Mapping[str, str], base: Path) -> str:
    """`${VAR}`, `${VAR:-default}`, `${env:VAR}` (VS Code) and `${workspaceFolder}`;
    anything else (`${input:...}`) needs a human and is refused."""

    def one(m: re.Match[str]) -> str:
        body = m.group("body")
        if body in ("workspaceFolder", "workspaceRoot"):
            return str(base)
        name, sep, default = body.partition(":-")
        if name.startswith("env:"):
            name = name[4:]
        if not _NAME.fullmatch(name):
            raise BadEntry(f"${{{body}}} needs a value only a human can give")
        found = env.get(name)
        if found is None or (sep and not found):
            if sep:
                return default
            raise BadEntry(f"${{{name}}} is not set")
        return found

    return _VAR.sub(one, value)


def load_spec(
    text: str, name: str, env: Mapping[str, str], base: Path, *, toml: bool = False
) -> ServerSpec:
    """The spawnable server `name` of a configuration file's text (`toml`:
    Codex CLI's config.toml, its servers under `mcp_servers`)."""
    data: Any
    if toml:
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise BadEntry(f"the configuration is not valid TOML: {exc}") from None
    else:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise BadEntry(f"the configuration is not valid JSON: {exc}") from None
    entry: Any = None
    if isinstance(data, dict):
        for key in (*SERVER_KEYS, "mcp_servers"):
            servers = data.get(key)
            if isinstance(servers, dict) and isinstance(servers.get(name), dict):
                entry = servers[name]
                break
    if entry is None:
        raise BadEntry(f"no server named {name!r} in the configuration")
    kind = entry.get("type")
    if entry.get("url") or entry.get("serverUrl") or kind in ("http", "sse", "streamable-http"):
        raise BadEntry("a remote (HTTP) server: nothing to spawn")
    command = expand(_clean(entry.get("command"), "command"), env, base)
    if command.startswith("-"):
        raise BadEntry("the command starts with '-'")
    raw_args = entry.get("args", [])
    if not isinstance(raw_args, list):
        raise BadEntry("args is not a list")
    args = [expand(_clean(a, f"args[{i}]"), env, base) for i, a in enumerate(raw_args)]
    raw_env = entry.get("env", {})
    if not isinstance(raw_env, dict):
        raise BadEntry("env is not an object")
    spec_env: dict[str, str] = {}
    for k, v in raw_env.items():
        if not isinstance(k, str) or not _NAME.fullmatch(k):
            raise BadEntry(f"env name {k!r} is not a variable name")
        spec_env[k] = expand(_clean(v, f"env.{k}"), env, base) if v != "" else ""
    cwd = entry.get("cwd", ".")
    cwd = expand(_clean(cwd, "cwd"), env, base) if cwd != "." else "."
    return ServerSpec(name=name, command=command, args=args, env=spec_env, cwd=cwd)


async def handshake(spec: ServerSpec, base: Path, timeout: float) -> dict[str, Any]:
    """Spawn the server and run `initialize` within `timeout` seconds."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    cwd = Path(spec.cwd) if Path(spec.cwd).is_absolute() else base / spec.cwd
    params = StdioServerParameters(
        command=spec.command,
        args=list(spec.args),
        env={**os.environ, **spec.env},
        cwd=str(cwd),
    )
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as errlog:
        try:
            with anyio.fail_after(timeout):
                async with (
                    stdio_client(params, errlog=errlog) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    result = await session.initialize()
            # mcp 2.x names it server_info, 1.x serverInfo.
            info: Any = getattr(result, "server_info", None) or getattr(result, "serverInfo", None)
            return {
                "ok": True,
                "server": getattr(info, "name", None),
                "version": getattr(info, "version", None),
            }
        except TimeoutError:
            error = f"no initialize response within {timeout:g} s"
        except Exception as exc:  # the SDK's errors vary by version: report them all
            error = _describe(exc)
        errlog.seek(0)
        tail = [ln for ln in errlog.read().splitlines() if ln.strip()][-6:]
        return {"ok": False, "error": error, "stderr": tail}


def _describe(exc: BaseException) -> str:
    inner: list[BaseException] = getattr(exc, "exceptions", None) or []
    if inner:
        return "; ".join(_describe(e) for e in inner[:3])
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="faultlens-mcp-probe")
    p.add_argument("--config", required=True, help="the MCP configuration file")
    p.add_argument("--server", required=True, help="the server's name in it")
    p.add_argument("--base", default=".", help="the project folder the file belongs to")
    p.add_argument("--timeout", type=float, default=10.0)
    a = p.parse_args(argv)
    base = Path(a.base).resolve()
    try:
        text = read_text(a.config)
        spec = load_spec(text, a.server, os.environ, base, toml=a.config.endswith(".toml"))
    except (OSError, BadEntry) as exc:
        print(json.dumps({"ok": False, "error": str(exc), "bad_entry": True}), flush=True)
        return 2
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        print(
            json.dumps(
                {"ok": False, "error": "the mcp Python SDK is not installed (pip install mcp)"}
            ),
            flush=True,
        )
        return 2
    result = anyio.run(handshake, spec, base, a.timeout)
    print(json.dumps(result), flush=True)
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
