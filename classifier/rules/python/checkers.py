"""Python rules for the type checkers and linters people run on Python code:
mypy, pyright, ruff (what their output means is in rules/python_lint.py)."""

from __future__ import annotations

import re
from typing import Any

from ...taxonomy import FailureType
from ..base import Hit, LineContext, hit_from_match
from ..python_lint import (
    MYPY_LOC,
    PYRIGHT_CODE,
    PYRIGHT_IMPORT,
    PYRIGHT_NAME,
    RUFF_CODE,
    RUFF_DOCS,
    RUFF_HEADER,
    MypyBlock,
    PyrightBlock,
    mypy_hint,
    ruff_hit,
)
from ..registry import rule


# -- mypy ---------------------------------------------------------------------
@rule(
    id="python.mypy",
    category=FailureType.COMPILE,
    tool="mypy",
    pattern=r"^" + MYPY_LOC + r": error: (?P<message>.+?)(?:\s+\[(?P<code>[a-z][a-z0-9-]*)\])?\s*$",
    triggers=(": error: ",),
    url="https://mypy.readthedocs.io/en/stable/error_codes.html",
    priority=20,
)
def python_mypy(m: re.Match[str], ctx: LineContext) -> MypyBlock:
    """mypy type errors.

    What it detects: `file.py:line: error: message  [code]`, with
    `file.py:line:col:` under `--show-column-numbers` (and the end position
    under `--show-error-end`). The `note:` lines that follow an error belong
    to it (they go to `related` and hint `notes`), not to records of their
    own; with `--pretty` the wrapped rest of the message and the source
    excerpt are read too. The "Found N errors in M files" summary and
    "Success: no issues found" are not records. Only `.py`/`.pyi` paths are
    claimed, so the rule runs before the C compiler rule that shares the
    shape.

    Example output (`mypy svc.py`, mypy 2.4.1):
        svc.py:4: error: Cannot find implementation or library stub for module named "yaml_missing_lib"  [import-not-found]
        svc.py:4: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports

    Recipe: compile; hint `module` (import-not-found), `name` and
    `suggestion` (name-defined: 'did you mean "result"?').

    References: https://mypy.readthedocs.io/en/stable/error_codes.html
    """
    message = m.group("message").strip()
    hit = hit_from_match(m, ctx, message=message, hint=mypy_hint(message), log_line=ctx.line_no)
    return MypyBlock(hit, needs_code=m.group("code") is None)


# -- pyright -------------------------------------------------------------------
@rule(
    id="python.pyright",
    category=FailureType.COMPILE,
    tool="pyright",
    pattern=r"^(?P<indent>\s*)(?P<file>\S[^:]*?\.pyi?):(?P<line>\d+):(?P<column>\d+) - error: (?P<message>.*)$",
    triggers=(" - error: ",),
    url="https://microsoft.github.io/pyright/#/configuration?id=type-check-diagnostics-settings",
    priority=20,
)
def python_pyright(m: re.Match[str], ctx: LineContext) -> PyrightBlock:
    """pyright type errors.

    What it detects: `  /abs/path/file.py:line:col - error: message
    (reportRule)`, as pyright (and basedpyright) print them under a line
    naming the file. A message may go on over deeper-indented lines; the
    rule name in parentheses ends it and becomes the record's `code`.
    Warnings and informations do not fail the run and are not records; nor
    is the "N errors, M warnings" summary.

    Example output (`pyright svc.py`, pyright 1.1.414):
        /work/app/svc.py
          /work/app/svc.py:4:8 - error: Import "yaml_missing_lib" could not be resolved (reportMissingImports)
          /work/app/svc.py:8:12 - error: Type "str | None" is not assignable to return type "int"
            Type "str | None" is not assignable to type "int"
              "str" is not assignable to "int" (reportReturnType)

    Recipe: compile; hint `module` (reportMissingImports), `name`
    (reportUndefinedVariable), `detail` (the continuation lines).

    References: https://microsoft.github.io/pyright/#/configuration?id=type-check-diagnostics-settings
    """
    message = m.group("message").strip()
    code: str | None = None
    c = PYRIGHT_CODE.search(message)
    if c:
        code = c.group("code")
        message = message[: c.start()].strip()
    hint: dict[str, Any] = {}
    for pattern in (PYRIGHT_IMPORT, PYRIGHT_NAME):
        h = pattern.search(message)
        if h:
            hint.update(h.groupdict())
    hit = hit_from_match(m, ctx, message=message, code=code, hint=hint, log_line=ctx.line_no)
    return PyrightBlock(hit, len(m.group("indent").expandtabs()))


