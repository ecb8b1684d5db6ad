"""What the agent rules share: their priority, a number as LLM APIs print
it, and the provider a line names."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ..base import Hit

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


def event_signal(line: str, start: int) -> str:
    """The signal of a match at `start`: the line, or for a JSON event line
    (an agent's stream-json) the string the match is in, up to its quote."""
    text = line.strip(" ⎿\t")
    if not text.startswith("{"):
        return text
    end = line.find('"', start)
    begin = line.rfind('"', 0, start) + 1
    return line[begin : end if end > 0 else len(line)].strip()[:500]


_DUMP_LINE = lazy_compile(r"^\s+(?:at |\w+: |[\]}])|^\}\s*$")


class NodeErrorDump:
    """A Node error printed by `console.error(err)`: its stack frames and
    own properties (`  status: 429`) up to the closing `}` belong to it."""

    max_lines = 80

    def __init__(self, hit: Hit, line_no: int) -> None:
        hit.log_line = line_no
        self.hit = hit
        self.closed = False

    def feed(self, line: str, line_no: int) -> bool:
        if self.closed or not _DUMP_LINE.search(line):
            return False
        self.closed = line.startswith("}")
        return True

    def finish(self) -> list[Hit]:
        return [self.hit]
