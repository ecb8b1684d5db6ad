"""Project configuration: `[tool.faultlens]` in pyproject.toml, or a
`.faultlens.toml` (top-level keys, or the same `[tool.faultlens]` table).

What a project can say (docs/project-rules.md; the typed model is
classifier/config_model.py):

    [tool.faultlens]
    disable = ["python.ruff", "c.make_*"]      # built-in rule ids or globs
    vscode_tasks = true                         # also read .vscode/tasks.json

    [[tool.faultlens.rules]]                    # a regex with named groups
    id = "acme.deploy"
    category = "infra"
    regex = 'DEPLOY FAILED at (?P<file>[^:]+):(?P<line>\\d+): (?P<message>.+)'

    [[tool.faultlens.rules]]                    # a Vim errorformat
    id = "acme.lint"
    category = "compile"
    errorformat = ["%E%f:%l: error: %m", "%C    %m", "%Z"]

    [[tool.faultlens.rules]]                    # a Vim compiler plugin's
    id = "team.rubocop"
    category = "compile"
    compiler = "rubocop"

    [[tool.faultlens.rules]]                    # a VS Code problem matcher
    id = "team.tsc"
    category = "compile"
    problemMatcher = "$tsc"

A bad rule never stops classification: it is left out, and its error, one
line naming the file and the rule, is returned for the caller to show (the
CLI prints it and exits 2, the language server sends a message).  The first
config found walking up from the working directory wins; .faultlens.toml
before pyproject.toml in the same folder.

The loader's entry point is :func:`parse_config`, a function of (path,
bytes) to a :class:`ProjectConfig` whose `errors` say what is wrong (the
fuzz target calls it); :func:`load_config` finds and reads the file
(regular files only, size-capped) and caches the result by path and stamp.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import project_rules as pr
from .config_model import (
    RULE_ID,
    ProjectTable,
    RuleSpec,
    one_line,
    rule_keys,
    table_keys,
    type_name,
)
from .errorformat import ErrorformatError, Format, compile_errorformat
from .rules.base import Rule
from .rules.registry import all_rules, rules_version

CONFIG_FILES = (".faultlens.toml", "pyproject.toml")
MAX_CONFIG_BYTES = 1024 * 1024
GROUPS = set(pr.GROUPS)
required_literal = pr.required_literal  # kept here: tests and docs name it


@dataclass
class ProjectConfig:
    """What a project's configuration file says."""

    path: Path | None = None
    rules: list[Rule] = field(default_factory=list)
    disable: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    table: dict[str, Any] = field(default_factory=dict)  # the whole [tool.faultlens] table
    # Built-in rules a problem matcher's name asked for ($tsc): kept on
    # even where `disable` names them.
    enable: list[str] = field(default_factory=list)
    # The problem matchers, by rule id: a watcher reads their `background`
    # (where a build cycle begins and ends; problem_matcher.Background).
    matchers: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Environment:
    """What building rules may read besides the config's own bytes: Vim's
    compiler plugins and the workspace's .vscode/tasks.json.  OFFLINE reads
    nothing (the fuzz target's choice)."""

    compiler: Callable[[str], str] | None = None
    tasks_json: Callable[[Path], bytes | None] | None = None


OFFLINE = Environment()


def system_environment() -> Environment:
    from .vimcompiler import errorformat

    return Environment(compiler=errorformat, tasks_json=_read_tasks_json)


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


# pyproject.toml (path, stamp) -> whether faultlens reads it: a project's
# pyproject.toml is parsed once per change, not once per classification.
_tables: dict[tuple[Path, tuple[int, int]], bool] = {}