# -- ruff ----------------------------------------------------------------------
@rule(
    id="python.ruff",
    category=FailureType.COMPILE,
    tool="ruff",
    pattern=r"^(?P<file>[^\s:][^:]*?\.pyi?):(?P<line>\d+):(?P<column>\d+): "
    + RUFF_CODE
    + r":? (?P<fix>\[\*\] )?(?P<message>.+)$",
    # ".py:" followed by the first digit of a line number: not ".py::" (pytest
    # node ids), so the engine looks at far fewer lines.
    triggers=tuple(f".{ext}:{d}" for ext in ("py", "pyi") for d in "123456789"),
    url=RUFF_DOCS,
    priority=20,
)
def python_ruff(m: re.Match[str], ctx: LineContext) -> Hit:
    """ruff lint violations and syntax errors, concise format.

    What it detects: `file.py:line:col: CODE [*] message` (`ruff check
    --output-format=concise`, and ruff's default before 0.9), including
    `file.py:line:col: invalid-syntax: message` for a file that does not
    parse. The "Found N errors." summary is not a record.

    flake8 prints the same lines (`file.py:1:1: F401 'os' imported but
    unused`): they are read here too. The `S` rules (flake8-bandit, and
    ruff's port of it: `S105` hard-coded password, `S602` shell=True) are
    trust_gate findings for human review, as everywhere
    (classifier/security_codes.py).

    Category: compile. ruff is a linter, but `ruff check` exits non-zero on
    any violation and CI treats it as a build gate like a type checker; the
    fix is a source edit at the reported position, often ruff's own
    (`[*]` = fixable: hint `fixable`, and the recipe may run `ruff check
    --fix` on the one file). None of the other categories fits: a lint
    finding is neither a test result nor an environment problem.

    Example output (`ruff check --output-format=concise svc.py`, ruff 0.17.6):
        svc.py:1:8: F401 [*] `os` imported but unused
        svc.py:19:12: F821 Undefined name `reslt`

    Recipe: compile; hint `fixable`, `syntax`.

    References: https://docs.astral.sh/ruff/rules/
    """
    return ruff_hit(m, ctx, m.group("code"), m.group("message"), bool(m.group("fix")))


@rule(
    id="python.ruff_full",
    category=FailureType.COMPILE,
    tool="ruff",
    pattern=r"^\s*--> (?P<file>[^\s:][^:]*?\.pyi?):(?P<line>\d+):(?P<column>\d+)\s*$",
    triggers=("--> ",),
    url=RUFF_DOCS,
    priority=20,
)
def python_ruff_full(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """ruff lint violations and syntax errors, full format (ruff's default).

    What it detects: the header `CODE [*] message` followed by
    ` --> file.py:line:col` and a source excerpt, as `ruff check` prints by
    default since 0.9 (`--output-format=full`). The arrow line alone is not
    enough (rustc prints the same arrow): the line above must be a ruff
    header, else the rule steps aside. `ruff format --check` prints the
    same shape with the header `unformatted: File would be reformatted`
    (code `unformatted`, placed on the first line it would change).

    Category: compile, for the reasons given under python.ruff (`S` rules:
    trust_gate).

    Example output (`ruff check svc.py`, ruff 0.17.6):
        F821 Undefined name `reslt`
          --> svc.py:19:12

    Recipe: compile; hint `fixable`, `syntax`.

    References: https://docs.astral.sh/ruff/rules/
    """
    before = ctx.before(1)
    header = RUFF_HEADER.match(before[-1]) if before else None
    if header is None:
        return None
    hit = ruff_hit(m, ctx, header.group("code"), header.group("message"), bool(header.group("fix")))
    hit.signal = f"{before[-1].strip()} ({m.group('file')}:{m.group('line')}:{m.group('column')})"
    return hit
