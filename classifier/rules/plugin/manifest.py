"""The plugin rule for a manifest (plugin.json, package.json, ...) that is
not valid JSON, placed at its line and column when the tool says where."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, lines_above
from ..registry import rule
from .common import PRIORITY

if TYPE_CHECKING:
    pass

# File names that are plugin / extension / package manifests.
_MANIFEST = lazy_compile(
    r"(?:^|/)(?:plugin|package|manifest|extension|marketplace|hooks|\.?[\w-]*plugin[\w-]*)\.json$"
)


def is_manifest(path: str) -> bool:
    return bool(_MANIFEST.search(path.replace("\\", "/")))


def _plugin_name(manifest: str) -> str | None:
    parts = PurePosixPath(manifest.replace("\\", "/")).parts[:-1]
    if parts and parts[-1].startswith("."):  # .claude-plugin/plugin.json: the folder above
        parts = parts[:-1]
    if not parts or parts[-1] in ("/", ".", ".."):
        return None
    return parts[-1]


_NPM_JSON = lazy_compile(
    r"^npm (?:error|ERR!) JSON\.parse Invalid (?P<file>[\w./-]*package\.json): JSONParseError: (?P<message>.+?)"
    r"(?: at position (?P<pos>\d+))?(?: \(line (?P<line>\d+) column (?P<col>\d+)\))?(?: while parsing .*)?$"
)
_NODE_JSON = lazy_compile(r"SyntaxError: (?P<file>[^:\s][^:]*\.json): (?P<message>.+)$")
_PY_JSON = lazy_compile(
    r"(?P<message>Expecting [^:]+|Unterminated string starting at|Invalid control character at"
    r"|Invalid \\escape|Extra data|Expecting value|Illegal trailing comma before end of \w+)"
    r": line (?P<line>\d+) column (?P<col>\d+) \(char (?P<pos>\d+)\)"
)
_JSON_FILE = lazy_compile(r"([\w.~/\\-]+\.json)\b")


@rule(
    id="plugin.manifest_json",
    category=FailureType.PLUGIN_STARTUP,
    tool="json",
    pattern=(
        r"^npm (?:error|ERR!) JSON\.parse Invalid [\w./-]*package\.json: "
        r"|SyntaxError: [^:\s][^:]*\.json: "
        r"|(?:Expecting [^:]+|Unterminated string starting at|Invalid control character at|Invalid \\escape"
        r"|Extra data|Expecting value|Illegal trailing comma before end of \w+): line \d+ column \d+ \(char \d+\)"
    ),
    triggers=("JSON.parse Invalid", "SyntaxError: ", ": line "),
    url="https://docs.npmjs.com/cli/v10/configuring-npm/package-json",
    priority=PRIORITY,
)
def manifest_json(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A plugin or package manifest that is not valid JSON.

    What it detects: npm's `npm error JSON.parse Invalid package.json:
    JSONParseError: Expected ',' or '}' after property value in JSON at
    position 77`, Node's `SyntaxError: /path/plugin.json: Unexpected token
    ...` when a host `require()`s a manifest, and Python's `json` error
    (`Expecting ',' delimiter: line 8 column 3 (char 153)`, from `python -m
    json.tool plugin.json` or a loader) when the manifest's name is in the
    lines just before (the echoed command).  Only manifest-like files count
    (plugin.json, package.json, manifest.json, extension.json, hooks.json,
    *plugin*.json).

    Example output (`npm install`, npm 10):
        npm error JSON.parse Invalid package.json: JSONParseError: Expected ',' or '}' after property value in JSON at position 77 while parsing near "..."

    Recipe: plugin_startup: the record is at the error's line and column in
    the manifest (computed from the offset, or by parsing the manifest when
    the tool gave neither); one unambiguous repair (a missing or trailing
    comma) is applied, anything else is escalated.

    References: https://docs.npmjs.com/cli/v10/configuring-npm/package-json, https://docs.python.org/3/library/json.html#json.JSONDecodeError
    """
    line = ctx.line
    npm = _NPM_JSON.search(line)
    file: str | None = None
    pos = lnum = col = None
    message = ""
    if npm:
        file, message = npm.group("file"), npm.group("message")
        pos, lnum, col = npm.group("pos"), npm.group("line"), npm.group("col")
    else:
        node = _NODE_JSON.search(line)
        py = _PY_JSON.search(line)
        if node:
            file, message = node.group("file").strip(), node.group("message")
            at = re.search(r"at position (\d+)", message)
            pos = at.group(1) if at else None
        elif py:
            message = py.group("message")
            pos, lnum, col = py.group("pos"), py.group("line"), py.group("col")
            for prev in lines_above(ctx, 5):
                found = [f for f in _JSON_FILE.findall(prev) if is_manifest(f)]
                if found:
                    file = found[-1]
                    break
    if not file or not is_manifest(file):
        return None
    hint: dict[str, Any] = {"manifest": file, "json_error": message.strip()}
    if pos is not None:
        hint["position"] = int(pos)
    plugin = _plugin_name(file)
    if plugin:
        hint["plugin"] = plugin
    return Hit(
        signal=line.strip(),
        message=f"invalid JSON in {PurePosixPath(file).name}: {message.strip()}",
        file=file,
        line=int(lnum) if lnum else None,
        column=int(col) if col else None,
        hint=hint,
    )
