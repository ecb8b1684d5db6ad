"""The shape of a project's faultlens configuration, as one typed model.

`[tool.faultlens]` in pyproject.toml, or the top level of .faultlens.toml
(docs/project-rules.md).  Every key is typed and documented here; a value of
the wrong shape is one line saying which key and why (:func:`one_line`),
never a traceback.  The table is checked key by key and each rule on its
own, so one bad rule leaves the others (and the built-ins) working.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, ValidationError

from .lazyre import lazy_compile
from .taxonomy import FailureType

RULE_ID = lazy_compile(r"^[a-z0-9_]+(?:\.[a-z0-9_-]+)+$")
NonEmpty = Annotated[str, StringConstraints(min_length=1)]


class RuleSpec(BaseModel):
    """One `[[tool.faultlens.rules]]` table."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str = Field(description="`project.name`: lowercase, dot-separated")
    category: FailureType = Field(description="one of the taxonomy's eight categories")
    tool: str | None = Field(None, description="the tool's name (default: the id's first part)")
    summary: str | None = Field(None, description="one line saying what the rule detects")
    url: str | None = Field(None, description="where the tool's output format is documented")
    triggers: list[NonEmpty] | None = Field(
        None, description="literal text every matching line contains (read from the pattern)"
    )
    regex: str | None = Field(None, description="a regex with named groups")
    errorformat: str | list[str] | None = Field(None, description="a Vim 'errorformat'")
    compiler: str | None = Field(None, description="a Vim compiler plugin's name")
    problem_matcher: dict[str, Any] | str | None = Field(
        None,
        alias="problemMatcher",
        description="a VS Code problem matcher (object), or a built-in's name ($tsc, ...)",
    )
    include_warnings: StrictBool = Field(
        False, description="errorformat: keep %W/%I/%N and non-error %t entries as failures"
    )

    def source(self) -> str:
        """Which kind of pattern the rule gives (exactly one)."""
        given = [
            name
            for name, value in (
                ("regex", self.regex),
                ("errorformat", self.errorformat),
                ("compiler", self.compiler),
                ("problemMatcher", self.problem_matcher),
            )
            if value is not None
        ]
        if len(given) != 1:
            raise ValueError(
                "give exactly one of `regex`, `errorformat`, `compiler` or `problemMatcher`"
                + (f" (found {', '.join(given)})" if given else "")
            )
        return given[0]


class ProjectTable(BaseModel):
    """The whole `[tool.faultlens]` table (rules are checked one by one)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    disable: list[str] = Field(
        default_factory=list, description="built-in rule ids or globs to turn off"
    )
    rules: list[Any] = Field(
        default_factory=list, description="project rules ([[tool.faultlens.rules]] tables)"
    )
    vscode_tasks: StrictBool = Field(
        False,
        alias="vscodeTasks",
        description="also read the problem matchers of .vscode/tasks.json",
    )
    # Read by the recipes (recipes/team/settings.py), not by the classifier.
    history: dict[str, Any] = Field(
        default_factory=dict,
        description="the team's history database: url, wait, mass_failure_share, "
        "quarantine_after (docs/team-history.md)",
    )
    recipes: dict[str, Any] = Field(
        default_factory=dict,
        description='per-recipe settings: [recipes.test] retry = "known-flakes"',
    )


_FRIENDLY = {
    "disable": "`disable` must be a list of rule ids or globs",
    "rules": "`rules` must be an array of tables ([[tool.faultlens.rules]])",
    "vscode_tasks": "`vscode_tasks` must be true or false",
    "vscodeTasks": "`vscodeTasks` must be true or false",
    "history": "`history` must be a table ([history] url = ...)",
    "recipes": "`recipes` must be a table ([recipes.test] retry = ...)",
    "category": "`category` must be one of " + ", ".join(ft.value for ft in FailureType),
    "triggers": "`triggers` must be a list of non-empty strings",
    "errorformat": "`errorformat` must be a string or a list of strings",
    "regex": "`regex` must be a string",
    "compiler": "`compiler` must be a string (a Vim compiler plugin's name)",
    "problemMatcher": "`problemMatcher` must be a table or a built-in matcher's name",
    "include_warnings": "`include_warnings` must be true or false",
    "id": "`id` must look like `project.name` (lowercase, dot-separated)",
}


def one_line(exc: ValidationError, known: tuple[str, ...] = ()) -> str:
    """The first problem of a validation error, as one line a person reads."""
    err = exc.errors()[0]
    loc = [str(x) for x in err.get("loc", ())]
    key = loc[0] if loc else ""
    if err.get("type") == "extra_forbidden":
        hint = f" (known: {', '.join(known)})" if known else ""
        return f"unknown key `{'.'.join(loc)}`{hint}"
    if err.get("type") == "missing":
        return f"`{key}` is missing"
    if key in _FRIENDLY:
        return _FRIENDLY[key]
    where = ".".join(loc) or "value"
    return f"`{where}`: {err.get('msg', 'invalid')}"


def type_name(value: Any) -> str:
    """How a TOML value's type reads in a message."""
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a float",
        str: "a string",
        list: "an array",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def table_keys() -> tuple[str, ...]:
    return tuple(ProjectTable.model_fields)


def rule_keys() -> tuple[str, ...]:
    return tuple((f.alias or name) for name, f in RuleSpec.model_fields.items())
