"""What the MCP rules share: their priority, whether a line is inside an MCP
client's output, what the output says about the server (`mentions`), and
the handshake stage a message names."""

from __future__ import annotations

import re
from functools import lru_cache

from ...lazyre import lazy_compile
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
_SCRIPT = lazy_compile(r"[\w.~/\\-]*?([\w.-]+\.(?:py|js|mjs|cjs|ts))\b")
_PATH = lazy_compile(r"[\w.~/\\-]+")  # the characters _SCRIPT's matches are made of
_SCRIPT_END = lazy_compile(r"\.(?:py|js|mjs|cjs|ts)\b")  # how each of them ends
_HOSTPORT = lazy_compile(r"\b((?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-fA-F:]+\]):\d{2,5})\b")
# What every _HOSTPORT match holds, a port after the end of its address:
# _HOSTPORT has no literal to look for, so it is tried only on lines holding
# a _PORT (a literal first: found fast) right after an _ADDRESS_END.
_PORT = lazy_compile(r":\d\d")
_ADDRESS_END = lazy_compile(r"(?:\.\d{1,3}|localhost|\])\Z")
_LIBRARY = ("site-packages", "node_modules", "<frozen", "node:internal", "/lib/python", "Node.js v")


def in_mcp_client(ctx: LineContext) -> bool:
    # one search per marker in the joined lines (no marker holds a newline,
    # so none is found across two lines)
    text = "\n".join(ctx.before(LOOK_BACK))
    return any(marker in text for marker in _CONTEXT)


def mentions(ctx: LineContext) -> list[str]:
    """Script names and host:port pairs in the lines before this one (library
    frames left out): what the output says about which server failed."""
    lines = (*ctx.before(LOOK_BACK), ctx.line)
    # Each regex is tried only on the lines holding what its matches end
    # with (a script extension; an address's end and a port), found in all
    # the lines at once: most look-backs hold neither.
    text = "\n".join(lines)
    scripts = _lines_with(text, _SCRIPT_END)
    ports = _lines_with(text, _PORT, _ADDRESS_END)
    found: list[str] = []
    for i in sorted(scripts | ports):
        line = lines[i]
        if i in scripts and not any(lib in line for lib in _LIBRARY):
            found.extend(_scripts_in(line) if len(line) <= 1024 else _find_scripts(line))
        if i in ports:
            found.extend(m.group(1) for m in _HOSTPORT.finditer(line))
    return list(dict.fromkeys(found))


def _lines_with(
    text: str, pattern: re.Pattern[str], after: re.Pattern[str] | None = None
) -> set[int]:
    """The indexes of the lines of `text` that `pattern` (which never matches
    a line end) matches; with `after`, only where `after` matches the (at
    most 9) characters right before the match."""
    found: set[int] = set()
    line = pos = 0
    for m in pattern.finditer(text):
        at = m.start()
        if after is not None and after.search(text, max(0, at - 9), at) is None:
            continue
        line += text.count("\n", pos, at)
        pos = at
        found.add(line)
    return found


def _find_scripts(line: str) -> tuple[str, ...]:
    """The script names _SCRIPT finds in a line.

    A match is made of _PATH characters only, and the character after a
    run of them is not a word character (as at the end of the line): the
    matches in the line are those in each run.  _SCRIPT's lazy prefix makes
    it cubic in the length of a run it tries, so it is tried only on the
    runs holding a script extension, not on every word of the line (a
    `.test.tsx` or `.json` line holds none)."""
    if _SCRIPT_END.search(line) is None:
        return ()
    return tuple(
        m.group(1)
        for run in _PATH.findall(line)
        if _SCRIPT_END.search(run)
        for m in _SCRIPT.finditer(run)
    )


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
