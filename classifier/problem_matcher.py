"""VS Code problem matchers as project rules: reading a matcher (its
tasks.json form or a built-in's name) into a :class:`ProblemMatcher`.
What a matcher is: classifier/matcher_model.py; matching output with it:
classifier/matcher_rule.py; a workspace's .vscode/tasks.json:
classifier/vscode_tasks.py.

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

from collections.abc import Sequence
from typing import Any

from .jsregex import js_regex
from .matcher_model import (
    Background,
    BuiltinRef,
    LinePattern,
    MatcherError,
    ProblemMatcher,
    WatchPattern,
)

_FIELDS = ("file", "location", "line", "column", "endLine", "endColumn", "severity", "code")
_INTEGER_FIELDS = (*_FIELDS, "message")


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
