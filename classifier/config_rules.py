"""Building a rule from one `[[tool.faultlens.rules]]` table: a regex, a Vim
errorformat or compiler plugin, a VS Code problem matcher; and what
building may read besides the config (:class:`Environment`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import project_rules as pr
from .config_files import read_tasks_json
from .config_model import (
    RULE_ID,
    RuleSpec,
    one_line,
    rule_keys,
    type_name,
)
from .errorformat import ErrorformatError, Format, compile_errorformat
from .rules.base import Rule

GROUPS = set(pr.GROUPS)


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

    return Environment(compiler=errorformat, tasks_json=read_tasks_json)


# -- building rules ------------------------------------------------------------
def build_rule(spec: Any, env: Environment | None = None, *, workspace: str = ".") -> Rule | Any:
    """A Rule from one `[[tool.faultlens.rules]]` table; ValueError says why
    not.  A problem matcher naming built-in rules (`$tsc`) gives a
    matcher_model.BuiltinRef instead: those rules are kept on."""
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
        from .matcher_rule import matcher_rule

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
