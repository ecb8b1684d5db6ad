"""VS Code problem matchers as project rules.

A project may give a `problemMatcher` (the object VS Code's tasks.json
takes, or a built-in's name like `$tsc`) in `.faultlens.toml`, or ask for
the matchers of the workspace's `.vscode/tasks.json` (`vscode_tasks =
true`; JSON with comments and trailing commas, as VS Code reads it).

What a matcher means follows VS Code's problemMatcher.ts:

* `pattern`: one pattern, or an array for problems spread over several
  lines (the lines must come one after another; only the last may `loop`,
  matching as long as lines go on matching, one problem each, with what the
  earlier lines captured); each pattern's `regexp` (JavaScript syntax) and
  the group numbers of `file`, `location` (`line`, `line,col` or
  `line,col,endLine,endCol`), `line`, `column`, `endLine`, `endColumn`,
  `severity`, `code`, `message`, `kind` (`location` or `file`);
  a single pattern defaults to file 1, line 2, column 3, message 0 (file 1,
  message 0 with `location` or kind file); the first value captured for a
  field wins, `message` lines are joined; a problem needs a file, a
  message and (unless kind file) a line;
* `severity` of a problem: its group (error, warning/warn, info, E, W, I,
  hint, note), else the matcher's `severity`, else error; errors are
  failures, warnings are warnings (records when warnings failed the run),
  info is dropped; `include_warnings` makes them all failures;
* `fileLocation`: `relative` (to the working directory, or a base path:
  `["relative", "${workspaceFolder}/src"]`), `absolute`, `autoDetect`
  (relative when that file exists, else absolute);
* `owner` names the tool; `base` extends a built-in matcher;
* `background` (`beginsPattern`, `endsPattern`, `activeOnStart`): kept on
  :class:`Background` for a watcher (`faultlens.classifier.config` puts it
  in `ProjectConfig.matchers`); classification itself does not need it.

VS Code's built-in names resolve to faultlens' own rules (:data:`BUILTINS`):
`$tsc`, `$tsc-watch`, `$gcc`, `$eslint-stylish` and `$go` to the built-in
rules for those tools; `$eslint-compact`, `$msCompile`, `$jshint`,
`$jshint-stylish`, `$lessc` and `$node-sass` to matchers defined here.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import regex

from .errorformat import literal_runs
from .project_rules import NEWLINE_TRIGGER, Guard, RuleGaveUp
from .rules.base import Hit, LineContext, Rule
from .taxonomy import FailureType

_FIELDS = ("file", "location", "line", "column", "endLine", "endColumn", "severity", "code")
_INTEGER_FIELDS = (*_FIELDS, "message")
_ALWAYS = re.compile("")


class MatcherError(ValueError):
    """A problem matcher VS Code would refuse; one line."""


@dataclass(frozen=True)
class LinePattern:
    """One pattern of a matcher."""

    source: str
    regex: regex.Pattern[str]
    groups: dict[str, int]  # field -> group number
    kind: str = "location"  # or "file"
    loop: bool = False


@dataclass(frozen=True)
class WatchPattern:
    regex: regex.Pattern[str]
    file: int | None = None

    def matches(self, line: str) -> bool:
        try:
            return self.regex.search(line, timeout=0.1) is not None
        except TimeoutError:
            return False


@dataclass(frozen=True)
class Background:
    """What a watcher needs of a background task's matcher: where a build
    cycle begins and ends in the task's output."""

    begins: WatchPattern
    ends: WatchPattern
    active_on_start: bool = False

    def begins_at(self, line: str) -> bool:
        return self.begins.matches(line)

    def ends_at(self, line: str) -> bool:
        return self.ends.matches(line)


@dataclass(frozen=True)
class ProblemMatcher:
    owner: str
    patterns: tuple[LinePattern, ...]
    file_location: str = "relative"  # relative | absolute | autodetect
    file_prefix: str | None = None  # the base path of relative / autodetect
    severity: str = "error"
    source: str | None = None
    background: Background | None = None


@dataclass(frozen=True)
class BuiltinRef:
    """A built-in name that stands for faultlens' own built-in rules."""

    name: str
    rules: tuple[str, ...]  # rule ids or globs
    background: Background | None = None


