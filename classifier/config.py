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
(regular files only, size-capped: classifier/config_files.py) and caches the
result by path and stamp; classifier/config_rules.py builds each rule.
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config_files import file_stamp, find_config, read_config_bytes
from .rules.base import Rule
from .rules.registry import all_rules, rules_version

if TYPE_CHECKING:
    from .config_model import ProjectTable
    from .config_rules import Environment

# The typed model (pydantic), the rule builders and the errorformat compiler
# are imported when a configuration file is read, not with this module:
# every classifier imports it, and most working directories have no
# [tool.faultlens] table (tens of ms of every `faultlens run`, hook call and
# server start).


def __getattr__(name: str) -> Any:
    if name == "required_literal":  # kept here: tests and docs name it
        from .project_rules import required_literal

        return required_literal
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    # (where a build cycle begins and ends; matcher_model.Background).
    matchers: dict[str, Any] = field(default_factory=dict)


def load_config(cwd: str | os.PathLike[str]) -> ProjectConfig:
    """Read and check the project's configuration (never raises)."""
    path = find_config(cwd)
    if path is None:
        return ProjectConfig()
    try:
        stamp = file_stamp(path)
    except OSError as exc:
        return ProjectConfig(path=path, errors=[f"{path}: cannot read: {exc.strerror or exc}"])
    key = (path, stamp, _tasks_stamp(path))
    found = _cache.get(key)
    if found is None:
        try:
            data = read_config_bytes(path)
        except OSError as exc:
            return ProjectConfig(path=path, errors=[f"{path}: cannot read: {exc.strerror or exc}"])
        from .config_rules import system_environment

        found = parse_config(path, data, system_environment())
        if len(_cache) >= 64:
            _cache.clear()
        _cache[key] = found
    return found


_cache: dict[tuple[Path, tuple[int, int], tuple[int, int] | None], ProjectConfig] = {}


def _tasks_stamp(config: Path) -> tuple[int, int] | None:
    try:
        return file_stamp(config.parent / ".vscode" / "tasks.json")
    except OSError:
        return None


def parse_config(path: Path, data: bytes, env: Environment | None = None) -> ProjectConfig:
    """A config file's contents, checked (never raises): the rules that
    loaded, and one line per problem, each naming the file (and the rule).
    `env` (default: offline, config_rules.OFFLINE) is what rules may look up."""
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
    if not table:  # a pyproject.toml without [tool.faultlens]: nothing to check or build
        return cfg
    from .config_rules import OFFLINE, build_rule

    if env is None:
        env = OFFLINE
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
        from .config_model import type_name

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
        from .config_model import type_name

        errors.append(f"{path}: [tool.faultlens] must be a table, not {type_name(table)}")
        return None
    return table


def _check_table(path: Path, table: dict[str, Any], errors: list[str]) -> ProjectTable:
    """The table, key by key: a bad key is reported and left at its default."""
    from pydantic import ValidationError

    from .config_model import ProjectTable, one_line, table_keys

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
    from .vscode_tasks import specs_from_tasks

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


def rule_failure(cwd: str | os.PathLike[str], rule_id: str, error: str) -> tuple[bool, str]:
    """How a rule that failed while classifying (engine `rule_errors`) is said:
    whether it is the project's own (its configuration needs mending), and the
    one line, naming the file that defines it."""
    cfg = load_config(cwd)
    if cfg.path is not None and any(r.id == rule_id for r in cfg.rules):
        reason = error.split(": ", 1)[1] if error.startswith("RuleGaveUp: ") else error
        return True, f"{cfg.path}: rule {rule_id!r}: {reason}"
    return False, f"built-in rule {rule_id!r} failed: {error}"


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
