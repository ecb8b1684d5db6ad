"""Plugin rules for a hook that fails to load, a plugin that is not there,
and a VS Code extension that fails to activate."""

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

_PLUGGY = lazy_compile(
    r"PluginValidationError: unknown hook '(?P<hook>\w+)' in plugin <module '(?P<module>[^']+)' from '(?P<file>[^']+)'>"
)
_HOOK_GENERIC = lazy_compile(
    r"[Hh]ook [\"'`]?(?P<hook>[\w:./-]+)[\"'`]? failed to load(?::\s*(?P<message>.+))?"
    r"|[Ff]ailed to load hook [\"'`]?(?P<hook2>[\w:./-]+)[\"'`]?(?::\s*(?P<message2>.+))?"
)
_PATHISH = lazy_compile(r"([\w.-]+(?:/[\w.-]+)+\.(?:js|mjs|cjs|ts|py|sh|json))\b")


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


_NOT_FOUND = lazy_compile(
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


@rule(
    id="plugin.git_hook_ignored",
    category=FailureType.PLUGIN_STARTUP,
    tool="git",
    pattern=r"The '(?P<hook>[^']+)' hook was ignored because it's not set as executable",
    triggers=("hook was ignored because it's not set as executable",),
    url="https://git-scm.com/docs/githooks",
    priority=PRIORITY,
)
def git_hook_ignored(m: re.Match[str], ctx: LineContext) -> Hit:
    """A git hook that did not run because it is not executable.

    What it detects: git's `hint: The '.git/hooks/pre-commit' hook was
    ignored because it's not set as executable.` (a hook copied in, or
    checked out from an archive, without its executable bit).  The command
    goes on without the hook (exit 0): the checks it was to run did not
    run, a degraded start-up, at the hook's file.

    Example output (`git commit -m "add app"`, git 2.39.5):
        hint: The '.git/hooks/pre-commit' hook was ignored because it's not set as executable.

    Recipe: plugin_startup: the hook is made executable (`chmod +x`) once
    and the command run again; a hook outside the repository is reported.

    References: https://git-scm.com/docs/githooks, https://git-scm.com/docs/git-config#Documentation/git-config.txt-adviceignoredHook
    """
    path = m.group("hook")
    name = path.rsplit("/", 1)[-1]
    return Hit(
        signal=ctx.line.strip(),
        message=f"the {name} hook did not run: {path} is not executable",
        file=path,
        hint={"git_hook": name, "hook_file": path, "reason": "not executable"},
        key=("plugin.git_hook_ignored", path),
    )
