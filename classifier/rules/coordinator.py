"""The agile coordinator's own formats (the second seed): its failure log
lines and its workers' progress files, each mapped onto the taxonomy from
what the error says.

Log format (session log and logs/errors/<TASK>-failure.log)::

    [2026-01-20T10:25:00Z] ERROR worker-2 TASK-007 implementation
      Phase: implement
      Error: 3 tests failing in message-tools.test.ts
      Details: Expected array of 3, received array of 2
      Action: Offering retry

Progress file (YAML or JSON)::

    status: failed
    error: "3 tests failing in message-tools.test.ts"
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext, lines_above
from .registry import rule

_SEED = "shared/seeds/001 (agile-coordinator failure handling: log format, progress files)"

# What the error says → category; the first matching row wins, so the more
# specific categories come first.
_CATEGORY_ROWS: tuple[tuple[FailureType, re.Pattern[str]], ...] = (
    (
        FailureType.TRUST_GATE,
        lazy_compile(
            r"secret|api key found|vulnerabilit|CONFIDENCE\.md|security (?:scan|gate)|trust gate",
            re.I,
        ),
    ),
    (FailureType.MCP_STARTUP, lazy_compile(r"\bMCP\b|mcp server|handshake", re.I)),
    (
        FailureType.PLUGIN_STARTUP,
        lazy_compile(r"plugin|hook failed to load|extension (?:failed|not found)", re.I),
    ),
    (
        FailureType.PROMPT_DELIVERY,
        lazy_compile(
            r"context (?:too long|window|length)|prompt is too long|token limit|max(?:imum)? tokens"
            r"|agent failed to respond|empty (?:agent )?response|tool call failed|dispatch timeout"
            r"|rate limit|overloaded",
            re.I,
        ),
    ),
    (
        FailureType.BRANCH_DIVERGENCE,
        lazy_compile(
            r"merge conflict|conflict(?:s|ed)? (?:in|with)|CONFLICT|cannot merge|diverged|needs rebase"
            r"|behind (?:origin/)?main|non-fast-forward|cannot fast-forward|rebase (?:failed|conflict)"
            r"|merge --squash fail",
            re.I,
        ),
    ),
    (
        FailureType.TEST,
        lazy_compile(
            r"\btests? (?:still )?(?:failing|failed|not passing|fail\b)|\bfailing tests?\b|AssertionError"
            r"|expected .+ (?:received|but got|got)|\bnpm test\b|test suite fail|\bFAIL\b",
            re.I,
        ),
    ),
    (
        FailureType.COMPILE,
        lazy_compile(
            r"build fail|compil|type ?error|\bTS\d{4}\b|SyntaxError|Cannot find (?:module|name)"
            r"|ModuleNotFoundError|ImportError|\btsc\b|lint",
            re.I,
        ),
    ),
    (
        FailureType.INFRA,
        lazy_compile(
            r"network|connection|ECONNREFUSED|ENOTFOUND|disk full|No space left|ENOSPC|git unavailable"
            r"|permission denied|timed? ?out|deploy|container|environment variable|unreachable",
            re.I,
        ),
    ),
)
_FILE = lazy_compile(
    r"(?:\bin\s+|\bfile\s+|^)(?P<file>(?:[\w@.-]+/)*[\w@.-]+\.(?:test|spec)\.[A-Za-z]{1,5}|(?:[\w@.-]+/)+[\w@.-]+\.[A-Za-z]{1,5}|[\w@-]+\.[A-Za-z]{1,5})(?::(?P<line>\d+))?\b"
)


def categorise(text: str) -> tuple[FailureType, float]:
    """The category an error description belongs to, with a confidence."""
    for ft, pattern in _CATEGORY_ROWS:
        if pattern.search(text):
            return ft, 0.8
    return FailureType.INFRA, 0.4


def _file_in(text: str) -> tuple[str | None, int | None]:
    for m in _FILE.finditer(text):
        file = m.group("file")
        if re.fullmatch(r"\d+(?:\.\d+)+", file):  # a version number, not a file
            continue
        line = m.group("line")
        return file, int(line) if line else None
    return None, None


def _hit(fields: dict[str, str], signal: str, log_line: int, task: str | None) -> Hit:
    error = (
        next((fields[k] for k in ("error", "message", "reason", "failure") if fields.get(k)), "")
        .strip()
        .strip("\"'")
    )
    details = fields.get("details", "").strip().strip("\"'")
    ft, confidence = categorise(f"{error}\n{details}")
    file, line = _file_in(error)
    if file is None:
        file, line = _file_in(details)
    hint: dict[str, object] = {k: v.strip().strip("\"'") for k, v in fields.items() if v}
    message = error or signal
    if error:
        signal = f"{task}: {error}" if task else error
    if details:
        message += f" ({details})"
    return Hit(
        signal=signal,
        message=message,
        file=file,
        line=line,
        category=ft,
        code=f"coordinator:{ft.value}",
        task=task,
        log_line=log_line,
        confidence=confidence,
        hint=hint,
    )


@dataclass
class _LogEntryBlock:
    """The indented `Key: value` lines under an ERROR header."""

    header: str
    start: int
    task: str
    fields: dict[str, str]
    max_lines: int = 200
    last: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip() or not line[0].isspace():
            return False
        if m := re.match(r"^\s+(?P<key>[A-Z][A-Za-z ]{0,30}):\s?(?P<value>.*)$", line):
            self.last = m.group("key").lower().replace(" ", "_")
            self.fields[self.last] = m.group("value").strip()
        elif self.last:  # a continuation of the previous value
            self.fields[self.last] += " " + line.strip()
        return True

    def finish(self) -> Iterable[Hit]:
        yield _hit(self.fields, self.header, self.start, self.task)


@rule(
    id="coordinator.log_error",
    category=FailureType.INFRA,
    tool="coordinator",
    pattern=r"^\[(?P<ts>[^\]]+)\] (?P<level>ERROR|FATAL) (?P<worker>\S+) (?P<task>[A-Z][A-Z0-9]*-\d+)(?: (?P<phase>\S+))?\s*$",
    triggers=("] ERROR ", "] FATAL "),
    priority=100,
)
def coordinator_log_error(m: re.Match[str], ctx: LineContext) -> _LogEntryBlock:
    """An ERROR entry of the coordinator's session or per-task failure log.

    What it detects: `[timestamp] ERROR worker TASK-ID phase` and the
    indented `Phase:`, `Error:`, `Details:`, `Action:` lines after it. The
    task id goes into the record's `task`; the category comes from what the
    Error and Details say ("3 tests failing in message-tools.test.ts" is a
    test failure in that file, a merge conflict is branch_divergence, "disk
    full" is infra, ...), confidence 0.8 (0.4 when nothing matched and it
    falls back to infra).

    Example output (documented format, not captured: shared/seeds/001
    failure-handling log format):
        [2026-01-20T10:25:00Z] ERROR worker-2 TASK-007 implementation
          Phase: implement
          Error: 3 tests failing in message-tools.test.ts
          Details: Expected array of 3, received array of 2
          Action: Offering retry

    Recipe: the category's recipe (test, branch_divergence, infra, ...).
    hint: timestamp, worker, phase, error, details, action.

    References: shared/seeds/001 (agile-coordinator failure handling: log format, progress files)
    """
    fields = {"timestamp": m.group("ts"), "worker": m.group("worker")}
    if m.group("phase"):
        fields["stage"] = m.group("phase")
    return _LogEntryBlock(
        header=ctx.line.strip(), start=ctx.line_no, task=m.group("task"), fields=fields
    )


_KV = lazy_compile(r'^\s*"?(?P<key>[A-Za-z_][\w-]*)"?\s*:\s*(?P<value>.*?),?\s*$')


def _unquote(value: str) -> str:
    v = value.strip().rstrip(",").strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        v = v[1:-1].replace('\\"', '"')
    return v


@dataclass
class _ProgressBlock:
    """The rest of a progress document after its `status: failed` line."""

    fields: dict[str, str]
    start: int
    signal: str
    max_lines: int = 60

    def feed(self, line: str, line_no: int) -> bool:
        s = line.strip()
        if s in {"---", "...", "}"} or s.startswith("}"):
            return False
        m = _KV.match(line)
        if m is None or m.group("key") == "status":
            return False
        key = m.group("key").lower()
        if m.group("value") not in {"", "{", "["}:
            self.fields.setdefault(key, _unquote(m.group("value")))
        return True

    def finish(self) -> Iterable[Hit]:
        task = self.fields.get("task") or self.fields.get("task_id") or self.fields.get("id")
        yield _hit(self.fields, self.signal, self.start, task)


@rule(
    id="coordinator.progress_failed",
    category=FailureType.INFRA,
    tool="coordinator",
    pattern=r'^\s*"?status"?\s*:\s*["\']?failed["\']?,?\s*$',
    triggers=("status: failed", 'status": "failed"', "status: 'failed'", 'status: "failed"'),
    priority=100,
)
def coordinator_progress_failed(m: re.Match[str], ctx: LineContext) -> _ProgressBlock:
    """A worker progress file that says the worker failed.

    What it detects: `status: failed` (YAML) or `"status": "failed"` (JSON)
    in a worker's progress file, with the `error: "..."` field (before or
    after it) and the task, worker and phase fields around it. The category
    comes from the error text, as for coordinator.log_error; the task id
    goes into `task`.

    Example output (documented format, not captured: shared/seeds/001
    worker progress files):
        task: TASK-007
        status: failed
        error: "3 tests failing in message-tools.test.ts"

    Recipe: the category's recipe. hint: task, worker, phase, error,
    attempts.

    References: shared/seeds/001 (agile-coordinator failure handling: log format, progress files)
    """
    fields: dict[str, str] = {}
    for line in lines_above(ctx, 30):
        s = line.strip()
        if s in {"---", "{"} or (s.endswith("{") and not s.startswith('"')):
            break
        if (kv := _KV.match(line)) and kv.group("value") not in {"", "{", "["}:
            fields.setdefault(kv.group("key").lower(), _unquote(kv.group("value")))
    return _ProgressBlock(fields=fields, start=ctx.line_no, signal=ctx.line.strip())
