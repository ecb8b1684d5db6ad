"""Plugin rules for a dependency a plugin needs and cannot load: a Python
module, a Node `require` from a plugin's folder."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY

if TYPE_CHECKING:
    pass

# npm packages that are plugins (or shareable configs) of a tool.
_PLUGIN_NAME = lazy_compile(
    r"(?:@[\w.-]{1,100}/)?[\w.-]{0,200}?(?:plugin|(?:eslint|prettier|babel)-(?:config|preset))[\w.-]{0,200}"
)


# A tool's own config file (`eslint.config.js`, `vite.config.ts`): what it
# imports and cannot find stops the tool before it runs, like a plugin.
_TOOL_CONFIG = lazy_compile(
    r"(?:^|[/\\])\.?(?:eslint|prettier|stylelint|vite|vitest|jest|babel|postcss|tailwind|rollup"
    r"|webpack|commitlint|lint-staged|playwright|astro|svelte|nuxt|next)(?:rc)?\.config\.[cm]?[jt]s$"
)


def is_plugin_package(name: str) -> bool:
    """Whether an npm package name (possibly with a subpath) is a plugin."""
    parts = name.split("/")
    package = "/".join(parts[:2]) if name.startswith("@") else parts[0]
    return len(package) <= 214 and _PLUGIN_NAME.fullmatch(package) is not None


_DEPENDENCY = (
    lazy_compile(
        r"Cannot find (?:package|module) '(?P<dep>[^'\s]{1,300})'(?: imported from (?P<importer>\S+))?"
    ),
    lazy_compile(r"ESLint couldn't find the (?:plugin|config) \"(?P<dep>[^\"]+)\""),
    # rubocop's `require:` of an extension gem that is not installed
    lazy_compile(r"cannot load such file -- (?P<dep>rubocop-[\w-]{1,100})"),
    # stylelint: `ConfigurationError: Could not find "stylelint-order". Do you need to install the package ...`
    lazy_compile(
        r"Could not find \"(?P<dep>[^\"\s]{1,300})\"\. Do you need to install the package"
    ),
    lazy_compile(
        r"Error importing plugin \"(?P<plugin>[^\"]+)\": No module named '(?P<dep>[^']+)'"
    ),
)
_MYPY_AT = lazy_compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+): error: ")


@rule(
    id="plugin.missing_dependency",
    category=FailureType.PLUGIN_STARTUP,
    tool="plugin-loader",
    pattern=(
        r"Cannot find (?:package|module) '[^'\s]{0,300}?(?:plugin|-config-|-preset-)"
        r"|Cannot find (?:package|module) '[^'\s]{1,300}' imported from \S{0,500}?\.config\.[cm]?[jt]s$"
        r"|ESLint couldn't find the (?:plugin|config) \""
        r"|Could not find \"[^\"\s]{1,300}\"\. Do you need to install the package"
        r"|cannot load such file -- rubocop-"
        r"|Error importing plugin \"[^\"]+\": No module named '"
    ),
    triggers=(
        "Cannot find package '",
        "Cannot find module '",
        "ESLint couldn't find the",
        "Do you need to install the package",
        "cannot load such file -- rubocop-",
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
    era's `ESLint couldn't find the plugin "eslint-plugin-x"`, stylelint's
    `ConfigurationError: Could not find "stylelint-order". Do you need to
    install the package ...`, rubocop's `cannot load such file --
    rubocop-rspec` (a `require:` of .rubocop.yml), prettier /
    babel / vite / rollup / postcss plugins the same way, any other package
    a tool's own config file imports (`Cannot find package '@eslint/js'
    imported from /app/eslint.config.js`: the tool cannot start without
    it), and Python plugin
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
        importer = groups.get("importer") or ""
        if (
            found.re is _DEPENDENCY[0]
            and not is_plugin_package(dep)
            and not _TOOL_CONFIG.search(importer)
        ):
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
        if found.group(0).startswith("cannot load such file"):
            hint["ecosystem"] = "rubygems"
        elif "No module named" in found.group(0):
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


_REQUIRE_ENTRY = lazy_compile(
    r"^- (?=\S{1,4096}\s*$)(?P<path>\S*(?P<dir>(?:/plugins?/|\\plugins?\\)(?P<plugin>[^/\\\s]+))[/\\]\S+?)\s*$"
)
_CANNOT_FIND = lazy_compile(r"Cannot find module '(?P<dep>[^']+)'")


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
