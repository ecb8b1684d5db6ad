"""Plugin and extension start-up failures: an invalid manifest, a plugin
that is not there, a missing plugin dependency, a hook that fails to load.

The record is placed in the plugin's manifest or configuration whenever
one is named: a JSON syntax error at its line and column (tools that print
only an offset, or nothing, are located by parsing the manifest in
`place_records`, run when the output has been read), a missing dependency
at the line of the config that imports it, an unknown hook at its `def`.
The hint carries `plugin`, `manifest`, `dependency`, `hook`.

Precedence: these rules run before the generic Python and Node rules
(PRIORITY): "No module named 'x'" while a plugin is imported is
plugin_startup, not compile.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from ..locate import read_in_tree
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

if TYPE_CHECKING:
    from ..record import FailureRecord

PRIORITY = 50
MAX_MANIFEST_BYTES = 2 << 20

# File names that are plugin / extension / package manifests.
_MANIFEST = re.compile(
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


# -- manifest JSON -------------------------------------------------------------------

_NPM_JSON = re.compile(
    r"^npm (?:error|ERR!) JSON\.parse Invalid (?P<file>[\w./-]*package\.json): JSONParseError: (?P<message>.+?)"
    r"(?: at position (?P<pos>\d+))?(?: \(line (?P<line>\d+) column (?P<col>\d+)\))?(?: while parsing .*)?$"
)
_NODE_JSON = re.compile(r"SyntaxError: (?P<file>[^:\s][^:]*\.json): (?P<message>.+)$")
_PY_JSON = re.compile(
    r"(?P<message>Expecting [^:]+|Unterminated string starting at|Invalid control character at"
    r"|Invalid \\escape|Extra data|Expecting value|Illegal trailing comma before end of \w+)"
    r": line (?P<line>\d+) column (?P<col>\d+) \(char (?P<pos>\d+)\)"
)
_JSON_FILE = re.compile(r"([\w.~/\\-]+\.json)\b")


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
            for prev in reversed(ctx.before(5)):
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


# -- missing dependencies ----------------------------------------------------------------

# npm packages that are plugins (or shareable configs) of a tool.
_PLUGIN_NAME = re.compile(
    r"(?:@[\w.-]{1,100}/)?[\w.-]{0,200}?(?:plugin|(?:eslint|prettier|babel)-(?:config|preset))[\w.-]{0,200}"
)


def is_plugin_package(name: str) -> bool:
    """Whether an npm package name (possibly with a subpath) is a plugin."""
    parts = name.split("/")
    package = "/".join(parts[:2]) if name.startswith("@") else parts[0]
    return len(package) <= 214 and _PLUGIN_NAME.fullmatch(package) is not None


_DEPENDENCY = (
    re.compile(
        r"Cannot find (?:package|module) '(?P<dep>[^'\s]{1,300})'(?: imported from (?P<importer>\S+))?"
    ),
    re.compile(r"ESLint couldn't find the (?:plugin|config) \"(?P<dep>[^\"]+)\""),
    re.compile(r"Error importing plugin \"(?P<plugin>[^\"]+)\": No module named '(?P<dep>[^']+)'"),
)
_MYPY_AT = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+): error: ")


@rule(
    id="plugin.missing_dependency",
    category=FailureType.PLUGIN_STARTUP,
    tool="plugin-loader",
    pattern=(
        r"Cannot find (?:package|module) '[^'\s]{0,300}?(?:plugin|-config-|-preset-)"
        r"|ESLint couldn't find the (?:plugin|config) \""
        r"|Error importing plugin \"[^\"]+\": No module named '"
    ),
    triggers=(
        "Cannot find package '",
        "Cannot find module '",
        "ESLint couldn't find the",
        "Error importing plugin",
    ),
    url="https://eslint.org/docs/latest/use/configure/plugins",
    priority=PRIORITY,
)
def missing_dependency(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A plugin that cannot load because its package / module is missing.

    What it detects: ESLint's flat config importing a plugin that is not
    installed (`Error [ERR_MODULE_NOT_FOUND]: Cannot find package
    'eslint-plugin-x' imported from /app/eslint.config.js`), the eslintrc
    era's `ESLint couldn't find the plugin "eslint-plugin-x"`, prettier /
    babel / vite / rollup / postcss plugins the same way, and Python plugin
    loaders: pytest `-p x` / `pytest_plugins` (`Error importing plugin "x":
    No module named 'x'`) and mypy's `plugins =` (`mypy.ini:3: error: Error
    importing plugin "x": No module named 'y'`).

    Example output (`eslint src`, ESLint 10.15.0):
        Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'eslint-plugin-unused-imports' imported from /work/app/eslint.config.js

    Recipe: plugin_startup: install hint["dependency"] with the project's
    package manager (a validated name) and re-run once; the record is at
    the config line that names the plugin.

    References: https://eslint.org/docs/latest/use/configure/plugins, https://docs.pytest.org/en/stable/how-to/plugins.html, https://mypy.readthedocs.io/en/stable/extending_mypy.html
    """
    line = ctx.line
    for pattern in _DEPENDENCY:
        found = pattern.search(line)
        if found is None:
            continue
        groups = found.groupdict()
        dep = groups["dep"]
        if found.re is _DEPENDENCY[0] and not is_plugin_package(dep):
            return None  # a plain missing module: the compile rules' business
        hint: dict[str, Any] = {
            "dependency": dep.split("/")[0]
            if not dep.startswith("@")
            else "/".join(dep.split("/")[:2])
        }
        plugin = groups.get("plugin") or dep
        hint["plugin"] = plugin
        file = groups.get("importer")
        lnum: int | None = None
        mypy = _MYPY_AT.match(line)
        if mypy:
            file, lnum = mypy.group("file"), int(mypy.group("line"))
            hint["manifest"] = file
        elif file:
            hint["manifest"] = file
        if "No module named" in found.group(0):
            hint["ecosystem"] = "pypi"
            hint["dependency"] = dep.split(".")[0]
        else:
            hint["ecosystem"] = "npm"
        return Hit(
            signal=line.strip(),
            message=f"plugin {plugin}: missing dependency {hint['dependency']}",
            file=file,
            line=lnum,
            hint=hint,
        )
    return None