# -- JavaScript regexps ------------------------------------------------------------
def js_regex(text: str) -> regex.Pattern[str]:
    """A VS Code `regexp` (JavaScript syntax, no flags) for the `regex` module."""
    if not isinstance(text, str) or not text:
        raise MatcherError("`regexp` must be a non-empty string")
    out: list[str] = []
    i = 0
    in_class = False
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            n = text[i + 1]
            if n == "k" and text.startswith("<", i + 2):
                close = text.find(">", i + 3)
                if close > 0:
                    out.append(f"(?P={text[i + 3 : close]})")
                    i = close + 1
                    continue
            out.append(text[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            if text.startswith("[^]", i):
                out.append("(?s:.)")
                i += 3
                continue
            if text.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            in_class = True
            out.append(c)
            i += 1
            continue
        if text.startswith("(?<", i) and not text.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
            continue
        out.append(c)
        i += 1
    try:
        return regex.compile("".join(out), regex.V0 | regex.ASCII)
    except regex.error as exc:
        raise MatcherError(f"`regexp` {text!r} is not a valid regular expression: {exc}") from None
    except (OverflowError, RecursionError):
        raise MatcherError(f"`regexp` {text!r} is too large") from None


# -- parsing matchers ----------------------------------------------------------------
def _pattern(value: Any, *, single: bool, index: int) -> LinePattern:
    if isinstance(value, str):
        raise MatcherError(f"pattern {value!r}: named patterns other than a built-in's are unknown")
    if not isinstance(value, dict):
        raise MatcherError("`pattern` must be an object or an array of objects")
    unknown = set(value) - {"regexp", "kind", "loop", "name", *_INTEGER_FIELDS}
    if unknown:
        raise MatcherError(f"pattern {index + 1}: unknown key `{sorted(unknown)[0]}`")
    compiled = js_regex(value.get("regexp", ""))
    groups: dict[str, int] = {}
    for name in _INTEGER_FIELDS:
        v = value.get(name)
        if v is None:
            continue
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise MatcherError(f"pattern {index + 1}: `{name}` must be a group number")
        if v > compiled.groups:
            raise MatcherError(
                f"pattern {index + 1}: `{name}` is group {v}, but the regexp has {compiled.groups}"
            )
        groups[name] = v
    kind = str(value.get("kind", "location")).lower()
    if kind not in ("location", "file"):
        raise MatcherError(f"pattern {index + 1}: `kind` must be location or file")
    if single:
        defaults = (
            {"file": 1, "message": 0}
            if "location" in groups or kind == "file"
            else {"file": 1, "line": 2, "column": 3, "message": 0}
        )
        for k, v in defaults.items():
            if v <= compiled.groups:
                groups.setdefault(k, v)
    loop = value.get("loop", False)
    if not isinstance(loop, bool):
        raise MatcherError(f"pattern {index + 1}: `loop` must be true or false")
    return LinePattern(value["regexp"], compiled, groups, kind, loop)


def parse_matcher(value: Any) -> ProblemMatcher | BuiltinRef:
    """A matcher from its tasks.json form (an object, or a built-in's name)."""
    if isinstance(value, str):
        return resolve_builtin(value)
    if not isinstance(value, dict):
        raise MatcherError("`problemMatcher` must be an object or a built-in matcher's name")
    base: ProblemMatcher | BuiltinRef | None = None
    if "base" in value:
        base = resolve_builtin(value["base"]) if isinstance(value["base"], str) else None
        if base is None:
            raise MatcherError("`base` must be a built-in matcher's name ($tsc, ...)")
    if isinstance(base, BuiltinRef):
        return base  # faultlens' own rules read that tool; the overrides do not apply to them
    raw = value.get("pattern", None)
    if raw is None:
        if base is None:
            raise MatcherError("a problem matcher needs a `pattern`")
        patterns = base.patterns
    elif isinstance(raw, str):
        named = resolve_builtin(raw)
        if not isinstance(named, ProblemMatcher):
            raise MatcherError(f"pattern {raw!r} names faultlens' built-in rules, not a pattern")
        patterns = named.patterns
    elif isinstance(raw, list):
        if not raw:
            raise MatcherError("`pattern` must not be empty")
        patterns = tuple(_pattern(p, single=False, index=i) for i, p in enumerate(raw))
        if any(p.loop for p in patterns[:-1]):
            raise MatcherError("only the last pattern may `loop`")
    else:
        patterns = (_pattern(raw, single=True, index=0),)
    _validate(patterns)
    location, prefix = _file_location(value.get("fileLocation"), base)
    severity = str(value.get("severity", base.severity if base else "error")).lower()
    if severity not in ("error", "warning", "info", "ignore"):
        raise MatcherError("`severity` must be error, warning, info or ignore")
    owner = value.get("owner", base.owner if base else "external")
    source = value.get("source", base.source if base else None)
    background = _background(value.get("background", value.get("watching")))
    if background is None and base is not None:
        background = base.background
    return ProblemMatcher(
        str(owner),
        patterns,
        location,
        prefix,
        severity,
        None if source is None else str(source),
        background,
    )


def _validate(patterns: Sequence[LinePattern]) -> None:
    fields = {k for p in patterns for k in p.groups}
    if "file" not in fields or "message" not in fields:
        raise MatcherError("the pattern must capture at least a file and a message")
    if patterns[0].kind == "location" and not ({"location", "line"} & fields):
        raise MatcherError('the pattern must capture a line or a location (or have kind "file")')


def _file_location(value: Any, base: ProblemMatcher | None) -> tuple[str, str | None]:
    if value is None:
        return (base.file_location, base.file_prefix) if base else ("relative", None)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(x, str) for x in value):
        raise MatcherError("`fileLocation` must be a string or [kind, base path]")
    kind = value[0].lower()
    if kind not in ("relative", "absolute", "autodetect"):
        raise MatcherError("`fileLocation` must be relative, absolute or autoDetect")
    return kind, (value[1] if len(value) > 1 else None)


def _background(value: Any) -> Background | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise MatcherError("`background` must be an object")

    def watch(v: Any, name: str) -> WatchPattern:
        if isinstance(v, str):
            return WatchPattern(js_regex(v))
        if isinstance(v, dict) and isinstance(v.get("regexp"), str):
            f = v.get("file")
            return WatchPattern(js_regex(v["regexp"]), f if isinstance(f, int) else None)
        raise MatcherError(f"`background.{name}` must be a regexp or {{regexp, file}}")

    if "beginsPattern" not in value or "endsPattern" not in value:
        raise MatcherError("`background` needs a `beginsPattern` and an `endsPattern`")
    return Background(
        watch(value["beginsPattern"], "beginsPattern"),
        watch(value["endsPattern"], "endsPattern"),
        bool(value.get("activeOnStart", False)),
    )


# -- VS Code's built-in names -----------------------------------------------------
_TSC_WATCH = {
    "beginsPattern": r"^\s*(?:message TS6032:|\[?\D*\d{1,2}[:.]\d{1,2}[:.]\d{1,2}\D*(?:\]| -))?"
    r"\s*(?:Starting compilation in watch mode|File change detected\. Starting incremental"
    r" compilation)\.\.\.",
    "endsPattern": r"^\s*(?:message TS6042:|\[?\D*\d{1,2}[:.]\d{1,2}[:.]\d{1,2}\D*(?:\]| -))?"
    r"\s*(?:Compilation complete\.|Found \d+ errors?\.) Watching for file changes\.",
    "activeOnStart": True,
}
# Matchers for the built-in names faultlens has no rule family for, written
# here from each tool's output format.
_OWN: dict[str, dict[str, Any]] = {
    "$eslint-compact": {
        "owner": "eslint",
        "pattern": {
            "regexp": r"^(.+?):\s+line\s+(\d+),\s+col\s+(\d+),\s+(Error|Warning|Info)\s+-\s+"
            r"(.+?)(?:\s+\(([\w@/-]+)\))?$",
            "file": 1,
            "line": 2,
            "column": 3,
            "severity": 4,
            "message": 5,
            "code": 6,
        },
    },
    "$msCompile": {
        "owner": "msCompile",
        "pattern": {
            "regexp": r"^(?:\s*\d+>)?(\S.*?)\((\d+|\d+,\d+|\d+,\d+,\d+,\d+)\)\s*:\s+"
            r"(?:fatal\s+)?(error|warning|info)\s+(\w{1,2}\d+)\s*:\s*(.*?)(?:\s+\[[^\]]+\])?$",
            "file": 1,
            "location": 2,
            "severity": 3,
            "code": 4,
            "message": 5,
        },
    },
    "$jshint": {
        "owner": "jshint",
        "pattern": {
            "regexp": r"^(.+?):\s+line\s+(\d+),\s+col\s+(\d+),\s+(.+?)(?:\s+\(([EWI]\d+)\))?$",
            "file": 1,
            "line": 2,
            "column": 3,
            "message": 4,
            "code": 5,
        },
    },
    "$jshint-stylish": {
        "owner": "jshint",
        "pattern": [
            {"regexp": r"^(\S.*)$", "file": 1},
            {
                "regexp": r"^\s+line\s+(\d+)\s+col\s+(\d+)\s+(.+?)(?:\s+\(([EWI]\d+)\))?$",
                "line": 1,
                "column": 2,
                "message": 3,
                "code": 4,
                "loop": True,
            },
        ],
    },
    "$lessc": {
        "owner": "lessc",
        "fileLocation": "absolute",
        "pattern": {
            "regexp": r"^\w*Error:\s+(.*?)\s+in\s+(\S.*?)\s+on\s+line\s+(\d+),\s+column\s+(\d+):?$",
            "message": 1,
            "file": 2,
            "line": 3,
            "column": 4,
        },
    },
    "$node-sass": {
        "owner": "node-sass",
        "pattern": [
            {"regexp": r"^(?:\w+\s+)?Error:\s+(.+)$", "message": 1},
            {
                "regexp": r"^\s+on line (\d+)(?:, column (\d+))? of (\S.*)$",
                "line": 1,
                "column": 2,
                "file": 3,
            },
        ],
    },
}
_RULES: dict[str, tuple[str, ...]] = {
    "$tsc": ("tsc.*",),
    "$tsc-watch": ("tsc.*",),
    "$gcc": ("c.compiler_error", "c.ld"),
    "$eslint-stylish": ("eslint.stylish",),
    "$go": ("go.compile",),
}
BUILTIN_NAMES = tuple(sorted({*_RULES, *_OWN}))


def resolve_builtin(name: str) -> ProblemMatcher | BuiltinRef:
    """A built-in matcher name (with or without its `$`)."""
    key = name if name.startswith("$") else f"${name}"
    if key in _RULES:
        bg = _background(_TSC_WATCH) if key == "$tsc-watch" else None
        return BuiltinRef(key, _RULES[key], bg)
    if key in _OWN:
        found = parse_matcher(_OWN[key])
        assert isinstance(found, ProblemMatcher)
        return found
    raise MatcherError(
        f"unknown problem matcher {name!r} (faultlens knows {', '.join(BUILTIN_NAMES)})"
    )


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
    m = re.match(r"\s*[-+]?\d+", text or "")
    if not m:
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


# -- .vscode/tasks.json ------------------------------------------------------------
def loads_jsonc(text: str) -> Any:
    """JSON with // and /* */ comments and trailing commas, as VS Code reads
    tasks.json; ValueError says where it is not."""
    # 1. the comments out (strings kept whole), 2. the trailing commas out
    out: list[str] = []
    for kind, piece in _jsonc_tokens(text):
        if kind != "comment":
            out.append(piece)
    cleaned: list[str] = []
    for kind, piece in _jsonc_tokens("".join(out)):
        if kind == "text" and "," in piece:
            piece = re.sub(r",(\s*)(?=[\]}])", r"\1", piece)
        cleaned.append(piece)
    body = "".join(cleaned)
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON with comments: {exc.msg} (line {exc.lineno})") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _jsonc_tokens(text: str) -> list[tuple[str, str]]:
    """text split into strings, comments and the rest."""
    out: list[tuple[str, str]] = []
    i = 0
    n = len(text)
    start = 0
    while i < n:
        c = text[i]
        if c == '"' or text.startswith(("//", "/*"), i):
            if start < i:
                out.append(("text", text[start:i]))
            if c == '"':
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                out.append(("string", text[i : j + 1]))
                i = j + 1
            elif text.startswith("//", i):
                j = text.find("\n", i)
                i = n if j < 0 else j
                out.append(("comment", ""))
            else:
                j = text.find("*/", i + 2)
                if j < 0:
                    raise ValueError("a /* comment is not closed")
                out.append(("comment", " "))
                i = j + 2
            start = i
            continue
        i += 1
    if start < n:
        out.append(("text", text[start:]))
    return out


def _slug(label: str) -> str:
    s = re.sub(r"[^a-z0-9_]+", "_", label.lower()).strip("_")
    return s[:40] or "task"


def specs_from_tasks(data: bytes) -> tuple[list[dict[str, Any]], list[str]]:
    """The rule specs of a tasks.json's problem matchers, and its problems."""
    try:
        doc = loads_jsonc(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return [], ["not UTF-8 text"]
    except ValueError as exc:
        return [], [str(exc)]
    if not isinstance(doc, dict):
        return [], ["the top level must be an object"]
    tasks = doc.get("tasks", [])
    if not isinstance(tasks, list):
        return [], ["`tasks` must be an array"]
    specs: list[dict[str, Any]] = []
    problems: list[str] = []
    used: set[str] = set()
    for n, task in enumerate(tasks, 1):
        if not isinstance(task, dict):
            problems.append(f"task #{n} is not an object")
            continue
        label = str(task.get("label") or task.get("taskName") or f"task {n}")
        pm = task.get("problemMatcher")
        if pm is None:
            continue
        for k, one in enumerate(pm if isinstance(pm, list) else [pm], 1):
            rid = f"vscode.{_slug(label)}" + (f"_{k}" if k > 1 else "")
            while rid in used:
                rid += "_"
            used.add(rid)
            specs.append({"id": rid, "category": "compile", "problemMatcher": one, "_task": label})
    return specs, problems


def field_names() -> tuple[str, ...]:
    return _INTEGER_FIELDS


__all__ = [
    "BUILTIN_NAMES",
    "Background",
    "BuiltinRef",
    "LinePattern",
    "MatcherError",
    "ProblemMatcher",
    "WatchPattern",
    "loads_jsonc",
    "matcher_rule",
    "parse_matcher",
    "resolve_builtin",
    "specs_from_tasks",
]
