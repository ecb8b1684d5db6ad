"""Plugin rules for the coding-agent CLIs: a plugin whose manifest the agent
cannot parse, a hook the agent could not run (Claude Code's debug log)."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY

_CORRUPT = lazy_compile(
    r"Plugin (?P<plugin>\S+) has a corrupt manifest file at (?P<file>.+?\.json)\.?"
    r"(?: Parse error: (?P<message>.+?))?\s*$"
)
_HOOK_ERROR = lazy_compile(r"\bHook (?P<event>\w+) \((?P<kind>\w+)\) error:\s*(?P<rest>.*)$")
_SHELL_NOT_FOUND = lazy_compile(
    r"^(?:/bin/(?:ba|z|da)?sh: )?(?:line )?\d*:? ?(?P<cmd>[^:\s]+): (?:command )?not found"
)
_SETTINGS = ".claude/settings.json"


@rule(
    id="plugin.agent_manifest",
    category=FailureType.PLUGIN_STARTUP,
    tool="claude-code",
    pattern=r"Plugin \S+ has a corrupt manifest file at ",
    triggers=("has a corrupt manifest file at ",),
    url="https://code.claude.com/docs/en/plugins-reference#plugin-manifest-schema",
    priority=PRIORITY,
)
def agent_manifest(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """An agent plugin whose manifest is not valid JSON.

    What it detects: Claude Code's `Plugin NAME has a corrupt manifest file
    at PATH/.claude-plugin/plugin.json. Parse error: JSON Parse error: ...`
    (its debug log, `--debug` / `--debug-file`), and the same failure told
    again as `Failed to load session plugin from DIR: ...` and `Plugin
    loading errors: Failed to load plugin: ...`: one record a plugin, in
    its manifest at the line the JSON breaks (found by parsing the file).

    Example output (`claude -p "review the diff" --plugin-dir ./review-tools --debug-file claude-debug.txt`, Claude Code 2.1.197):
        2026-12-02T06:30:26.186Z [ERROR] Plugin review-tools has a corrupt manifest file at /work/app/review-tools/.claude-plugin/plugin.json. Parse error: JSON Parse error: Property name must be a string literal

    Recipe: plugin_startup: one unambiguous JSON repair (a trailing or
    missing comma) of the manifest, then the agent is started again; else
    escalated at the manifest's line.

    References: https://code.claude.com/docs/en/plugins-reference, https://code.claude.com/docs/en/plugins
    """
    found = _CORRUPT.search(ctx.line)
    if found is None:
        return None
    plugin, file = found.group("plugin"), found.group("file")
    message = (found.group("message") or "the manifest is not valid JSON").strip()
    hint: dict[str, Any] = {"plugin": plugin, "manifest": file, "json_error": message}
    return Hit(
        signal=found.group(0).strip(),
        message=f"plugin {plugin}: invalid JSON in its manifest: {message}",
        file=file,
        hint=hint,
        key=("plugin.agent_manifest", plugin),
    )


@rule(
    id="plugin.agent_hook",
    category=FailureType.PLUGIN_STARTUP,
    tool="claude-code",
    pattern=r"\bHook \w+ \(\w+\) error:",
    triggers=(") error:",),
    url="https://code.claude.com/docs/en/hooks#debugging",
    priority=PRIORITY,
)
def agent_hook(m: re.Match[str], ctx: LineContext) -> _HookError | None:
    """An agent hook that could not run: its command is not there, it
    crashed or it timed out.

    What it detects: Claude Code's `Hook EVENT (EVENT) error:` in its debug
    log, with the hook's own error on the same or the next line (`/bin/sh:
    1: ./hooks/check-prompt.sh: not found`).  The record is placed at the
    hook's command in `.claude/settings.json` when the command is named.

    Example output (`claude -p "run the checks" --debug-file claude-debug.txt`, Claude Code 2.1.197):
        2026-12-02T06:30:55.466Z [DEBUG] Hook UserPromptSubmit (UserPromptSubmit) error:
        /bin/sh: 1: ./hooks/check-prompt.sh: not found

    Recipe: plugin_startup: a hook script that exists under another name
    or is not executable is fixed once; otherwise the hook is reported at
    its settings entry and the agent goes on without it.

    References: https://code.claude.com/docs/en/hooks
    """
    found = _HOOK_ERROR.search(ctx.line)
    if found is None:
        return None
    block = _HookError(found.group(0).strip(), found.group("event"), ctx.line_no)
    if found.group("rest").strip():
        block.detail = found.group("rest").strip()
    return block


class _HookError:
    """The hook's error: the rest of its line, else the line after it."""

    max_lines = 2

    def __init__(self, head: str, event: str, line_no: int) -> None:
        self.head, self.event, self.line_no = head, event, line_no
        self.detail = ""

    def feed(self, line: str, line_no: int) -> bool:
        if self.detail or not line.strip():
            return False
        self.detail = line.strip()
        return True

    def finish(self) -> list[Hit]:
        hint: dict[str, Any] = {"hook": self.event, "agent": "claude-code"}
        missing = _SHELL_NOT_FOUND.search(self.detail)
        if missing:
            hint["hook_command"] = missing.group("cmd")
        detail = self.detail or "no detail"
        hit = Hit(
            signal=f"{self.head} {self.detail}".strip(),
            message=f"the {self.event} hook failed: {detail}",
            file=_SETTINGS if missing else None,
            log_line=self.line_no,
            hint=hint,
            key=("plugin.agent_hook", self.event, self.detail),
        )
        return [hit]
