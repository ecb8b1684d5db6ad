"""What the MCP rules share: their priority, whether a line is inside an MCP
client's output, what the output says about the server (`mentions`), and
the handshake stage a message names."""

from __future__ import annotations

import re
from functools import lru_cache

from ..base import Hit, LineContext

PRIORITY = 60
SPEC = "https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle"
LOOK_BACK = 90

# Lines that show we are inside an MCP client's output.
_CONTEXT = (
    "mcp/client/",
    "mcp/shared/",
    "mcp\\client\\",
    "@modelcontextprotocol/sdk",
    "MCP server",
    "MCP error",
    "[MCP]",
)
_SCRIPT = re.compile(r"[\w.~/\\-]*?([\w.-]+\.(?:py|js|mjs|cjs|ts))\b")
_SCRIPT_EXTS = (".py", ".js", ".mjs", ".cjs", ".ts")
_HOSTPORT = re.compile(r"\b((?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-fA-F:]+\]):\d{2,5})\b")
_LIBRARY = ("site-packages", "node_modules", "<frozen", "node:internal", "/lib/python", "Node.js v")


def in_mcp_client(ctx: LineContext) -> bool:
    # one search per marker in the joined lines (no marker holds a newline,
    # so none is found across two lines)
    text = "\n".join(ctx.before(LOOK_BACK))
    return any(marker in text for marker in _CONTEXT)


def mentions(ctx: LineContext) -> list[str]:
    """Script names and host:port pairs in the lines before this one (library
    frames left out): what the output says about which server failed."""
    found: list[str] = []
    lines = (*ctx.before(LOOK_BACK), ctx.line)
    # _SCRIPT is slow on long lines it cannot match: try it only where an
    # extension it needs is present; _HOSTPORT only where a ':' is (first
    # asked of all the lines at once: most look-backs hold neither)
    text = "\n".join(lines)
    scripts = any(e in text for e in _SCRIPT_EXTS)
    ports = ":" in text
    for line in lines:
        if (
            scripts
            and any(e in line for e in _SCRIPT_EXTS)
            and not any(lib in line for lib in _LIBRARY)
        ):
            found.extend(_scripts_in(line) if len(line) <= 1024 else _find_scripts(line))
        if ports and ":" in line:
            found.extend(m.group(1) for m in _HOSTPORT.finditer(line))
    return list(dict.fromkeys(found))


def _find_scripts(line: str) -> tuple[str, ...]:
    """The script names _SCRIPT finds in a line."""
    return tuple(m.group(1) for m in _SCRIPT.finditer(line))


# Cached for lines of up to 1,024 characters (pure: its lazy prefix makes it
# slow, and the same stack frames repeat from one failed start to the next).
_scripts_in = lru_cache(maxsize=2048)(_find_scripts)


def sdk_hit(ctx: LineContext, message: str, sdk: str, **extra: object) -> Hit:
    hint: dict[str, object] = {"mentions": mentions(ctx), "stage": stage(message)}
    hint.update(extra)
    return Hit(signal=ctx.line.strip(" |"), message=message, tool=sdk, hint=hint)


def stage(message: str) -> str:
    low = message.lower()
    if "timed out" in low or "timeout" in low:
        return "initialize-timeout"
    if "closed" in low or "exited" in low:
        return "exited"
    if "refused" in low or "connect" in low:
        return "connect"
    return "start"
