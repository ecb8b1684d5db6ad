"""GitHub Actions workflow commands (`::error file=…,line=…::message`)."""

from __future__ import annotations

import re

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext, positive_int
from .registry import rule

_PROP = lazy_compile(r"(?P<key>\w+)=(?P<value>[^,]*)")
# Which category a tool named in the annotation's title belongs to.
_TOOLS: dict[FailureType, tuple[str, ...]] = {
    FailureType.TEST: ("pytest", "jest", "vitest", "mocha", "junit", "go test", "cargo test"),
    FailureType.TRUST_GATE: ("gitleaks", "semgrep", "bandit", "trufflehog", "codeql", "audit"),
}


def _unescape(value: str, prop: bool = False) -> str:
    out = value.replace("%0D", "\r").replace("%0A", "\n")
    if prop:
        out = out.replace("%3A", ":").replace("%2C", ",")
    return out.replace("%25", "%")


def _category(title: str) -> FailureType:
    low = title.lower()
    for ft, tools in _TOOLS.items():
        if any(t in low for t in tools):
            return ft
    return FailureType.COMPILE


@rule(
    id="workflow.error_command",
    category=FailureType.COMPILE,
    tool="github-actions",
    pattern=r"^::(?P<level>error|warning) (?P<props>[^:]*(?:::?[^:]*)*?)::(?P<message>.*)$",
    triggers=("::error ", "::warning "),
    url="https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands",
)
def error_command(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A GitHub Actions `::error` workflow command that names a file.

    What it detects: `::error file=F,line=L,col=C,endLine=…,endColumn=…,title=T::message`,
    the annotation format that linters, type checkers and test reporters
    print when run with their GitHub output format.  The title's tool name
    chooses the category (a test runner → test, a scanner → trust_gate,
    anything else → compile, with lower confidence when the title names no
    known tool); an annotation without `file=` says nothing locatable and is
    left to the other rules. A `::warning` annotation is a warning (a failure
    only when the run failed because of it, docs/warnings.md), except a
    scanner's.

    Example output (`ruff check --output-format github report.py`, ruff 0.17.6):
        ::error title=ruff (F821),file=/tmp/…/report.py,line=5,col=22,endLine=5,endColumn=32::report.py:5:22: F821 Undefined name `format_row`

    Recipe: the category's recipe (compile for linters).

    References: https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
    """
    props = {p.group("key"): _unescape(p.group("value"), True) for p in _PROP.finditer(m["props"])}
    if not props.get("file"):
        return None
    message = _unescape(m.group("message")).strip()
    first = message.splitlines()[0] if message else props.get("title", "error")
    title = props.get("title", "")
    code = re.search(r"\(([A-Z]+\d+|[\w-]+/[\w-]+)\)", title)

    def num(key: str) -> int | None:
        return positive_int(props.get(key))

    category = _category(title)
    known = bool(title) and (
        category is not FailureType.COMPILE
        or any(
            t in title.lower()
            for t in ("ruff", "mypy", "eslint", "tsc", "pyright", "clippy", "flake8")
        )
    )
    return Hit(
        signal=f"{title}: {first}" if title else first,
        message=first,
        file=props["file"],
        line=num("line"),
        column=num("col"),
        end_line=num("endLine"),
        end_column=num("endColumn"),
        code=code.group(1) if code else None,
        tool=title.split(" (")[0] or None,
        category=category,
        confidence=1.0 if known else 0.6,
        warning=m.group("level") == "warning" and category is not FailureType.TRUST_GATE,
    )