_REQUIRE_ENTRY = re.compile(
    r"^- (?=\S{1,4096}\s*$)(?P<path>\S*(?P<dir>(?:/plugins?/|\\plugins?\\)(?P<plugin>[^/\\\s]+))[/\\]\S+?)\s*$"
)
_CANNOT_FIND = re.compile(r"Cannot find module '(?P<dep>[^']+)'")


@rule(
    id="plugin.node_require",
    category=FailureType.PLUGIN_STARTUP,
    tool="node",
    pattern=r"^- (?=\S{1,4096}\s*$)\S*?(?:/plugins?/|\\plugins?\\)[^/\\\s]+[/\\]\S+?\s*$",
    triggers=("/plugins/", "/plugin/", "\\plugins\\", "\\plugin\\"),
    url="https://nodejs.org/api/errors.html#module_not_found",
    priority=PRIORITY,
)
def node_require(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Node plugin whose own dependency is missing.

    What it detects: Node's `Error: Cannot find module 'x'` whose `Require
    stack:` starts in a `plugins/<name>/` folder: the plugin, not the host,
    needs `x`.  The record explains the `Cannot find module` line (the
    generic Node record for that line is superseded) and goes to the
    plugin's manifest (`plugins/<name>/plugin.json` or `package.json`, at
    the line naming the dependency) when there is one, else to the plugin
    file.

    Example output (`node load-plugins.js`, Node.js 20.20.2):
        Error: Cannot find module 'left-pad'
        Require stack:
        - /work/app/plugins/hello/index.js

    Recipe: plugin_startup: install hint["dependency"] for the plugin (a
    validated npm name) and load it again once; escalate otherwise.

    References: https://nodejs.org/api/errors.html#module_not_found
    """
    before = ctx.before(2)
    if len(before) < 2 or before[-1].strip() != "Require stack:":
        return None  # only the first entry: the file that wanted the module
    found = _CANNOT_FIND.search(before[-2])
    if found is None:
        return None
    entry = _REQUIRE_ENTRY.match(ctx.line)
    if entry is None:
        return None
    dep = found.group("dep")
    path = entry.group("path")
    plugin = entry.group("plugin")
    plugin_dir = path[: entry.end("dir") - entry.start("path")]
    hint: dict[str, Any] = {"plugin": plugin, "dependency": dep, "ecosystem": "npm"}
    file = path
    for name in ("plugin.json", "package.json"):
        manifest = f"{plugin_dir}/{name}"
        if ctx.exists(manifest):
            file = manifest
            hint["manifest"] = manifest
            break
    return Hit(
        signal=before[-2].strip(),
        message=f"plugin {plugin}: missing dependency {dep}",
        file=file,
        log_line=ctx.line_no - 2,
        hint=hint,
        related=[(path, None, None, "requires " + dep)],
    )


# -- hooks, plugins not found, extensions --------------------------------------------------

_PLUGGY = re.compile(
    r"PluginValidationError: unknown hook '(?P<hook>\w+)' in plugin <module '(?P<module>[^']+)' from '(?P<file>[^']+)'>"
)
_HOOK_GENERIC = re.compile(
    r"[Hh]ook [\"'`]?(?P<hook>[\w:./-]+)[\"'`]? failed to load(?::\s*(?P<message>.+))?"
    r"|[Ff]ailed to load hook [\"'`]?(?P<hook2>[\w:./-]+)[\"'`]?(?::\s*(?P<message2>.+))?"
)
_PATHISH = re.compile(r"([\w.-]+(?:/[\w.-]+)+\.(?:js|mjs|cjs|ts|py|sh|json))\b")


