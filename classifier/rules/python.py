"""Python: interpreter errors (SyntaxError, tracebacks) and the type checkers
and linters people run on Python code (mypy, pyright, ruff).

The traceback reader is python_traceback.py and what an exception says
about its cause is python_causes.py, both shared with `python_test.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..taxonomy import FailureType
from .base import Hit, LineContext, hit_from_match, match_above
from .python_causes import (
    NOT_FAILURES,
    cause_of,
    exception_category,
    exception_hint,
    exception_rule,
    import_hint,
    name_hint,
)
from .python_lint import (
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
from .python_traceback import FRAME, TRACEBACK_HEAD, Traceback
from .registry import rule

_TRACEBACK_DOCS = "https://docs.python.org/3/tutorial/errors.html"
_EXCEPTIONS_DOCS = "https://docs.python.org/3/library/exceptions.html"

_SORRY = re.compile(r"\((?P<file>[^()]+?), line (?P<line>\d+)\)\s*$")
_COMPILING = re.compile(r"^\*\*\* Error compiling '(?P<file>.+)'\.\.\.$")


class _TracebackBlock:
    """The `python.traceback` block: one record when the traceback ends."""

    max_lines = 20_000

    def __init__(self, ctx: LineContext, start: int) -> None:
        self.tb = Traceback(ctx)
        self.start = start

    def feed(self, line: str, line_no: int) -> bool:
        return self.tb.feed(line, line_no)

    def finish(self) -> Iterable[Hit]:
        tb = self.tb
        if not tb.complete or tb.exc is None or tb.exc in NOT_FAILURES:
            return []
        where = tb.location()
        code_line = where.code if where else ""
        category = exception_category(tb.exc, tb.message, code_line)
        hint = exception_hint(tb.exc, tb.message, tb.ctx)
        if category is FailureType.INFRA and tb.exc.endswith("KeyError"):
            hint["variable"] = tb.message.strip("'\"")
        elif category is FailureType.COMPILE and tb.chain:
            # a ConfigError raised from a KeyError on os.environ, a client's
            # error over a refused connection: the chained cause decides
            cause = cause_of(tb.exceptions())
            if cause is not None and cause.category is FailureType.INFRA:
                category = cause.category
                hint.update(cause.hint)
        return [
            Hit(
                signal=tb.signal,
                message=tb.signal,
                file=where.file if where else None,
                line=where.line if where else None,
                code=tb.exc,
                category=category,
                log_line=tb.exc_line,
                hint=hint,
                related=tb.related(where),
                rule_id=exception_rule(tb.exc),
            )
        ]


@rule(
    id="python.traceback",
    category=FailureType.COMPILE,
    tool="python",
    pattern=r"^Traceback \(most recent call last\):\s*$",
    triggers=(TRACEBACK_HEAD,),
    url=_TRACEBACK_DOCS,
    priority=10,
)
def python_traceback(m: re.Match[str], ctx: LineContext) -> _TracebackBlock:
    """An uncaught Python exception: the traceback, from its header to the
    exception line.

    What it detects: `Traceback (most recent call last):`, the
    `File "x", line N, in func` frames with their source lines and carets,
    and the final `ExceptionType: message` line. Chained tracebacks
    ("During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:")
    are one failure: the LAST exception is reported. The location is the
    innermost frame inside the project (not site-packages, not the standard
    library); the other frames go to `related`. SyntaxError, import errors
    and NameError are reported under their own rules (python.syntax_error,
    python.import_error, python.name_error).

    Category: a crash of a plain script (`python app.py`) is `compile`. The
    taxonomy has no runtime-error category; `compile` is the one whose recipe
    works from the error output to a fix in the source at the reported line
    (Python's TypeError/AttributeError/KeyError are the errors a compiler
    would have caught in a typed language, and the interpreter's "Did you
    mean" suggestions go to the hint). `test` is kept for test runners: its
    recipe re-runs a test id, which a script crash does not have. Two
    exceptions to this: AssertionError is a `test` signal in the taxonomy;
    exceptions that say the environment is wrong (connection refused,
    timeouts, DNS, PermissionError, MemoryError, disk full, a KeyError on
    `os.environ`) are `infra`.

    Example output (`python3 crash.py`, Python 3.11.7):
        Traceback (most recent call last):
          File "/work/app/crash.py", line 14, in <module>
            main()
          File "/work/app/crash.py", line 6, in parse
            return data["items"]
                   ~~~~^^^^^^^^^
        KeyError: 'items'

    Recipe: compile (infra/test for the exceptions named above); hint:
    `exception`, and the interpreter's `suggestion` when it printed one.

    References: https://docs.python.org/3/tutorial/errors.html
    """
    return _TracebackBlock(ctx, ctx.line_no)


def _file_line_before(ctx: LineContext, n: int = 4) -> tuple[str | None, int | None]:
    f = match_above(ctx, FRAME, n)
    return (f.group("file"), int(f.group("line"))) if f else (None, None)


@rule(
    id="python.syntax_error",
    category=FailureType.COMPILE,
    tool="python",
    pattern=r"^(?:Sorry: )?(?P<code>SyntaxError|IndentationError|TabError): (?P<message>.+)$",
    triggers=("SyntaxError: ", "IndentationError: ", "TabError: "),
    url=_EXCEPTIONS_DOCS + "#SyntaxError",
)
def python_syntax_error(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Python file that does not parse: SyntaxError, IndentationError, TabError.

    What it detects: the interpreter's report when the script itself does
    not parse (no traceback header): `  File "x", line N`, the source line,
    the caret line, then `SyntaxError: message`; and py_compile/compileall's
    one-line form `Sorry: IndentationError: unexpected indent (x.py, line 3)`.
    A SyntaxError raised while importing another module comes inside a
    traceback and is reported by the traceback reader under this rule id,
    at the `File "x", line N` line of the file that does not parse.

    Example output (`python3 syn.py`, Python 3.11.7):
          File "/work/app/syn.py", line 1
            def greet(name:
                     ^
        SyntaxError: '(' was never closed

    Recipe: compile; the file and line point at the offending token.

    References: https://docs.python.org/3/library/exceptions.html#SyntaxError
    """
    file, line = _file_line_before(ctx)
    sorry = _SORRY.search(m.group("message"))
    if file is None and sorry is None and m.group(0).startswith("SyntaxError: "):
        return None  # no Python location: JavaScript prints the same line (node.syntax_error)
    if file is None and sorry:
        file, line = sorry.group("file"), int(sorry.group("line"))
        # compileall names the file in full on the line above; the
        # parenthesis only has its base name.
        above = _COMPILING.match(ctx.before(1)[-1]) if ctx.before(1) else None
        if above and above.group("file").replace("\\", "/").endswith("/" + file):
            file = above.group("file")
    return hit_from_match(
        m,
        ctx,
        file=file,
        line=line,
        hint={"exception": m.group("code")},
    )


@rule(
    id="python.import_error",
    category=FailureType.COMPILE,
    tool="python",
    pattern=r"^(?P<code>ModuleNotFoundError|ImportError): (?P<message>.+)$",
    triggers=("ModuleNotFoundError: ", "ImportError: "),
    url=_EXCEPTIONS_DOCS + "#ModuleNotFoundError",
)
def python_import_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """A module that cannot be imported: ModuleNotFoundError, ImportError.

    What it detects: the exception line `ModuleNotFoundError: No module named
    'x'` or `ImportError: cannot import name 'X' from 'y'`. Inside a full
    traceback the traceback reader reports it under this id with the
    innermost project frame (the failing `import` line); a bare exception
    line (a log that kept only the last line) is reported here, at the
    `File "x", line N` line just above it when there is one.

    Example output (`python3 imp.py`, Python 3.11.7):
        Traceback (most recent call last):
          File "/work/app/imp.py", line 1, in <module>
            from app.config import load
          File "/work/app/app/config.py", line 1, in <module>
            import yaml_missing_lib
        ModuleNotFoundError: No module named 'yaml_missing_lib'

    Recipe: compile. hint `module` (and `name` for "cannot import name");
    hint `package` only when the module is on a curated list of import
    names with a known PyPI distribution (yaml -> PyYAML, PIL -> Pillow,
    requests -> requests, ...) and is not one of the project's own modules
    (then hint `local` is true): a name guessed from an import is never
    offered for installation.

    References: https://docs.python.org/3/library/exceptions.html#ModuleNotFoundError
    """
    file, line = _file_line_before(ctx, 3)
    hint = {"exception": m.group("code"), **import_hint(m.group("message"), ctx.in_project)}
    return hit_from_match(m, ctx, file=file, line=line, hint=hint)


@rule(
    id="python.no_module",
    category=FailureType.COMPILE,
    tool="python",
    pattern=r"^(?P<interpreter>\S*python[\w.]*): (?:No module named (?P<module>[\w.]+)"
    r"|Error while finding module specification for '(?P<spec>[\w.]+)' \((?P<message>.+)\))\s*$",
    triggers=(": No module named ", ": Error while finding module specification for "),
    url="https://docs.python.org/3/using/cmdline.html#cmdoption-m",
)
def python_no_module(m: re.Match[str], ctx: LineContext) -> Hit:
    """`python -m tool` where the tool is not installed in that interpreter.

    What it detects: the interpreter's own one-line complaint when the module
    given to `-m` cannot be found: `/path/python3: No module named pytest`,
    or `... Error while finding module specification for 'pkg.cli'
    (ModuleNotFoundError: No module named 'pkg')` for a dotted module.
    Nothing ran, so there is no traceback and no source location.

    Category: compile, as for python.import_error: a missing module, fixed
    by installing it into the interpreter that was used (hint `interpreter`).

    Example output (`python3.13 -m pytest tests`, Python 3.13.0):
        /root/.pyenv/versions/3.13.0/bin/python3.13: No module named pytest

    Recipe: compile; hint `module`, `interpreter`, and `package` when the
    module is on the curated list (pytest -> pytest).

    References: https://docs.python.org/3/using/cmdline.html#cmdoption-m
    """
    message = m.group("message") or f"No module named '{m.group('module')}'"
    hint: dict[str, Any] = {
        "exception": "ModuleNotFoundError",
        "interpreter": m.group("interpreter"),
        **import_hint(message, ctx.in_project),
    }
    hint.setdefault("module", m.group("module") or m.group("spec"))
    return hit_from_match(m, ctx, message=message, code="ModuleNotFoundError", hint=hint)


@rule(
    id="python.name_error",
    category=FailureType.COMPILE,
    tool="python",
    pattern=r"^(?P<code>NameError): (?P<message>.+)$",
    triggers=("NameError: ",),
    url=_EXCEPTIONS_DOCS + "#NameError",
)
def python_name_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """A name used but never defined or imported: NameError.

    What it detects: `NameError: name 'x' is not defined` (with Python's
    "Did you mean: 'y'?" or "Did you forget to import 'x'?" when present).
    Inside a traceback the traceback reader reports it under this id at the
    innermost project frame; a bare exception line is reported here.

    Example output (`python3 name.py`, Python 3.11.7):
        Traceback (most recent call last):
          File "/work/app/name.py", line 12, in <module>
            print(render(U()))
          File "/work/app/name.py", line 5, in render
            return json.dumps({"name": user.name, "when": datetime.now().isoformat()})
        NameError: name 'datetime' is not defined

    Recipe: compile: add the missing import when the name is defined
    elsewhere (hint `name`, `suggestion`, `import`).

    References: https://docs.python.org/3/library/exceptions.html#NameError
    """
    file, line = _file_line_before(ctx, 3)
    hint = {"exception": "NameError", **name_hint(m.group("message"))}
    return hit_from_match(m, ctx, file=file, line=line, hint=hint)


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
