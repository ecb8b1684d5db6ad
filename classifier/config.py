"""Project configuration: `[tool.faultlens]` in pyproject.toml, or a
`.faultlens.toml` (top-level keys, or the same `[tool.faultlens]` table).

What a project can say (see docs/project-rules.md):

    [tool.faultlens]
    disable = ["python.ruff", "c.make_*"]      # built-in rule ids or globs

    [[tool.faultlens.rules]]                    # a regex with named groups
    id = "acme.deploy"
    category = "infra"
    regex = 'DEPLOY FAILED at (?P<file>[^:]+):(?P<line>\\d+): (?P<message>.+)'
    triggers = ["DEPLOY FAILED"]                # optional when the regex has a literal

    [[tool.faultlens.rules]]                    # or a Vim errorformat
    id = "acme.lint"
    category = "compile"
    errorformat = ["%E%f:%l: error: %m", "%C    %m", "%Z"]

A bad rule never stops classification: it is left out and its error, which
names the rule and the file, is returned for the caller to show (the CLI
exits 2, the language server sends a message).  The first config found
walking up from the working directory wins; .faultlens.toml before
pyproject.toml in the same folder.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errorformat import ErrorformatError, Pattern, compile_errorformat
from .rules.base import Hit, LineContext, Rule, hit_from_match, positive_int
from .rules.registry import all_rules, rules_version
from .taxonomy import FailureType

CONFIG_FILES = (".faultlens.toml", "pyproject.toml")
_ID = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_-]+)+$")
_GROUPS = {"file", "line", "column", "end_line", "end_column", "message", "code"}


@dataclass
class ProjectConfig:
    """What a project's configuration file says."""

    path: Path | None = None
    rules: list[Rule] = field(default_factory=list)
    disable: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    table: dict[str, Any] = field(default_factory=dict)  # the whole [tool.faultlens] table


def find_config(start: str | os.PathLike[str]) -> Path | None:
    """The config file that applies to `start`: nearest folder upward."""
    # (strings and os.stat: this walk runs for every classification; the
    # same answers as Path.is_file / Path.exists over Path.parents)
    folder = os.path.abspath(start)
    while True:
        for name in CONFIG_FILES:
            candidate = os.path.join(folder, name)
            mode = _mode(candidate)
            if (
                mode is not None
                and stat.S_ISREG(mode)
                and (name != "pyproject.toml" or _has_table(Path(candidate)))
            ):
                return Path(candidate)
        if _mode(os.path.join(folder, ".git")) is not None:
            return None
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _mode(path: str) -> int | None:
    """The file's st_mode, None where Path.is_file/exists would say False
    (other errors are raised, as pathlib does)."""
    try:
        return os.stat(path).st_mode
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return None
        raise
    except ValueError:
        return None


def _stamp(path: Path) -> tuple[int, int]:
    """What tells a changed file: its modification time (ns) and size."""
    st = path.stat()
    return st.st_mtime_ns, st.st_size


# pyproject.toml (path, stamp) -> has a [tool.faultlens] table: a project's
# pyproject.toml is parsed once per change, not once per classification.
_tables: dict[tuple[Path, tuple[int, int]], bool] = {}


def _has_table(pyproject: Path) -> bool:
    try:
        key = (pyproject, _stamp(pyproject))
    except OSError:
        return False
    found = _tables.get(key)
    if found is None:
        try:
            text = pyproject.read_text("utf-8")
            found = "faultlens" in tomllib.loads(text).get("tool", {})
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            return False
        if len(_tables) >= 256:
            _tables.clear()
        _tables[key] = found
    return found


def load_config(cwd: str | os.PathLike[str]) -> ProjectConfig:
    """Read and check the project's configuration (never raises)."""
    path = find_config(cwd)
    if path is None:
        return ProjectConfig()
    return _load(path, _stamp(path))


_cache: dict[tuple[Path, tuple[int, int]], ProjectConfig] = {}


def _load(path: Path, stamp: tuple[int, int]) -> ProjectConfig:
    key = (path, stamp)
    if key in _cache:
        return _cache[key]
    cfg = ProjectConfig(path=path)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        cfg.errors.append(f"{path}: cannot read: {exc}")
        return cfg
    except tomllib.TOMLDecodeError as exc:
        cfg.errors.append(f"{path}: invalid TOML: {exc}")
        return cfg
    table = data.get("tool", {}).get("faultlens") if "tool" in data else None
    if table is None:
        table = {} if path.name == "pyproject.toml" else data
    cfg.table = table
    disable = table.get("disable", [])
    if isinstance(disable, list) and all(isinstance(x, str) for x in disable):
        cfg.disable = disable
    else:
        cfg.errors.append(f"{path}: `disable` must be a list of rule ids or globs")
    rules = table.get("rules", [])
    if not isinstance(rules, list):
        cfg.errors.append(f"{path}: `rules` must be an array of tables ([[tool.faultlens.rules]])")
        rules = []
    seen = {r.id for r in all_rules()}
    for n, spec in enumerate(rules, 1):
        name = spec.get("id", f"#{n}") if isinstance(spec, dict) else f"#{n}"
        try:
            rule = build_rule(spec)
        except ValueError as exc:
            cfg.errors.append(f"{path}: rule {name!r}: {exc}")
            continue
        if rule.id in seen:
            cfg.errors.append(f"{path}: rule {name!r}: id already used by another rule")
            continue
        seen.add(rule.id)
        cfg.rules.append(rule)
    _cache[key] = cfg
    return cfg


