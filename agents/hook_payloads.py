"""Reading coding-agent hook payloads and writing their answers (pure).

Each agent CLI runs `faultlens hook <agent>` after a tool call and hands it a
JSON payload on stdin; the answer is JSON on stdout.  What each one sends (read
off the real CLIs, see docs/agents.md and the captured payloads under
tests/agents/payloads/):

| agent | event | shell tool | output |
|---|---|---|---|
| claude-code | PostToolUse | Bash | `tool_response.stdout` / `.stderr` (the call succeeded) |
| claude-code | PostToolUseFailure | Bash | `error`: `"Exit code N\\n<output>"` |
| codex | PostToolUse | any tool whose input has `command` | `tool_response` (text or object) |
| gemini | AfterTool | run_shell_command | `tool_response.llmContent` (`Output: … Exit Code: N`) |

All three take `hookSpecificOutput.additionalContext` as text added for the
model, with `hookEventName` naming the event.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from faultlens.classifier.lazyre import lazy_compile

AGENTS = ("claude-code", "codex", "gemini")
SHELL_TOOLS = {"Bash", "run_shell_command", "shell", "exec_command", "local_shell"}

_EXIT_LINE = lazy_compile(r"^Exit code:? (-?\d+)\s*$", re.IGNORECASE | re.MULTILINE)
_GEMINI_EXIT = lazy_compile(r"^Exit Code: (-?\d+)", re.MULTILINE)
_GEMINI_OUTPUT = lazy_compile(
    r"^Output: ?(.*?)(?=^(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID):|\Z)",
    re.MULTILINE | re.DOTALL,
)


class PayloadError(ValueError):
    """The payload is not what the agent documents; the text is one line."""


@dataclass(slots=True, frozen=True)
class ToolCall:
    """A shell tool call as faultlens needs it."""

    agent: str
    event: str
    command: list[str] | str | None
    output: str
    exit_code: int | None
    session: str | None
    cwd: str | None


def _text(value: Any) -> str:
    """Text out of a tool response of any shape (str, dict, list of parts)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(t for t in (_text(v) for v in value) if t)
    if isinstance(value, dict):
        parts = [
            _text(value.get(k))
            for k in ("stdout", "stderr", "output", "aggregated_output", "text", "content")
        ]
        return "\n".join(p for p in parts if p)
    return str(value)


MAX_STATUS = 2**32  # an exit status is at most 32 bits (Windows' are unsigned)


def _status(value: int | str) -> int:
    """An exit status from a payload; PayloadError for one no process can have."""
    text = str(value)
    if len(text) > 12 or not -(2**31) <= (code := int(text)) < MAX_STATUS:
        raise PayloadError(
            f"exit code {text[:20]}{'...' if len(text) > 20 else ''} is out of range"
        )
    return code


def _exit_code(value: Any) -> int | None:
    if isinstance(value, dict):
        for key in ("exit_code", "exitCode", "returncode", "status"):
            code = value.get(key)
            if isinstance(code, int) and not isinstance(code, bool):
                return _status(code)
    return None


def _command(tool_input: Any) -> list[str] | str | None:
    if not isinstance(tool_input, dict):
        return None
    cmd = tool_input.get("command") or tool_input.get("cmd")
    if isinstance(cmd, str) and cmd.strip():
        return cmd
    if isinstance(cmd, list) and cmd and all(isinstance(c, str) for c in cmd):
        return list(cmd)
    return None


def parse(agent: str, payload: Any) -> ToolCall | None:
    """The shell call in a hook payload, or None for a call faultlens has no
    business with (another tool, another event).  Raises PayloadError when the
    payload is not a hook payload at all."""
    if agent not in AGENTS:
        raise PayloadError(f"unknown agent {agent!r} (known: {', '.join(AGENTS)})")
    if not isinstance(payload, dict):
        raise PayloadError("the hook payload is not a JSON object")
    event = payload.get("hook_event_name")
    if not isinstance(event, str):
        raise PayloadError("the hook payload has no hook_event_name")
    tool = payload.get("tool_name")
    command = _command(payload.get("tool_input"))
    if not isinstance(tool, str) or (tool not in SHELL_TOOLS and command is None):
        return None
    session = payload.get("session_id") if isinstance(payload.get("session_id"), str) else None
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    if agent == "gemini":
        if event != "AfterTool":
            return None
        return _gemini(event, payload, command, session, cwd)
    if event == "PostToolUseFailure":
        error = payload.get("error")
        text = error if isinstance(error, str) else _text(error)
        m = _EXIT_LINE.match(text)
        failed = _status(m.group(1)) if m else 1
        output = text[m.end() :].lstrip("\n") if m else text
        return ToolCall(agent, event, command, output, failed, session, cwd)
    if event == "PostToolUse":
        response = payload.get("tool_response")
        exit_code = _exit_code(response)
        output = _text(response)
        if exit_code is None and isinstance(response, str):
            m = _EXIT_LINE.search(response)
            exit_code = _status(m.group(1)) if m else None
        if exit_code is None and agent == "claude-code":
            exit_code = 0  # Claude Code sends PostToolUse only when the call succeeded
        return ToolCall(agent, event, command, output, exit_code, session, cwd)
    return None


def _gemini(
    event: str, payload: dict[str, Any], command: Any, session: str | None, cwd: str | None
) -> ToolCall:
    response = payload.get("tool_response")
    content = _text(response.get("llmContent")) if isinstance(response, dict) else _text(response)
    m = _GEMINI_EXIT.search(content)
    exit_code = _status(m.group(1)) if m else 0
    out = _GEMINI_OUTPUT.search(content)
    output = out.group(1).rstrip("\n") if out else content
    if output == "(empty)":  # what its shell tool writes for no output
        output = ""
    if isinstance(response, dict) and response.get("error"):
        output += "\n" + _text(response.get("error"))
        exit_code = exit_code or 1
    return ToolCall("gemini", event, command, output, exit_code, session, cwd)


def answer(call: ToolCall, context: str) -> dict[str, Any]:
    """The JSON the agent reads back: `context` added for the model."""
    return {"hookSpecificOutput": {"hookEventName": call.event, "additionalContext": context}}


def argv_of(command: list[str] | str | None) -> list[str] | None:
    """The command as an argv list (split like a shell would; never run by one)."""
    if command is None:
        return None
    if isinstance(command, list):
        return command
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()
