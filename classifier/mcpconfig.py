"""Where an MCP server is declared: its entry in `.mcp.json`,
`.vscode/mcp.json`, `.cursor/mcp.json`, Gemini CLI's `.gemini/settings.json`
or Codex CLI's `.codex/config.toml` (`[mcp_servers.NAME]`) under the working
directory.

An MCP start-up failure rarely names a source file; the place a human fixes
it is the server's entry in the client configuration.  This module finds
that entry (file, line and column of the server's `"name":` key) so the
classifier can put a location-less mcp_startup record there, the language
server can show it there, and the mcp_startup recipe knows which command to
re-spawn.

The JSON scanning is pure (`key_positions`, `parse_servers`); only
`declared_servers` reads files.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from .files import inside, text_or_none
from .lazyre import lazy_compile
from .redact import redact, redact_argv

if TYPE_CHECKING:
    from .record import FailureRecord

# Where each client keeps its project configuration, and the key its servers
# live under (Claude Code, Cursor and Gemini CLI: "mcpServers"; VS Code:
# "servers"; Codex CLI's TOML: the tables `[mcp_servers.NAME]`).
CONFIG_FILES: tuple[str, ...] = (
    ".mcp.json",
    ".vscode/mcp.json",
    ".cursor/mcp.json",
    ".gemini/settings.json",
    ".codex/config.toml",
)
_TOML_TABLE = lazy_compile(
    r'^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:"(?P<q>[^"]+)"|(?P<bare>[\w-]+))[ \t]*\]'
)
SERVER_KEYS: tuple[str, ...] = ("mcpServers", "servers")
MAX_CONFIG_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class ServerEntry:
    """One declared MCP server."""

    name: str
    file: str  # relative to the cwd, posix separators
    line: int  # 1-based line of the server's key
    column: int  # 1-based column of the key's opening quote
    command: str | None = None
    args: tuple[str, ...] = ()
    url: str | None = None
    env: tuple[str, ...] = field(default=())  # names of the variables it sets

    def words(self) -> list[str]:
        """What output may mention about this server: its name, command,
        arguments (and their file names) and URL (and its host:port)."""
        out = [self.name]
        for part in (self.command, *self.args):
            if part:
                out.append(part)
                out.append(PurePosixPath(part.replace("\\", "/")).name)
        if self.url:
            out.append(self.url)
            rest = self.url.split("://", 1)[-1]
            out.append(rest.split("/", 1)[0])
        return [w for w in out if w]


def _scan_string(text: str, i: int) -> int:
    """Index just past the JSON string starting at text[i] == '"'."""
    i += 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        i += 1
    return n


def key_positions(text: str) -> dict[tuple[str, ...], tuple[int, int]]:
    """The 1-based (line, column) of every object key, by its path of keys.

    Array elements add their index (as a string) to the path.  Tolerates
    broken JSON: it scans what it can and stops at the end of the text.
    """
    out: dict[tuple[str, ...], tuple[int, int]] = {}
    # Each open container: (is_object, path, [index of the current array element])
    stack: list[tuple[bool, tuple[str, ...], list[int]]] = []
    pending_key: tuple[str, ...] | None = None  # path of the value about to come
    line, line_start = 1, 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            i += 1
        elif c == '"':
            end = _scan_string(text, i)
            j = end
            while j < n and text[j] in " \t\r":
                j += 1
            in_object = bool(stack) and stack[-1][0]
            if in_object and j < n and text[j] == ":" and pending_key is None:
                try:
                    key = json.loads(text[i:end])
                except ValueError:
                    key = text[i + 1 : end - 1]
                path = (*stack[-1][1], str(key))
                out.setdefault(path, (line, i - line_start + 1))
                pending_key = path
                i = j + 1
                continue
            pending_key = None
            i = end
        elif c in "{[":
            if pending_key is not None:
                path = pending_key
            elif stack and not stack[-1][0]:
                path = (*stack[-1][1], str(stack[-1][2][0]))
            else:
                path = stack[-1][1] if stack else ()
            stack.append((c == "{", path, [0]))
            pending_key = None
            i += 1
        elif c in "}]":
            if stack:
                stack.pop()
            pending_key = None
            i += 1
        elif c == ",":
            if stack and not stack[-1][0]:
                stack[-1][2][0] += 1  # the next array element
            pending_key = None
            i += 1
        else:
            i += 1
    return out


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, str | int | float))
    return ()


def parse_toml_servers(text: str, file: str) -> list[ServerEntry]:
    """The servers a Codex CLI config.toml declares, each at the line of its
    `[mcp_servers.NAME]` table (empty when the text is not TOML)."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    servers = data.get("mcp_servers")
    if not isinstance(servers, dict):
        return []
    lines: dict[str, int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        m = _TOML_TABLE.match(line)
        if m:
            lines.setdefault(m.group("q") or m.group("bare"), no)
    entries: list[ServerEntry] = []
    for name, spec in servers.items():
        if not isinstance(spec, dict):
            continue
        command, url, env = spec.get("command"), spec.get("url"), spec.get("env")
        entries.append(
            ServerEntry(
                name=str(name),
                file=file,
                line=lines.get(str(name), 1),
                column=1,
                command=command if isinstance(command, str) else None,
                args=_strings(spec.get("args")),
                url=url if isinstance(url, str) else None,
                env=tuple(str(k) for k in env) if isinstance(env, dict) else (),
            )
        )
    return entries


def parse_servers(text: str, file: str) -> list[ServerEntry]:
    """The servers a configuration file's text declares (empty when the text
    is not JSON or declares none; a `.toml` file is read as Codex CLI's)."""
    if file.endswith(".toml"):
        return parse_toml_servers(text, file)
    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    positions = key_positions(text)
    entries: list[ServerEntry] = []
    for top in SERVER_KEYS:
        servers = data.get(top)
        if not isinstance(servers, dict):
            continue
        for name, spec in servers.items():
            if not isinstance(spec, dict):
                continue
            line, column = positions.get((top, str(name)), (1, 1))
            command = spec.get("command")
            url = spec.get("url") or spec.get("serverUrl")
            env = spec.get("env")
            entries.append(
                ServerEntry(
                    name=str(name),
                    file=file,
                    line=line,
                    column=column,
                    command=command if isinstance(command, str) else None,
                    args=_strings(spec.get("args")),
                    url=url if isinstance(url, str) else None,
                    env=tuple(str(k) for k in env) if isinstance(env, dict) else (),
                )
            )
    return entries


def declared_servers(cwd: str | os.PathLike[str]) -> list[ServerEntry]:
    """Every server declared by the configuration files under `cwd`, in the
    order of CONFIG_FILES (unreadable or invalid files are skipped)."""
    base = Path(cwd)
    entries: list[ServerEntry] = []
    for rel in CONFIG_FILES:
        real = inside(base / rel, [base])  # a symlink out of the tree is not followed
        text = None if real is None else text_or_none(real, MAX_CONFIG_BYTES)
        if text is not None:
            entries.extend(parse_servers(text, rel))
    return entries


def find_server(cwd: str | os.PathLike[str], name: str) -> ServerEntry | None:
    """The entry of the server called `name`, or None."""
    return pick_server(declared_servers(cwd), name=name)


def pick_server(
    entries: Iterable[ServerEntry], *, name: str | None = None, mentions: Iterable[str] = ()
) -> ServerEntry | None:
    """Choose the server a failure is about.

    By name when the output named it; otherwise the one server whose command,
    arguments or URL the output mentioned (a script path in a stack trace, a
    host:port); otherwise the only server declared.  None when it is not
    clear which.
    """
    entries = list(entries)
    if name:
        for e in entries:
            if e.name == name:
                return e
        folded = name.casefold()
        for e in entries:
            if e.name.casefold() == folded:
                return e
        return None
    said = {m for m in mentions if m}
    if said:
        # The server whose command, arguments or URL share the most words with
        # what the output said ("npx" alone fits many; "@acme/mcp@1" one).
        scores = {e.name: len(said & set(e.words()[1:])) for e in entries}
        best = max(scores.values(), default=0)
        winners = [e for e in entries if best and scores[e.name] == best]
        if len({e.name for e in winners}) == 1:
            return winners[0]
    if len({e.name for e in entries}) == 1:
        return entries[0]
    return None


def _mcp_records(records: Iterable[FailureRecord]) -> Iterator[FailureRecord]:
    for r in records:
        if r.failure_type == "mcp_startup" and r.source_file is None:
            yield r


def place_records(records: Iterable[FailureRecord], cwd: str | os.PathLike[str]) -> None:
    """Put every location-less mcp_startup record on its server's entry.

    The record's hint names the server (`server`) or what the output said
    about it (`mentions`); the chosen server's name, config file and command
    are added to the hint for the recipe.
    """
    pending = list(_mcp_records(records))
    if not pending:
        return
    entries = declared_servers(cwd)
    if not entries:
        return
    for rec in pending:
        hint = rec.hint
        name = hint.get("server") if isinstance(hint.get("server"), str) else None
        mentions = hint.get("mentions") or []
        entry = pick_server(entries, name=name, mentions=mentions)
        if entry is None:
            continue
        rec.source_file = entry.file
        rec.source_line = entry.line
        rec.source_column = entry.column
        hint["server"] = entry.name
        hint["config"] = entry.file
        if entry.command:  # from the config, added after redaction: redacted here
            # (not "command": that key is the run's own command line, re-run to verify)
            hint["server_command"] = redact_argv([entry.command, *entry.args])
        if entry.url:
            hint["url"] = redact(entry.url)


def _server_scripts(rec: FailureRecord) -> set[str]:
    """The file arguments of the command that started a record's server
    (hint["server_command"], set by place_records), posix, no `./`."""
    argv = rec.hint.get("server_command")
    if not isinstance(argv, list):
        return set()
    out = set()
    for word in argv[1:]:
        if isinstance(word, str) and "." in PurePosixPath(word).name and not word.startswith("-"):
            out.add(str(PurePosixPath(word.replace("\\", "/"))))
    return out


def _is_script(file: str, scripts: set[str]) -> bool:
    path = file.replace("\\", "/")
    return any(path == s or path.endswith("/" + s) for s in scripts)


def fold_server_crashes(records: list[FailureRecord]) -> list[FailureRecord]:
    """One record an MCP server: the mcp_startup records naming the same
    server (a host that reports a failure twice, the SDK and the host both)
    are one, and the error the server itself printed before it died (a
    Python traceback or a Node stack in its own script, relayed as the
    server's stderr) is that record's cause, kept as its first related
    location, not a compile or infra failure of its own."""
    by_server: dict[str, FailureRecord] = {}
    for r in records:
        server = r.hint.get("server")
        if r.failure_type == "mcp_startup" and isinstance(server, str) and server:
            by_server.setdefault(server, r)
    if not by_server:
        return records
    from .record import Location

    scripts = {name: _server_scripts(r) for name, r in by_server.items()}
    out: list[FailureRecord] = []
    for r in records:
        server = r.hint.get("server")
        head = by_server.get(server) if isinstance(server, str) else None
        if head is not None and head is not r and r.failure_type == "mcp_startup":
            _note(head, r, "the same server's failure, reported again")
            continue
        if r.failure_type != "mcp_startup" and r.source_file and "runner" not in r.hint:
            owner = next(
                (n for n, s in scripts.items() if s and _is_script(r.source_file, s)), None
            )
            if owner is not None:
                head = by_server[owner]
                crash = Location(file=r.source_file, line=r.source_line, message=r.signal[:300])
                head.related.insert(0, crash)
                head.hint.setdefault("crash", r.signal[:500])
                _note(head, r, "the server's own error before it exited")
                continue
        out.append(r)
    return out


def _note(head: FailureRecord, other: FailureRecord, why: str) -> None:
    seen = head.hint.setdefault("also_seen_as", [])
    if isinstance(seen, list) and len(seen) < 20:
        seen.append({"failure_type": other.failure_type.value, "rule": other.rule, "why": why})
