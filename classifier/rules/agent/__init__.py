"""LLM API and agent errors: the prompt did not get delivered.  One module
per kind: limits (context, max_tokens), API errors, agent dispatch.

Context windows and output limits (with the token numbers parsed into the
hint, and a reduced `budget` for the prompt_delivery recipe), rate limits
and overloads of the LLM API, SDK timeouts, and the agent-level signals
(agent failed to respond, empty response, tool call failed, dispatch
timeout).  Formats: the Anthropic, OpenAI and Google Gen AI Python SDKs'
exceptions (which carry the provider's JSON error body) and hosts that
print the body (Claude Code's "API Error: 400 {...}"), and Codex CLI's own
report of the error that ended its turn (codex).

Precedence decision: an LLM API's 429 / 529 / 5xx / timeout is
prompt_delivery (it blocks the agent's dispatch, and the recipe's
reduce-and-retry is the right response), not infra; the record carries
`hint["transient"] = True` and `retry_after` when the error says it, so the
recipe backs off before its one retry.  These rules run before the infra
family's generic network rules and before the Python traceback rule (the
SDK's exception line is claimed here; the traceback's own record for that
line is superseded).
"""

from __future__ import annotations

from . import api, codex, dispatch, limits, requests

__all__ = ["api", "codex", "dispatch", "limits", "requests"]
