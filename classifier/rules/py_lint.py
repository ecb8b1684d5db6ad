"""Python format checkers and linters as CI runs them: `black --check`,
`isort --check-only`, pylint, pydocstyle (flake8 and ruff print the same
`file:line:col: CODE message` lines, read by python.ruff).

Every finding these tools print fails their run by default (black and
isort exit 1, pydocstyle 1, pylint a non-zero bit mask): none is a warning
(docs/warnings.md). pylint's informational `I` messages fail nothing and
are not records. With `--diff`, the first changed line of a file is where
its record points; without it, the file alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, find_above
from .registry import rule

ECOSYSTEM = "Python"
_HUNK = lazy_compile(r"^@@ -(?P<start>\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")


def first_changed_line(lines: Sequence[str]) -> int | None:
    """The first line of the old file a unified diff changes (its lines
    after the `---`/`+++` header): the line removed, or the line before
    which lines are inserted."""
    old: int | None = None
    for line in lines:
        if h := _HUNK.match(line):
            old = int(h.group("start"))
            continue
        if old is None:
            continue
        if line.startswith(("-", "+")):
            return max(old, 1)
        if line.startswith(" ") or line == "":
            old += 1
        else:
            break
    return None


# -- black --------------------------------------------------------------------------------


def _diff_above(ctx: LineContext, file: str, limit: int = 400) -> int | None:
    """The first line changed by the diff printed above for `file`."""
    found = find_above(
        ctx, limit, lambda line: line.startswith("--- ") and line[4:].split("\t")[0].strip() == file
    )
    return None if found is None else first_changed_line(found[0][found[1] + 2 :])


@rule(
    id="py_lint.black_check",
    category=FailureType.COMPILE,
    tool="black",
    pattern=r"^would reformat (?P<file>\S.*?\.pyi?)\s*$",
    triggers=("would reformat ",),
    url="https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html#check",
    priority=20,
)
def black_check(m: re.Match[str], ctx: LineContext) -> Hit:
    """`black --check` finding a file it would reformat.

    What it detects: `would reformat FILE` (one per file; the closing `N
    files would be reformatted` and "Oh no!" lines are not records). With
    `--diff`, the diff printed before it gives the first line black would
    change; else the record names the file alone.

    Example output (`black --check app`, black 26.10.1):
        would reformat /work/shop/app/billing.py

        Oh no! 💥 💔 💥
        1 file would be reformatted, 1 file would be left unchanged.

    Recipe: compile (`black FILE` reformats it). hint: formatter.

    References: https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html#check
    """
    file = m.group("file")
    return Hit(
        signal=ctx.line.strip(),
        message=f"{file}: not formatted (black --check)",
        file=file,
        line=_diff_above(ctx, file),
        code="black-check",
        hint={"formatter": "black"},
    )


@rule(
    id="py_lint.black_parse_error",
    category=FailureType.COMPILE,
    tool="black",
    pattern=r"^error: cannot (?:format (?P<file1>\S.*?): (?P<message1>Cannot parse.*?): (?P<line1>\d+):(?P<column1>\d+):.*"
    r"|parse for target version (?P<target>[^:]+): (?P<file2>\S.*?):(?P<line2>\d+):(?P<column2>\d+))\s*$",
    triggers=("error: cannot format ", "error: cannot parse for target version"),
    url="https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html",
    priority=20,
)
def black_parse_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """A file black cannot parse.

    What it detects: `error: cannot parse for target version Python 3.15:
    FILE:L:C` (black 24+) and the older `error: cannot format FILE: Cannot
    parse: L:C: source`.

    Example output (`black --check app`, black 26.10.1):
        error: cannot parse for target version Python 3.15: /work/shop/app/broken.py:1:11
            def broken(:
                      ^

    Recipe: compile (fix the syntax). hint: syntax.

    References: https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html
    """
    file = m.group("file1") or m.group("file2")
    line = m.group("line1") or m.group("line2")
    column = m.group("column1") or m.group("column2")
    target = m.group("target")
    return Hit(
        signal=ctx.line.strip(),
        message=f"black cannot parse {file}" + (f" (target {target})" if target else ""),
        file=file,
        line=int(line),
        column=int(column) if column and int(column) > 0 else None,
        code="black-parse",
        hint={"syntax": True},
    )


# -- isort ---------------------------------------------------------------------------------


@dataclass
class _IsortBlock:
    """The `--diff` after isort's ERROR line, for the first changed line."""

    hit: Hit
    max_lines: int = 400
    seen: list[str] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        if not self.seen:
            if not line.startswith("--- "):
                return False  # no diff (plain --check-only)
        elif line.startswith("--- ") or (line and not line.startswith(("+", "-", " ", "@@"))):
            return False  # the next file, or the end of the diff
        self.seen.append(line)
        return True

    def finish(self) -> Iterable[Hit]:
        if self.seen:
            self.hit.line = first_changed_line(self.seen[2:])
        yield self.hit


@rule(
    id="py_lint.isort_check",
    category=FailureType.COMPILE,
    tool="isort",
    pattern=r"^ERROR: (?P<file>\S.*?) Imports are incorrectly sorted and/or formatted\.\s*$",
    triggers=("Imports are incorrectly sorted",),
    url="https://pycqa.github.io/isort/docs/configuration/options.html#check",
    priority=20,
)
def isort_check(m: re.Match[str], ctx: LineContext) -> Block:
    """`isort --check-only` finding a file whose imports are out of order.

    What it detects: `ERROR: FILE Imports are incorrectly sorted and/or
    formatted.`; with `--diff`, the diff after it gives the first import
    line isort would change.

    Example output (`isort --check-only app`, isort 9.0.2):
        ERROR: /work/shop/app/report.py Imports are incorrectly sorted and/or formatted.

    Recipe: compile (`isort FILE` sorts them). hint: formatter.

    References: https://pycqa.github.io/isort/docs/configuration/options.html#check
    """
    file = m.group("file")
    hit = Hit(
        signal=ctx.line.strip(),
        message=f"{file}: imports are not sorted (isort --check-only)",
        file=file,
        code="isort-check",
        hint={"formatter": "isort"},
    )
    return _IsortBlock(hit)


# -- pylint ------------------------------------------------------------------------------------

_PYLINT_LEVELS = {
    "F": "fatal",
    "E": "error",
    "W": "warning",
    "R": "refactor",
    "C": "convention",
}


@rule(
    id="py_lint.pylint",
    category=FailureType.COMPILE,
    tool="pylint",
    pattern=r"^(?P<file>[^\s:][^:]*?\.pyi?):(?P<line>\d+):(?P<column>\d+): (?P<code>[CRWEFI]\d{4}): (?P<message>.+) \((?P<symbol>[a-z][a-z0-9-]*)\)\s*$",
    triggers=tuple(f": {c}{d}" for c in "CRWEF" for d in "0123456789"),
    url="https://pylint.readthedocs.io/en/stable/user_guide/messages/messages_overview.html",
    priority=25,
)
def pylint_message(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A pylint message in its default text format.

    What it detects: `app/orders.py:8:11: E0602: Undefined variable 'dta'
    (undefined-variable)` under `************* Module orders`; pylint's
    column is 0-based (reported 1-based). Every fatal, error, warning,
    refactor and convention message sets a bit of pylint's exit status, so
    each is a failure; the score line ("rated at 10.00/10") is not a record.

    Example output (`pylint app`, pylint 4.1.4):
        ************* Module orders
        app/orders.py:8:11: E0602: Undefined variable 'dta' (undefined-variable)
        app/orders.py:1:0: W0611: Unused import os (unused-import)

    Recipe: compile. hint: symbol, level.

    References: https://pylint.readthedocs.io/en/stable/user_guide/messages/messages_overview.html
    """
    code = m.group("code")
    if code[0] == "I":
        return None
    return Hit(
        signal=ctx.line.strip(),
        message=m.group("message").strip(),
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")) + 1,
        code=code,
        hint={"symbol": m.group("symbol"), "level": _PYLINT_LEVELS[code[0]]},
    )


# -- pydocstyle --------------------------------------------------------------------------------

_PYDOCSTYLE_ERROR = lazy_compile(r"^\s+(?P<code>D\d{3}): (?P<message>.+?)\s*$")


@dataclass
class _PydocstyleBlock:
    file: str
    line: int
    where: str
    start: int
    max_lines: int = 1
    hits: list[Hit] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        m = _PYDOCSTYLE_ERROR.match(line)
        if m is None:
            return False
        self.hits.append(
            Hit(
                signal=line.strip(),
                message=f"{m.group('message')} ({self.where})",
                file=self.file,
                line=self.line,
                code=m.group("code"),
                log_line=line_no,
                hint={"where": self.where},
            )
        )
        return True

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="py_lint.pydocstyle",
    category=FailureType.COMPILE,
    tool="pydocstyle",
    pattern=r"^(?P<file>[^\s:][^:]*?\.pyi?):(?P<line>\d+) (?P<where>at module level|in (?:public|private|magic|nested)[\w ]* `[^`]+`):$",
    triggers=(" at module level:", " in public ", " in private ", " in magic ", " in nested "),
    url="https://www.pydocstyle.org/en/stable/error_codes.html",
    priority=20,
)
def pydocstyle_error(m: re.Match[str], ctx: LineContext) -> Block:
    """A pydocstyle violation: a location line, then the code and message.

    What it detects: `app/orders.py:12 in public method `save`:` followed
    by the indented `D401: First line should be in imperative mood ...`;
    one record per pair.

    Example output (`pydocstyle app`, pydocstyle 6.3.0):
        app/orders.py:4 in public function `load`:
                D103: Missing docstring in public function

    Recipe: compile. hint: where.

    References: https://www.pydocstyle.org/en/stable/error_codes.html
    """
    return _PydocstyleBlock(
        file=m.group("file"), line=int(m.group("line")), where=m.group("where"), start=ctx.line_no
    )