@rule(
    id="plugin.hook",
    category=FailureType.PLUGIN_STARTUP,
    tool="plugin-loader",
    pattern=(
        r"PluginValidationError: unknown hook '"
        r"|[Hh]ook [\"'`]?[\w:./-]+[\"'`]? failed to load|[Ff]ailed to load hook"
    ),
    triggers=("PluginValidationError", "failed to load", "ailed to load hook"),
    url="https://pluggy.readthedocs.io/en/stable/#hookspec-validation",
    priority=PRIORITY,
)
def hook(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A plugin hook that fails to load.

    What it detects: pluggy's `PluginValidationError: unknown hook
    'pytest_x' in plugin <module 'conftest' from '/app/tests/conftest.py'>`
    (pytest, tox, datasette and other pluggy hosts; the record goes to the
    hook's `def` in that file), and a plugin host's "hook X failed to load"
    / "failed to load hook X".

    Example output (`pytest -q tests`, pytest 9, pluggy 1.6):
        INTERNALERROR> pluggy._manager.PluginValidationError: unknown hook 'pytest_collection_finish_report' in plugin <module 'conftest' from '/work/app/tests/conftest.py'>

    Recipe: plugin_startup: a misspelt hook name with one close known hook
    is renamed; otherwise escalated at the hook.

    References: https://pluggy.readthedocs.io/en/stable/, https://docs.pytest.org/en/stable/reference/reference.html#hooks
    """
    line = ctx.line
    found = _PLUGGY.search(line)
    if found:
        name = found.group("hook")
        return Hit(
            signal=line.removeprefix("INTERNALERROR> ").strip(),
            message=f"unknown hook '{name}' in plugin {found.group('module')}",
            file=found.group("file"),
            hint={"hook": name, "plugin": found.group("module"), "kind": "unknown_hook"},
        )
    generic = _HOOK_GENERIC.search(line)
    if generic is None:  # pluggy's message cut short (no `in plugin <module ...>`)
        return None
    name = generic.group("hook") or generic.group("hook2")
    detail = (generic.group("message") or generic.group("message2") or "").strip()
    path = _PATHISH.search(detail)
    file = path.group(1) if path and ctx.exists(path.group(1)) else None
    hint: dict[str, Any] = {"hook": name, "kind": "hook_load"}
    if path:
        hint["path"] = path.group(1)
    return Hit(signal=line.strip(), message=line.strip(), file=file, hint=hint)


_NOT_FOUND = re.compile(
    r"[Pp]lugin [\"'`](?P<a>[^\"'`]+)[\"'`] (?:was |is )?not found"
    r"|[Pp]lugin (?P<b>[\w@./:-]+) (?:was |is )?not found"
    r"|[Pp]lugin not found:? [\"'`]?(?P<c>[\w@./:-]+)"
    r"|[Uu]nknown plugin:? [\"'`]?(?P<d>[\w@./:-]+)"
    r"|[Cc]ould not (?:find|load) plugin:? [\"'`]?(?P<e>[\w@./:-]+)"
)


@rule(
    id="plugin.not_found",
    category=FailureType.PLUGIN_STARTUP,
    tool="plugin-loader",
    pattern=(
        r"[Pp]lugin [\"'`]?[^\"'`\s]+[\"'`]? (?:was |is )?not found|[Pp]lugin not found"
        r"|[Uu]nknown plugin|[Cc]ould not (?:find|load) plugin"
    ),
    triggers=("not found", "nknown plugin", "ould not find plugin", "ould not load plugin"),
    url="https://docs.pytest.org/en/stable/how-to/plugins.html",
    priority=PRIORITY,
)
def not_found(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A plugin the configuration names but the host cannot find.

    What it detects: "Plugin "x" not found", "plugin x was not found",
    "Plugin not found: x", "Unknown plugin x", "Could not find plugin x",
    as plugin hosts print them.

    Example output (a plugin host's start-up log; documented format):
        [plugins] Plugin "markdown-preview" not found in ./plugins (referenced by settings.json)

    Recipe: plugin_startup, partial: when the plugin is a package of a
    known ecosystem it is installed; otherwise escalated with hint["plugin"].

    References: https://docs.pytest.org/en/stable/how-to/plugins.html
    """
    found = _NOT_FOUND.search(ctx.line)
    if found is None:
        return None
    name = next(g for g in found.groups() if g)
    hint: dict[str, Any] = {"plugin": name, "kind": "not_found"}
    config = re.search(r"referenced by ([\w./-]+)", ctx.line)
    file = None
    if config:
        hint["manifest"] = config.group(1)
        file = config.group(1) if ctx.exists(config.group(1)) else None
    return Hit(signal=ctx.line.strip(), message=f"plugin {name} not found", file=file, hint=hint)


@rule(
    id="plugin.vscode_activation",
    category=FailureType.PLUGIN_STARTUP,
    tool="vscode",
    pattern=r"Activating extension '?(?P<ext>[\w.-]+)'? failed(?: due to an error)?:?\s*(?P<message>.*)$",
    triggers=("Activating extension ",),
    url="https://code.visualstudio.com/api/working-with-extensions/bundling-extension",
    priority=PRIORITY,
)
def vscode_activation(m: re.Match[str], ctx: LineContext) -> Hit:
    """A VS Code extension that failed to activate.

    What it detects: the extension host log's `Activating extension
    publisher.name failed due to an error:` (the error follows on the next
    line, typically `Cannot find module 'x'` when a dependency was not
    bundled).  The record goes to the extension's package.json when it is
    the workspace.

    Example output (VS Code "Extension Host" output; documented format):
        2026-01-20 10:25:00.151 [error] Activating extension acme.faultlens-demo failed due to an error:

    Recipe: plugin_startup: a missing module that is a dependency in
    package.json means the bundle is incomplete (re-bundle / install);
    escalated otherwise.

    References: https://code.visualstudio.com/api/working-with-extensions/bundling-extension
    """
    ext = m.group("ext")
    hint: dict[str, Any] = {"plugin": ext, "kind": "activation"}
    file = "package.json" if ctx.exists("package.json") else None
    if file:
        hint["manifest"] = file
    return Hit(
        signal=ctx.line.strip(), message=f"extension {ext} failed to activate", file=file, hint=hint
    )


# -- placement (run once the output has been read) -------------------------------------------


def offset_to_line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in text."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def json_error_at(text: str) -> tuple[int, int, str] | None:
    """Where Python's json parser stops in text (line, column, message), or
    None when the text is valid JSON."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno, exc.msg
    return None


def find_text_line(text: str, needle: str, *, quoted: bool = True) -> tuple[int, int] | None:
    """The first line (and column) where `needle` appears, quoted when asked."""
    candidates = [f'"{needle}"', f"'{needle}'"] if quoted else [needle]
    best: int | None = None
    for c in candidates:
        i = text.find(c)
        if i >= 0 and (best is None or i < best):
            best = i
    if best is None:
        return None
    return offset_to_line_col(text, best)


def place_records(records: Iterable[FailureRecord], cwd: str | os.PathLike[str]) -> None:
    """Give plugin_startup records their line in the manifest or config.

    A manifest JSON error goes to its line/column (from the printed offset,
    else from parsing the manifest); a missing dependency to the config
    line that names it; an unknown hook to its `def`.
    """
    base = Path(cwd)
    for rec in records:
        if rec.failure_type != FailureType.PLUGIN_STARTUP or not rec.source_file:
            continue
        if rec.source_line is not None and "position" not in rec.hint:
            continue
        hint = rec.hint
        manifest = hint.get("manifest")
        if (
            isinstance(manifest, str)
            and PurePosixPath(manifest).name == PurePosixPath(rec.source_file).name
        ):
            hint["manifest"] = rec.source_file  # as resolved against the cwd
        text = read_in_tree(base, rec.source_file, MAX_MANIFEST_BYTES)
        if text is None:
            continue
        where: tuple[int, int] | None = None
        if "json_error" in hint:
            pos = hint.get("position")
            if rec.source_line is not None:
                continue
            if isinstance(pos, int):
                where = offset_to_line_col(text, pos)
            else:
                err = json_error_at(text)
                if err:
                    where = (err[0], err[1])
        elif isinstance(hint.get("hook"), str):
            where = find_text_line(text, f"def {hint['hook']}(", quoted=False)
        elif isinstance(hint.get("dependency"), str):
            where = find_text_line(text, hint["dependency"])
        if where:
            rec.source_line, rec.source_column = where
