"""MCP rule for Gemini CLI: the servers of `mcpServers` in its settings.json
that did not start, as it reports them (with `--debug`, on stderr)."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..agent.common import NodeErrorDump
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, stage
from .hosts import _ServerStderr

_DISCOVERY = lazy_compile(
    r"\[MCP error\] Error during discovery for MCP server '(?P<server>[^']+)': (?P<message>.+?)\s*$"
)
_STDERR = lazy_compile(r"\[MCP STDERR \((?P<server>[^)]+)\)\]:\s+(?P<text>.*)$")
_CRASH_START = lazy_compile(r"^Traceback \(most recent call last\)|^\S+:\d+$")
_TRACE_HEAD = lazy_compile(
    r"^(?:Traceback \(|During handling|The above exception|[\w.]*(?:Error|Exception|Exit)\b)"
)
_NOT_FOUND = lazy_compile(r"\bENOENT\b|command not found|No such file or directory")


class _RelayedCrash(_ServerStderr):
    """The server's traceback as Gemini CLI relays it: each chunk of its
    stderr led by `[DEBUG] [MCP STDERR (NAME)]:  `, the lines of a chunk
    after the first as they came.  Python writes a traceback in many
    writes, so a chunk may be a frame, its code, one caret or an indent."""

    def feed(self, line: str, line_no: int) -> bool:
        relayed = _STDERR.search(line)
        if relayed:
            if relayed.group("server") != self.server:
                return False
            text = relayed.group("text")
            if not text.strip():
                return True  # a chunk of whitespace (a line's indent, written alone)
            # a chunk may begin anywhere in the trace (a frame, its code, the
            # carets under it): what is not a header or the exception is
            # the trace's indented body
            line = text if _TRACE_HEAD.match(text) else f"  {text}"
        return super().feed(line, line_no)


def _stage(message: str) -> str:
    return "not-found" if _NOT_FOUND.search(message) else stage(message)


@rule(
    id="mcp.gemini",
    category=FailureType.MCP_STARTUP,
    tool="gemini-cli",
    pattern=r"\[MCP error\] Error during discovery for MCP server '|\[MCP STDERR \(",
    triggers=("Error during discovery for MCP server '", "[MCP STDERR ("),
    url="https://geminicli.com/docs/tools/mcp-server/",
    priority=PRIORITY + 1,  # before the TypeScript SDK's `MCP error -32000` its message holds
)
def gemini(m: re.Match[str], ctx: LineContext) -> Hit | NodeErrorDump | _RelayedCrash | None:
    """An MCP server configured for Gemini CLI that did not start.

    What it detects: `[MCP error] Error during discovery for MCP server
    'NAME': MESSAGE` (`spawn CMD ENOENT`: a command that is not there; `MCP
    error -32000: Connection closed`: a server that exited before its
    handshake), with the Node error printed after it (its stack and `{
    errno, code, syscall, path }`), and the server's own crash relayed as
    `[DEBUG] [MCP STDERR (NAME)]:  Traceback (most recent call last):` and
    the traceback's lines: that server's failure (its exception the signal,
    its last frame in the project a related location), never a compile
    failure of its own.  A server's lines are one record.  Without
    `--debug` Gemini CLI says only `MCP issues detected. Run /mcp list for
    status.`, naming no server: that is not read.

    Example output (`gemini --debug -p "..."`, Gemini CLI 0.61.0, a server not installed):
        [MCP error] Error during discovery for MCP server 'ledger-docs': spawn ledger-docs-mcp ENOENT Error: spawn ledger-docs-mcp ENOENT

    Recipe: mcp_startup: retry the named server once, then skip it with a
    warning on its entry in settings.json's `mcpServers`.

    References: https://geminicli.com/docs/tools/mcp-server/
    """
    line = ctx.line
    relayed = _STDERR.search(line)
    if relayed:
        if not _CRASH_START.search(relayed.group("text")):
            return None  # a line the server logged, not its crash
        return _RelayedCrash(relayed.group("server"), ctx.line_no)
    found = _DISCOVERY.search(line)
    if found is None:
        return None
    server, message = found.group("server"), found.group("message")
    hit = Hit(
        signal=line.strip()[:500],
        message=message[:500],
        hint={"server": server, "stage": _stage(message)},
        key=("mcp.host", server),  # the record of its relayed crash, when there is one
    )
    return NodeErrorDump(hit, ctx.line_no)  # its stack and `{ errno, code, ... }` follow