def effective_rules(cwd: str | os.PathLike[str]) -> tuple[list[Rule], list[str]]:
    """The rules that apply under `cwd`: built-ins not disabled, then the
    project's own (which run first), and the configuration's errors."""
    cfg = load_config(cwd)
    builtin = list(_enabled_builtins(tuple(cfg.disable), rules_version()))
    if not cfg.rules:
        return builtin, cfg.errors
    return [*cfg.rules, *builtin], cfg.errors


@lru_cache(maxsize=16)
def _enabled_builtins(disable: tuple[str, ...], version: int) -> tuple[Rule, ...]:
    """The built-in rules (registry `version`) that `disable` leaves on."""
    return tuple(r for r in all_rules() if not _disabled(r.id, disable))


def _disabled(rule_id: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(rule_id, p) for p in patterns)


# -- building rules ------------------------------------------------------------
def build_rule(spec: Any) -> Rule:
    """A Rule from one `[[tool.faultlens.rules]]` table; ValueError says why not."""
    if not isinstance(spec, dict):
        raise ValueError("must be a table")
    rid = spec.get("id")
    if not isinstance(rid, str) or not _ID.match(rid):
        raise ValueError("`id` must look like `project.name` (lowercase, dot-separated)")
    try:
        category = FailureType(spec.get("category", ""))
    except ValueError:
        choices = ", ".join(ft.value for ft in FailureType)
        raise ValueError(f"`category` must be one of {choices}") from None
    tool = str(spec.get("tool") or rid.split(".")[0])
    triggers = spec.get("triggers")
    if triggers is not None and (
        not isinstance(triggers, list) or not all(isinstance(t, str) and t for t in triggers)
    ):
        raise ValueError("`triggers` must be a list of non-empty strings")
    has_regex, has_efm = "regex" in spec, "errorformat" in spec
    if has_regex == has_efm:
        raise ValueError("give exactly one of `regex` or `errorformat`")
    if has_regex:
        return _regex_rule(rid, category, tool, spec["regex"], triggers, spec)
    return _efm_rule(rid, category, tool, spec["errorformat"], triggers, spec)


def _regex_rule(
    rid: str,
    category: FailureType,
    tool: str,
    regex: Any,
    triggers: list[str] | None,
    spec: dict[str, Any],
) -> Rule:
    if not isinstance(regex, str) or not regex:
        raise ValueError("`regex` must be a non-empty string")
    try:
        pattern = re.compile(regex)
    except re.error as exc:
        raise ValueError(f"`regex` does not compile: {exc}") from None
    unknown = set(pattern.groupindex) - _GROUPS
    if unknown:
        raise ValueError(f"unknown named groups {sorted(unknown)}; use {sorted(_GROUPS)}")
    if triggers is None:
        lit = required_literal(regex)
        if lit is None:
            raise ValueError(
                "give `triggers`: literal text that every matching line contains "
                "(none could be read from the regex)"
            )
        triggers = [lit]

    def func(m: re.Match[str], ctx: LineContext) -> Hit:
        return hit_from_match(m, ctx)

    func.__doc__ = f"Project rule {rid} ({spec.get('summary', 'regex')})."
    return Rule(
        rid,
        category,
        tool,
        pattern,
        tuple(triggers),
        func,
        "project",
        str(spec.get("url", "")),
        100,
    )