def _has_table(pyproject: Path) -> bool:
    """Whether a pyproject.toml has a [tool.faultlens] table, or a `tool`
    of a shape that makes one unreadable (then its error is reported)."""
    try:
        key = (pyproject, _stamp(pyproject))
    except OSError:
        return False
    found = _tables.get(key)
    if found is None:
        try:
            data = tomllib.loads(read_config_bytes(pyproject).decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return False
        tool = data.get("tool")
        found = tool is not None and (not isinstance(tool, dict) or "faultlens" in tool)
        if len(_tables) >= 256:
            _tables.clear()
        _tables[key] = found
    return found


def read_config_bytes(path: Path, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """A config file's bytes: a regular file (never a FIFO or a device),
    at most `limit` bytes, opened without blocking (classifier/files.py)."""
    from .files import read_bytes

    return read_bytes(path, limit)


def _read_tasks_json(folder: Path) -> bytes | None:
    path = folder / ".vscode" / "tasks.json"
    try:
        return read_config_bytes(path)
    except FileNotFoundError:
        return None


def load_config(cwd: str | os.PathLike[str]) -> ProjectConfig:
    """Read and check the project's configuration (never raises)."""
    path = find_config(cwd)
    if path is None:
        return ProjectConfig()
    try:
        stamp = _stamp(path)
    except OSError as exc:
        return ProjectConfig(path=path, errors=[f"{path}: cannot read: {exc.strerror or exc}"])
    key = (path, stamp, _tasks_stamp(path))
    found = _cache.get(key)
    if found is None:
        try:
            data = read_config_bytes(path)
        except OSError as exc:
            return ProjectConfig(path=path, errors=[f"{path}: cannot read: {exc.strerror or exc}"])
        found = parse_config(path, data, system_environment())
        if len(_cache) >= 64:
            _cache.clear()
        _cache[key] = found
    return found


_cache: dict[tuple[Path, tuple[int, int], tuple[int, int] | None], ProjectConfig] = {}


def _tasks_stamp(config: Path) -> tuple[int, int] | None:
    try:
        return _stamp(config.parent / ".vscode" / "tasks.json")
    except OSError:
        return None


def parse_config(path: Path, data: bytes, env: Environment = OFFLINE) -> ProjectConfig:
    """A config file's contents, checked (never raises): the rules that
    loaded, and one line per problem, each naming the file (and the rule)."""
    cfg = ProjectConfig(path=path)
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        cfg.errors.append(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})")
        return cfg
    except tomllib.TOMLDecodeError as exc:
        cfg.errors.append(f"{path}: invalid TOML: {exc}")
        return cfg
    except (RecursionError, ValueError) as exc:
        cfg.errors.append(f"{path}: invalid TOML: {type(exc).__name__}")
        return cfg
    table = _faultlens_table(path, doc, cfg.errors)
    if table is None:
        return cfg
    cfg.table = table
    checked = _check_table(path, table, cfg.errors)
    cfg.disable = checked.disable
    seen = {r.id for r in all_rules()}
    specs: list[tuple[Any, str]] = [(s, "") for s in checked.rules]
    if checked.vscode_tasks:
        specs.extend(_task_specs(path, env, cfg.errors))
    for n, (spec, origin) in enumerate(specs, 1):
        name = spec.get("id", f"#{n}") if isinstance(spec, dict) else f"#{n}"
        where = f"{path}{origin}: rule {name!r}"
        try:
            rule = build_rule(spec, env, workspace=str(path.parent))
        except ValueError as exc:
            cfg.errors.append(f"{where}: {_flat(str(exc))}")
            continue
        if not isinstance(rule, Rule):  # a built-in matcher's name: faultlens' own rules
            cfg.enable.extend(g for g in rule.rules if g not in cfg.enable)
            cfg.matchers[str(spec.get("id"))] = rule
            continue
        if rule.id in seen:
            cfg.errors.append(f"{where}: id already used by another rule")
            continue
        seen.add(rule.id)
        cfg.rules.append(rule)
        matcher = getattr(rule.func, "matcher", None)
        if matcher is not None:
            cfg.matchers[rule.id] = matcher
    return cfg


def _flat(text: str) -> str:
    return " ".join(text.split())


def _faultlens_table(path: Path, doc: dict[str, Any], errors: list[str]) -> dict[str, Any] | None:
    """The [tool.faultlens] table (or a .faultlens.toml's top level)."""
    if "tool" not in doc:
        return {} if path.name == "pyproject.toml" else doc
    tool = doc["tool"]
    if not isinstance(tool, dict):
        errors.append(
            f"{path}: `tool` must be a table ([tool.faultlens] lives in it), not {type_name(tool)}"
        )
        return None
    if "faultlens" not in tool:
        return (
            {} if path.name == "pyproject.toml" else {k: v for k, v in doc.items() if k != "tool"}
        )
    table = tool["faultlens"]
    if not isinstance(table, dict):
        errors.append(f"{path}: [tool.faultlens] must be a table, not {type_name(table)}")
        return None
    return table


def _check_table(path: Path, table: dict[str, Any], errors: list[str]) -> ProjectTable:
    """The table, key by key: a bad key is reported and left at its default."""
    good: dict[str, Any] = {}
    for key, value in table.items():
        try:
            ProjectTable.model_validate({key: value})
        except ValidationError as exc:
            errors.append(f"{path}: {one_line(exc, table_keys())}")
            continue
        good[key] = value
    return ProjectTable.model_validate(good)


def _task_specs(path: Path, env: Environment, errors: list[str]) -> list[tuple[Any, str]]:
    """The problem matchers of .vscode/tasks.json beside the config, as rule specs."""
    from .problem_matcher import specs_from_tasks

    if env.tasks_json is None:
        return []
    tasks_path = path.parent / ".vscode" / "tasks.json"
    try:
        data = env.tasks_json(path.parent)
    except OSError as exc:
        errors.append(f"{tasks_path}: cannot read: {exc.strerror or exc}")
        return []
    if data is None:
        errors.append(f"{path}: `vscode_tasks` is set but {tasks_path} does not exist")
        return []
    specs, problems = specs_from_tasks(data)
    errors.extend(f"{tasks_path}: {p}" for p in problems)
    return [(s, f" ({tasks_path.name} task {s.pop('_task', '?')!r})") for s in specs]


def effective_rules(cwd: str | os.PathLike[str]) -> tuple[list[Rule], list[str]]:
    """The rules that apply under `cwd`: built-ins not disabled, then the
    project's own (which run first), and the configuration's errors."""
    cfg = load_config(cwd)
    builtin = list(_enabled_builtins(tuple(cfg.disable), tuple(cfg.enable), rules_version()))
    if not cfg.rules:
        return builtin, cfg.errors
    return [*cfg.rules, *builtin], cfg.errors


@lru_cache(maxsize=16)
def _enabled_builtins(
    disable: tuple[str, ...], enable: tuple[str, ...], version: int
) -> tuple[Rule, ...]:
    """The built-in rules (registry `version`) that `disable` leaves on (or
    that a problem matcher's name keeps on)."""
    return tuple(r for r in all_rules() if not _disabled(r.id, disable) or _disabled(r.id, enable))


def _disabled(rule_id: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(rule_id, p) for p in patterns)


# -- building rules ------------------------------------------------------------
def build_rule(spec: Any, env: Environment | None = None, *, workspace: str = ".") -> Rule | Any:
    """A Rule from one `[[tool.faultlens.rules]]` table; ValueError says why
    not.  A problem matcher naming built-in rules (`$tsc`) gives a
    problem_matcher.BuiltinRef instead: those rules are kept on."""
    env = system_environment() if env is None else env
    if not isinstance(spec, dict):
        raise ValueError(f"must be a table, not {type_name(spec)}")
    try:
        model = RuleSpec.model_validate(spec)
    except ValidationError as exc:
        raise ValueError(one_line(exc, rule_keys())) from None
    if not RULE_ID.match(model.id):
        raise ValueError("`id` must look like `project.name` (lowercase, dot-separated)")
    kind = model.source()
    rid, category = model.id, model.category
    tool = model.tool or rid.split(".")[0]
    url = model.url or ""
    triggers = model.triggers
    if kind == "regex":
        return _regex_rule(model, tool, url)
    if kind == "problemMatcher":
        from .problem_matcher import matcher_rule

        return matcher_rule(
            rid,
            category,
            tool,
            model.problem_matcher,
            triggers,
            url=url,
            include_warnings=model.include_warnings,
            workspace=workspace,
        )
    if kind == "compiler":
        assert model.compiler is not None
        if env.compiler is None:
            raise ValueError("`compiler` needs Vim's runtime, which this check does not read")
        from .vimcompiler import CompilerError

        try:
            efm: str | list[str] = env.compiler(model.compiler)
        except CompilerError as exc:
            raise ValueError(str(exc)) from None
        summary = f"Vim compiler {model.compiler}"
    else:
        assert model.errorformat is not None
        efm = model.errorformat
        summary = "errorformat"
    formats = _compile_efm(efm, "compiler" if kind == "compiler" else "errorformat")
    return pr.efm_rule(
        rid,
        category,
        tool,
        formats,
        triggers,
        include_warnings=model.include_warnings,
        summary=model.summary or summary,
        url=url,
    )


def _compile_efm(efm: str | list[str], key: str) -> list[Format]:
    try:
        formats = compile_errorformat(efm)
    except ErrorformatError as exc:
        raise ValueError(f"`{key}`: {exc}") from None
    if not any(f.prefix in ("", "E", "W", "I", "N", "A") and f.flags != "-" for f in formats):
        raise ValueError(
            f"`{key}` can report no failure: every format is %C, %Z, %G, a stack item or %-"
        )
    return formats


def _regex_rule(model: RuleSpec, tool: str, url: str) -> Rule:
    text = model.regex
    if not text:
        raise ValueError("`regex` must be a non-empty string")
    compiled = pr.compile_regex(text)
    unknown = set(compiled.groupindex) - GROUPS
    if unknown:
        raise ValueError(f"unknown named groups {sorted(unknown)}; use {sorted(GROUPS)}")
    triggers = model.triggers
    if triggers is None:
        lit = pr.required_literal(text)
        if lit is None:
            raise ValueError(
                "give `triggers`: literal text that every matching line contains "
                "(none could be read from the regex)"
            )
        triggers = [lit]
    return pr.regex_rule(
        model.id,
        model.category,
        tool,
        text,
        triggers,
        summary=model.summary or "regex",
        url=url,
    )
