"""The agent rule for agent-level signals: an agent that failed to respond,
an empty response, a tool call that failed, a dispatch timeout."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY

_DISPATCH = (
    (
        "no_response",
        lazy_compile(r"\b[Aa]gent (?:\S+ )?(?:failed to respond|did not respond|not responding)"),
    ),
    ("no_response", lazy_compile(r"\bno response from (?:the )?agent\b", re.I)),
    (
        "empty_response",
        lazy_compile(r"\bempty (?:agent |model |LLM )?(?:response|reply|completion)\b", re.I),
    ),
    ("tool_call", lazy_compile(r"\btool call failed\b|\bTool call (?:error|failed)\b", re.I)),
    (
        "dispatch_timeout",
        lazy_compile(
            r"\bdispatch(?:ing)? (?:timeout|timed out)\b|\bagent dispatch timed out\b", re.I
        ),
    ),
)
_TOOL = lazy_compile(r"tool call failed:? (?P<tool>[\w.:-]+)", re.I)
_AGENT = lazy_compile(r"\b(?P<worker>worker-\d+|agent-\d+)\b")
_TASK = lazy_compile(r"\b(?P<task>[A-Z][A-Z0-9]+-\d+)\b")
_SECONDS = lazy_compile(r"within (?P<s>\d+)\s*s\b")


@rule(
    id="agent.dispatch",
    category=FailureType.PROMPT_DELIVERY,
    tool="agent",
    pattern=(
        r"\b[Aa]gent (?:\S+ )?(?:failed to respond|did not respond|not responding)"
        r"|[Nn]o response from (?:the )?agent|[Ee]mpty (?:agent |model |LLM )?(?:response|reply|completion)"
        r"|[Tt]ool call (?:failed|error)|[Dd]ispatch(?:ing)? (?:timeout|timed out)"
    ),
    triggers=(
        "failed to respond",
        "did not respond",
        "not responding",
        "o response from",
        "mpty response",
        "mpty agent",
        "mpty model",
        "mpty LLM",
        "mpty reply",
        "mpty completion",
        "ool call failed",
        "ool call error",
        "ispatch timeout",
        "ispatch timed out",
        "ispatching timeout",
        "ispatching timed out",
    ),
    url="https://docs.anthropic.com/en/docs/build-with-claude/tool-use",
    priority=PRIORITY,
)
def dispatch(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """An agent that was dispatched a prompt and did not deliver.

    What it detects: "agent failed to respond" (a dispatch timeout), "no
    response from agent", "empty response" from the agent or model, "tool
    call failed", "dispatch timeout", as agent runners and coordinators log
    them (the failure taxonomy's prompt_delivery signals).  The worker,
    task id, tool name and timeout go into the hint.

    Example output (a coordinator's dispatch log; documented format):
        [2026-01-20T10:30:00Z] worker-3: agent failed to respond within 300s (dispatch timeout)

    Recipe: prompt_delivery: reduce the prompt's scope and dispatch once
    more; a tool call failure is retried once with the tool's error in the
    prompt.

    References: https://docs.anthropic.com/en/docs/build-with-claude/tool-use
    """
    line = ctx.line
    kind = None
    for name, pattern in _DISPATCH:
        if pattern.search(line):
            kind = name
            break
    if kind is None:
        return None
    hint: dict[str, Any] = {"kind": kind, "transient": kind != "tool_call"}
    tool = _TOOL.search(line)
    if kind == "tool_call" and tool:
        hint["tool"] = tool.group("tool")
    worker = _AGENT.search(line)
    if worker:
        hint["worker"] = worker.group("worker")
    task = _TASK.search(line)
    if task:
        hint["task"] = task.group("task")
    seconds = _SECONDS.search(line)
    if seconds:
        hint["timeout_s"] = int(seconds.group("s"))
    return Hit(signal=line.strip(), code=kind, hint=hint, task=hint.get("task"))
