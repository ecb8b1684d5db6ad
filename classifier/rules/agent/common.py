"""What the agent rules share: their priority, a number as LLM APIs print
it, and the provider a line names."""

from __future__ import annotations

import re

PRIORITY = 40

NUM = r"(\d[\d,_]*)"


def parse_int(text: str) -> int:
    return int(re.sub(r"[,_]", "", text))


def provider_of(line: str) -> str | None:
    low = line.lower()
    if "anthropic" in low or "'type': 'error'" in line or '"type":"error"' in line:
        return "anthropic"
    if "openai" in low or "context_length_exceeded" in line or "rate_limit_exceeded" in line:
        return "openai"
    if "google.genai" in low or "INVALID_ARGUMENT" in line or "RESOURCE_EXHAUSTED" in line:
        return "gemini"
    return None
