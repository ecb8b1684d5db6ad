"""A problem matcher as a project rule: matching output lines with its
patterns (one after another, the last may loop) into records."""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errorformat import literal_runs
from .lazyre import lazy_compile
from .matcher_model import (
    BuiltinRef,
    LinePattern,
    MatcherError,
    ProblemMatcher,
)
from .problem_matcher import parse_matcher
from .project_rules import NEWLINE_TRIGGER, Guard, RuleGaveUp
from .rules.base import MAX_DIGITS, Hit, LineContext, Rule
from .taxonomy import FailureType

_ALWAYS = lazy_compile("")

# -- matching ------------------------------------------------------------------------
_SEVERITY = {"error": "error", "warning": "warning", "warn": "warning", "info": "info"}


def _severity(data: dict[str, str], matcher: ProblemMatcher) -> str:
    value = data.get("severity")
    if value:
        found = _SEVERITY.get(value.lower())
        if found is None:
            found = {"E": "error", "W": "warning", "I": "info"}.get(value)
        if found is None and value.lower() in ("hint", "note"):
            found = "info"
        if found is not None:
            return found
    return matcher.severity if matcher.severity != "ignore" else "error"


def _fill(data: dict[str, str], pattern: LinePattern, m: Any) -> None:
    """VS Code's fillProblemData: the first capture of a field wins; message lines join."""
    for name, group in pattern.groups.items():
        value = m.group(group)
        if value is None:
            continue
        if name in ("file", "message", "code", "severity", "location"):
            value = value.strip(" ")
        if name == "message" and "message" in data:
            data["message"] += "\n" + value
        elif name not in data:
            data[name] = value


def _int(text: str | None) -> int | None:
    m = re.match(r"\s*[-+]?([0-9]+)", text or "")
    if not m or len(m.group(1).lstrip("0")) > MAX_DIGITS:  # none; int() refuses 4300 digits
        return None
    value = int(m.group())
    return value if value > 0 else None


@dataclass
class MatcherRule:
    """The behaviour of one problem-matcher project rule."""

    rule_id: str
    matcher: ProblemMatcher
    include_warnings: bool
    guard: Guard
    workspace: str = "."

    def search(self, pattern: LinePattern, line: str) -> Any:
        return self.guard.search(pattern.regex, line)

    def start(self, ctx: LineContext) -> Hit | _LoopSession | None:
        if self.guard.broken is not None:
            return None
        pats = self.matcher.patterns
        last = pats[-1]
        m = self.search(last, ctx.line)
        if m is None:
            return None
        data: dict[str, str] = {}
        if len(pats) > 1:
            before = ctx.before(len(pats) - 1)
            if len(before) < len(pats) - 1:
                return None
            for p, line in zip(pats[:-1], before, strict=True):
                mm = self.search(p, line)
                if mm is None:
                    return None
                _fill(data, p, mm)
        base = copy.deepcopy(data)
        _fill(data, last, m)
        hit = self.hit(data, ctx.line, ctx.cwd)
        if hit is not None:
            hit.log_line = ctx.line_no
        if last.loop and len(pats) > 1:
            return _LoopSession(self, base, ctx, [hit] if hit else [])
        return hit

    def hit(self, data: dict[str, str], signal: str, cwd: str) -> Hit | None:
        kind = self.matcher.patterns[0].kind
        file = data.get("file")
        message = data.get("message")
        if not file or not message:
            return None
        line = column = end_line = end_column = None
        if kind != "file":
            if data.get("location"):
                parts = [_int(x) for x in data["location"].split(",")]
                line = parts[0]
                column = parts[1] if len(parts) > 1 else None
                if len(parts) > 3:
                    end_line, end_column = parts[2], parts[3]
            elif data.get("line"):
                line = _int(data["line"])
                column = _int(data.get("column"))
                end_line = _int(data.get("endLine"))
                end_column = _int(data.get("endColumn"))
            if line is None:
                return None
        severity = _severity(data, self.matcher)
        if severity == "info" and not self.include_warnings:
            return None
        return Hit(
            warning=severity == "warning" and not self.include_warnings,
            signal=signal.strip(),
            message=message.strip(),
            file=self.path(file, cwd),
            line=line,
            column=column,
            end_line=end_line,
            end_column=end_column,
            code=data.get("code") or None,
            tool=self.matcher.source or self.matcher.owner,
        )

    def path(self, file: str, cwd: str) -> str:
        """The file as the matcher's fileLocation reads it."""
        kind = self.matcher.file_location
        prefix = self.matcher.file_prefix
        if prefix:
            prefix = (
                prefix.replace("${workspaceFolder}", self.workspace)
                .replace("${workspaceRoot}", self.workspace)
                .replace("${cwd}", cwd)
            )
        if kind == "absolute":
            return file
        joined = os.path.join(prefix, file) if prefix else file
        if kind == "autodetect":
            full = joined if os.path.isabs(joined) else os.path.join(cwd, joined)
            try:
                return joined if os.path.exists(full) else file
            except (OSError, ValueError):
                return file
        return joined


class _LoopSession:
    """The lines after a looping pattern's first match: one problem per line
    the last pattern goes on matching."""

    def __init__(
        self, rule: MatcherRule, base: dict[str, str], ctx: LineContext, hits: list[Hit]
    ) -> None:
        self.rule = rule
        self.base = base
        self.ctx = ctx
        self.found = hits
        self.max_lines = 100_000

    def feed(self, line: str, line_no: int) -> bool | None:
        try:
            m = self.rule.search(self.rule.matcher.patterns[-1], line)
        except RuleGaveUp:
            return False
        if m is None:
            return False
        data = copy.deepcopy(self.base)
        _fill(data, self.rule.matcher.patterns[-1], m)
        hit = self.rule.hit(data, line, self.ctx.cwd)
        if hit is not None:
            hit.log_line = line_no
            self.found.append(hit)
        return True

    def finish(self) -> list[Hit]:
        hits, self.found = self.found, []
        return hits


def matcher_triggers(matcher: ProblemMatcher) -> tuple[str, ...]:
    runs = literal_runs(matcher.patterns[-1].regex.pattern)
    best = max(runs, key=len, default="")
    return (best,) if best else (NEWLINE_TRIGGER,)


def matcher_rule(
    rid: str,
    category: FailureType,
    tool: str,
    value: Any,
    triggers: Sequence[str] | None,
    *,
    url: str = "",
    include_warnings: bool = False,
    workspace: str = ".",
) -> Rule | BuiltinRef:
    """The rule for a problem matcher; a BuiltinRef when the value names
    faultlens' built-in rules (`$tsc`): those are then kept on."""
    try:
        matcher = parse_matcher(value)
    except MatcherError as exc:
        raise ValueError(f"`problemMatcher`: {exc}") from None
    if isinstance(matcher, BuiltinRef):
        return matcher
    behaviour = MatcherRule(rid, matcher, include_warnings, Guard(rid), workspace)

    def func(m: Any, ctx: LineContext) -> Hit | _LoopSession | None:
        return behaviour.start(ctx)

    func.__doc__ = f"Project rule {rid} (VS Code problem matcher, owner {matcher.owner})."
    func.matcher = matcher  # type: ignore[attr-defined]
    chosen = tuple(triggers) if triggers is not None else matcher_triggers(matcher)
    return Rule(rid, category, tool, _ALWAYS, chosen, func, "project", url, 100)