def required_literal(regex: str) -> str | None:
    """The longest run of literal text outside groups, classes and
    quantifiers that any match must contain; None when the regex has a
    top-level alternation or no literal of at least 2 characters."""
    runs: list[str] = []
    cur: list[str] = []
    depth = 0
    i = 0
    in_class = False

    def end_run(drop_last: bool = False) -> None:
        if drop_last and cur:
            cur.pop()
        if cur:
            runs.append("".join(cur))
        cur.clear()

    while i < len(regex):
        ch = regex[i]
        nxt = regex[i + 1] if i + 1 < len(regex) else ""
        if in_class:
            if ch == "\\":
                i += 2
                continue
            if ch == "]":
                in_class = False
            i += 1
            continue
        if ch == "\\":
            if depth == 0 and nxt and not nxt.isalnum():
                cur.append(nxt)
            else:
                end_run()
            i += 2
        elif ch == "[":
            end_run()
            in_class = True
            i += 1
        elif ch == "(":
            end_run()
            depth += 1
            i += 1
        elif ch == ")":
            depth -= 1
            i += 1
        elif ch == "|":
            if depth == 0:
                return None
            i += 1
        elif ch in "*?+{":
            end_run(drop_last=ch in "*?{")  # the quantified char is optional
            i += 1
        elif ch in ".^$":
            end_run()
            i += 1
        else:
            if depth == 0:
                cur.append(ch)
            i += 1
    end_run()
    best = max(runs, key=len, default="")
    return best if len(best) >= 2 else None


def _efm_rule(
    rid: str,
    category: FailureType,
    tool: str,
    efm: Any,
    triggers: list[str] | None,
    spec: dict[str, Any],
) -> Rule:
    if not isinstance(efm, str | list):
        raise ValueError("`errorformat` must be a string or a list of strings")
    try:
        patterns = compile_errorformat(efm)
    except ErrorformatError as exc:
        raise ValueError(f"`errorformat` {exc}") from None
    starts = [p for p in patterns if p.kind not in ("C", "Z") and not p.ignore]
    if not starts:
        raise ValueError("`errorformat` has no format that starts an entry")
    if triggers is None:
        triggers = []
        for p in starts:
            if not p.literals:
                raise ValueError(
                    f"give `triggers`: the format {p.source!r} has no literal text to look for"
                )
            triggers.append(max(p.literals, key=len))
    warnings = bool(spec.get("include_warnings", False))
    matcher = _EfmMatcher(patterns, warnings)
    # The engine needs one regex to gate the rule: any start format.
    gate = re.compile("|".join(f"(?:{p.regex.pattern})" for p in starts))

    def func(m: re.Match[str], ctx: LineContext) -> Hit | _EfmEntry | None:
        return matcher.start(ctx)

    func.__doc__ = f"Project rule {rid} (errorformat)."
    return Rule(
        rid, category, tool, gate, tuple(triggers), func, "project", str(spec.get("url", "")), 100
    )


class _EfmMatcher:
    def __init__(self, patterns: list[Pattern], warnings: bool) -> None:
        self.patterns = patterns
        self.continuations = [p for p in patterns if p.kind in ("C", "Z")]
        self.warnings = warnings

    def start(self, ctx: LineContext) -> Hit | _EfmEntry | None:
        for p in self.patterns:
            if p.kind in ("C", "Z"):
                continue
            m = p.regex.match(ctx.line)
            if m is None:
                continue
            if p.ignore:
                return None  # the first matching format wins, as in Vim
            fields = {k: v for k, v in m.groupdict().items() if v is not None}
            if p.whole_line:
                fields["message"] = ctx.line
            entry = _EfmEntry(self, p.kind, fields, ctx)
            if p.kind in ("E", "W", "I", "N", "A"):
                return entry
            return next(iter(entry.finish()), None)
        return None


class _EfmEntry:
    max_lines = 200

    def __init__(
        self, matcher: _EfmMatcher, kind: str, fields: dict[str, str], ctx: LineContext
    ) -> None:
        self.matcher = matcher
        self.kind = kind
        self.fields = fields
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.messages = [fields.get("message", "")]
        self.ended = False

    def feed(self, line: str, line_no: int) -> bool:
        if self.ended:
            return False
        for p in self.matcher.continuations:
            m = p.regex.match(line)
            if m is None:
                continue
            if p.ignore:
                return True
            for k, v in m.groupdict().items():
                if v is None:
                    continue
                if k == "message":
                    self.messages.append(line if p.whole_line else v)
                elif k == "pointer":
                    self.fields.setdefault("column", str(len(v) + 1))
                else:
                    self.fields.setdefault(k, v)
            self.ended = p.kind == "Z"
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        kind = self.kind or "E"
        typ = self.fields.get("type", "").lower()
        if kind == "A" or not self.kind:
            kind = {"w": "W", "i": "I", "n": "N"}.get(typ, "E")
        if kind != "E" and not self.matcher.warnings:
            return []

        def num(key: str) -> int | None:
            return positive_int(self.fields.get(key))

        message = "\n".join(x for x in self.messages if x).strip() or self.signal
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.fields.get("file") or None,
                line=num("line"),
                column=num("column"),
                end_line=num("end_line"),
                end_column=num("end_column"),
                code=self.fields.get("code"),
                log_line=self.log_line,
            )
        ]
