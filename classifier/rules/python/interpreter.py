"""Python rules for the interpreter: a traceback, a SyntaxError, an import
that fails, a name that is not defined."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, hit_from_match, match_above
from ..python_causes import (
    BUILD_ERRORS,
    NOT_FAILURES,
    cause_of,
    exception_hint,
    exception_rule,
    import_hint,
    is_env_key_error,
    name_hint,
)
from ..python_meaning import runtime_meaning
from ..python_traceback import FRAME, TRACEBACK_HEAD, Traceback
from ..registry import rule

_TRACEBACK_DOCS = "https://docs.python.org/3/tutorial/errors.html"
_EXCEPTIONS_DOCS = "https://docs.python.org/3/library/exceptions.html"

_SORRY = lazy_compile(r"\((?P<file>[^()]+?), line (?P<line>\d+)\)\s*$")
_COMPILING = lazy_compile(r"^\*\*\* Error compiling '(?P<file>.+)'\.\.\.$")
_TRAILER_LINES = 40


class _TracebackBlock:
    """The `python.traceback` block: one record when the traceback ends."""

    max_lines = 20_000

    def __init__(self, ctx: LineContext, start: int) -> None:
        self.tb = Traceback(ctx)
        self.start = start
        # A message ending in ":" goes on, unindented, on the lines after
        # the exception line (`RuntimeError: git merge failed:` and git's
        # own lines): read for its meaning, and left to the other rules.
        self.trailer: list[str] | None = None

    def feed(self, line: str, line_no: int) -> bool | None:
        if self.trailer is not None:
            if not line.strip() or len(self.trailer) >= _TRAILER_LINES:
                return False
            self.trailer.append(line.strip())
            return None
        if self.tb.feed(line, line_no):
            return True
        if self.tb.complete and self.tb.message.endswith(":") and line.strip():
            self.trailer = [line.strip()]
            return None
        return False

    def finish(self) -> Iterable[Hit]:
        tb = self.tb
        if not tb.complete or tb.exc is None or tb.exc in NOT_FAILURES:
            return []
        where = tb.location()
        code_line = where.code if where else ""
        hint = exception_hint(tb.exc, tb.message, tb.ctx)
        short = tb.exc.rsplit(".", 1)[-1]
        key: tuple[str, ...] | None = None
        if short == "KeyboardInterrupt":
            category = FailureType.INFRA  # SIGINT from outside: a cancel, a time limit
            hint.update(kind="interrupted", transient=True)
        elif is_env_key_error(tb.exc, code_line):
            category = FailureType.INFRA
            hint["variable"] = tb.message.strip("'\"")
        elif short in BUILD_ERRORS or short == "AssertionError":
            category = FailureType.COMPILE if short in BUILD_ERRORS else FailureType.TEST
            # a ConfigError raised from a KeyError on os.environ, a client's
            # error over a refused connection: the chained cause decides
            cause = cause_of(tb.exceptions()) if tb.chain else None
            if cause is not None and cause.category is FailureType.INFRA:
                category = cause.category
                hint.update(cause.hint)
        else:
            # neither stops the code from being built nor is an assertion:
            # what the exception (or one chained to it) names decides
            cause = cause_of(tb.exceptions()) if tb.chain else None
            messages = [raised.message for raised in tb.exceptions()]
            if self.trailer:
                messages[-1] = "\n".join([messages[-1], *self.trailer])
            meaning = runtime_meaning(
                tb.exc, messages, [(frame.file, frame.func) for frame in tb.frames]
            )
            category = cause.category if cause is not None else meaning.category
            hint.update(cause.hint if cause is not None else meaning.hint)
            key = meaning.key if cause is None else None
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
                key=key,
            )
        ]


@rule(
    id="python.traceback",
    category=FailureType.INFRA,
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

    Category, by what the exception means (python_meaning.py): compile
    only for what stops the code from being built or imported (those are
    reported under the rules named above); AssertionError, and any
    exception raised through a test (a test runner's frames, a `test_*`
    function in a test file), is `test`; out of memory (MemoryError,
    torch's OutOfMemoryError, "CUDA out of memory") is infra, permanent;
    a timeout (subprocess.TimeoutExpired, TimeoutError, socket.timeout) is
    infra, transient; an OS error of the runner (no space left, permission
    denied, a refused connection) or a KeyError on `os.environ` is infra; a
    message that names a git merge conflict (a RuntimeError quoting git's
    `CONFLICT (content): Merge conflict in x`, on the lines after a message
    that ends in ":") is branch_divergence, one record with git.conflict's.
    Any other exception of a plain script (a RuntimeError, a TypeError, a
    KeyError) is infra with `kind: runtime`, permanent: the program crashed
    while it ran; nothing says the code does not build, and a retry does
    not help. The interpreter's "Did you mean" suggestion stays in the hint.
    A KeyboardInterrupt is SIGINT from outside (a CI job cancelled, a
    wrapper's time limit sending INT): infra, transient, `kind:
    interrupted`; SystemExit is no failure.

    Example output (`python3 crash.py`, Python 3.11.7):
        Traceback (most recent call last):
          File "/work/app/crash.py", line 14, in <module>
            main()
          File "/work/app/crash.py", line 6, in parse
            return data["items"]
                   ~~~~^^^^^^^^^
        KeyError: 'items'

    Recipe: infra (escalated with the exception and its place), test or
    branch_divergence as above; hint: `exception`, `kind` and `transient`
    for infra, and the interpreter's `suggestion` when it printed one.

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
