"""Where a failure is shown: its source line, its config entry, or its log line.

Pure apart from reading small files (config files, to find a key's line),
and only inside the workspace root, through `faultlens.classifier.files`
(regular files, bounded).  Paths are resolved from the directory the output
was produced in (the run's cwd, or the workspace root for watched and opened
log files), never from the folder a log file sits in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from faultlens.classifier.columns import ColumnUnit, column_unit

PlacementKind = Literal["source", "config", "log"]

MCP_CONFIGS = (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json")
MAX_CONFIG_BYTES = 4 * 1024 * 1024
PLUGIN_MANIFESTS = (
    "plugin.json",
    ".claude-plugin/plugin.json",
    "package.json",
)


@dataclass(frozen=True, slots=True)
class Placement:
    """A 0-based place in a file.  Columns count code points, or, when
    `column_unit` says so, what the tool counted ("byte": UTF-8 bytes,
    "display": gcc's display columns), converted on the line's text
    (`faultlens.classifier.columns.code_point_column`)."""

    path: Path  # absolute
    line: int
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    kind: PlacementKind = "source"
    column_unit: ColumnUnit | None = None


def resolve(path: str, cwd: Path) -> Path:
    """An absolute path for a record path (relative to the cwd it came from)."""
    p = Path(path)
    return p if p.is_absolute() else (cwd / p)


def _zero(n: int | None) -> int | None:
    return None if n is None else max(0, n - 1)


def place(record: FailureRecord, cwd: Path, root: Path) -> Placement | None:
    """The place to show `record` at, or None (then it is only listed)."""
    if record.source_file:
        line = _zero(record.source_line) or 0
        return Placement(
            path=resolve(record.source_file, cwd),
            line=line,
            column=_zero(record.source_column),
            end_line=_zero(record.end_line),
            end_column=_zero(record.end_column),
            column_unit=column_unit(record.hint.get("column_unit")),
        )
    config = config_entry(record, cwd, root)
    if config is not None:
        return config
    if record.log_file and record.log_line:
        return Placement(path=resolve(record.log_file, root), line=record.log_line - 1, kind="log")
    return None


def _hint_str(record: FailureRecord, *keys: str) -> str | None:
    for k in keys:
        v = record.hint.get(k)
        if isinstance(v, str) and v:
            return v
    return None


def config_entry(record: FailureRecord, cwd: Path, root: Path) -> Placement | None:
    """The config entry of a location-less MCP or plugin failure, when one names it."""
    if record.failure_type == "mcp_startup":
        name = _hint_str(record, "server", "server_name", "name")
        if name is None:
            return None
        found = _mcpconfig_lookup(name, cwd, root)
        if found is not None:
            return found
        for base in dict.fromkeys((cwd, root)):
            for rel in MCP_CONFIGS:
                hit = key_line(base / rel, name, root)
                if hit is not None:
                    return hit
        return None
    if record.failure_type == "plugin_startup":
        manifest = _hint_str(record, "manifest", "config_file", "plugin_manifest")
        key = _hint_str(record, "key", "field", "plugin", "name")
        path = resolve(manifest, cwd) if manifest else None
        if path is not None and _inside(path, root) and path.is_file():
            return (key_line(path, key, root) if key else None) or Placement(
                path=path, line=0, kind="config"
            )
    return None


def _mcpconfig_lookup(name: str, cwd: Path, root: Path) -> Placement | None:
    """The classifier's MCP config reader (every client's file format)."""
    from faultlens.classifier.mcpconfig import find_server

    for base in dict.fromkeys((cwd, root)):
        entry = find_server(base, name)
        if entry is not None:
            col = max(0, entry.column - 1)
            return Placement(
                path=resolve(entry.file, base),
                line=max(0, entry.line - 1),
                column=col,
                end_line=max(0, entry.line - 1),
                end_column=col + len(json.dumps(name)),
                kind="config",
            )
    return None


def _inside(path: Path, root: Path) -> Path | None:
    from faultlens.classifier.files import inside

    return inside(path, [root])


def key_line(path: Path, key: str, root: Path) -> Placement | None:
    """The line where the JSON object key `key` is written in `path` (a config
    entry), when `path` is a readable file inside `root`."""
    from faultlens.classifier.files import text_or_none

    real = _inside(path, root)
    text = None if real is None else text_or_none(real, MAX_CONFIG_BYTES)
    if text is None:
        return None
    pattern = re.compile(r'"' + re.escape(json.dumps(key)[1:-1]) + r'"\s*:')
    for i, line in enumerate(text.splitlines()):
        m = pattern.search(line)
        if m:
            return Placement(
                path=path,
                line=i,
                column=m.start(),
                end_column=m.start() + len(key) + 2,
                end_line=i,
                kind="config",
            )
    return None
