"""Node.js rules: an uncaught error, a module not found, a syntax error."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..js_causes import js_cause
from ..js_frames import (
    Frame,
    module_hint,
    parse_frame,
    project_frame,
    related,
)
from ..registry import rule

# -- Node.js uncaught errors ---------------------------------------------------------------

# The throw site Node prints above an uncaught error: `file:line`, the source
# line, a caret line, a blank line.
# mocha prefixes it with "Exception during run: " when a spec file fails to load.
_THROW_SITE = lazy_compile(r"^(?:\s*Exception during run: )?(?P<file>\S+?):(?P<line>\d+)$")
_ERROR_LINE = (
    r"^(?:Uncaught )?(?P<type>(?:[A-Z][A-Za-z]*)?Error|UnhandledPromiseRejection)"
    r"(?: \[(?P<code>\w+)\])?: (?P<message>.*)$"
)
# A promise rejected with a value that is not an Error: no stack to point at,
# but always the program's own fault.
_UNHANDLED = "UnhandledPromiseRejection"
_PROP_CODE = lazy_compile(r"^\s+code: '(?P<code>\w+)'")
_ERRNO = lazy_compile(r"\bE(?:CONN\w+|NOTFOUND|TIMEDOUT|AI_AGAIN|HOSTUNREACH|NETUNREACH|PIPE)\b")
MAX_TEXTS = 40  # property lines kept of one error ([cause]:, code:), to read a cause from
_NAME_NOT_DEFINED = lazy_compile(r"^(?P<name>[\w$]+) is not defined$")
_NO_EXPORT = lazy_compile(
    r"^The requested module '(?P<module>[^']+)' does not provide an export named '(?P<name>[^']+)'"
)


@dataclass(slots=True)
class _ThrowSite:
    file: str
    line: int
    column: int | None


def _throw_site(ctx: LineContext) -> _ThrowSite | None:
    before = ctx.before(4)
    if len(before) < 3:
        return None
    if not before[-1].strip():
        header, caret = before[-4] if len(before) == 4 else "", before[-2]
    elif before[-1].strip().strip("^") == "":
        # An ES module's link error (a missing export) has no blank line
        # between the caret line and the error.
        header, caret = before[-3], before[-1]
    else:
        return None
    m = _THROW_SITE.match(header)
    if m is None:
        return None
    column = caret.index("^") + 1 if caret.strip() == "^" or caret.rstrip().endswith("^") else None
    return _ThrowSite(m.group("file"), int(m.group("line")), column)


class _NodeErrorBlock:
    max_lines = 400

    def __init__(self, kind: str, m: re.Match[str], ctx: LineContext, site: _ThrowSite) -> None:
        self.kind = kind
        self.m = m
        self.ctx = ctx
        self.site = site
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.frames: list[Frame] = []
        self.require_stack: list[str] = []
        self.state = "head"  # head -> require -> frames -> props -> tail
        self.code = m.groupdict().get("code")
        self.texts: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        s = line.strip()
        if self.state == "tail":
            return bool(s.startswith("Node.js v")) and self._end()
        if self.state == "props":
            pc = _PROP_CODE.match(line)
            if pc and not self.code:
                self.code = pc.group("code")
            if len(self.texts) < MAX_TEXTS:
                self.texts.append(line.strip())
            if line.startswith("}"):
                self.state = "tail"
            return True
        f = parse_frame(line.removesuffix(" {"))
        if f is not None and line.startswith(" "):
            self.frames.append(f)
            self.state = "props" if line.rstrip().endswith("{") else "frames"
            return True
        if line.startswith("    at ") and self.state in ("head", "frames"):
            self.state = "frames"  # `at JSON.parse (<anonymous>)`: a frame with no file
            return True
        if self.state == "head" and s == "Require stack:":
            self.state = "require"
            return True
        if self.state == "require" and s.startswith("- "):
            self.require_stack.append(s[2:])
            return True
        if self.state == "head" and self.m.groupdict().get("type") == "AssertionError":
            # node:assert's message goes on below its first line (`3 !== 4`, a
            # diff) before the stack
            if len(self.texts) < MAX_TEXTS and s:
                self.texts.append(s)
            return True
        if not s:
            self.state = "tail"
            return True
        return False

    def _end(self) -> bool:
        self.state = "ended"
        return True

    def finish(self) -> Iterable[Hit]:
        ctx, m, site = self.ctx, self.m, self.site
        frame = project_frame(self.frames, ctx)
        site_internal = Frame("", site.file, site.line, 0).internal
        file: str | None = None
        line = column = None
        hint: dict[str, Any] = {}
        message = (m.groupdict().get("message") or m.group(0)).strip()
        if self.kind == "syntax" and not site_internal:
            file, line, column = site.file, site.line, site.column
        elif frame is not None:
            file, line, column = frame.file, frame.line, frame.column
        elif self.kind == "module":
            importer = (m.groupdict().get("importer") or "").strip()
            file = importer or (self.require_stack[0] if self.require_stack else None)
        elif not site_internal:
            file, line, column = site.file, site.line, site.column
        cause = js_cause(self.signal, self.texts) if self.kind == "uncaught" else None
        if cause is not None and (
            cause.hint.get("cause") != "network"
            or not any(_ERRNO.search(t) for t in (self.signal, *self.texts))
        ):
            # Only a socket's error is a cause here (as for a Python traceback):
            # a missing name or module is the program's own error (read below),
            # and so is a network word in a message the program wrote
            # ("connection refused: bad url"), which carries no errno code.
            cause = None
        if file is None and self.kind != "module" and m.groupdict().get("type") != _UNHANDLED:
            return  # an internal error of a tool, not the program's (the other rules read it)
        if cause is not None:
            hint.update(cause.hint)
        if self.kind == "module":
            hint.update(module_hint(m.group("module")))
            message = m.group(0).split(": ", 1)[1]
        name = _NAME_NOT_DEFINED.match(message)
        if name:
            hint["name"] = name.group("name")
        if self.kind == "syntax" and (export := _NO_EXPORT.match(message)):
            hint.update(module=export.group("module"), missing_export=export.group("name"))
        yield Hit(
            signal=self.signal,
            message=message,
            file=file,
            line=line,
            column=column,
            code=self.code or m.groupdict().get("type") or "Error",
            log_line=self.log_line,
            hint=hint,
            related=related(self.frames, frame),
            confidence=1.0 if self.kind != "uncaught" else 0.8,
            category=cause.category if cause is not None else None,
        )


def _node_block(kind: str, m: re.Match[str], ctx: LineContext) -> Block | None:
    site = _throw_site(ctx)
    if site is None:  # not Node's uncaught-error report (a log line, a Python error)
        return None
    return _NodeErrorBlock(kind, m, ctx, site)


@rule(
    id="node.module_not_found",
    category=FailureType.COMPILE,
    tool="node",
    pattern=(
        r"^(?:Uncaught )?Error(?: \[(?P<code>ERR_MODULE_NOT_FOUND)\])?: "
        r"Cannot find (?:module|package) '(?P<module>[^']+)'(?: imported from (?P<importer>.+))?"
    ),
    triggers=("Cannot find module '", "Cannot find package '"),
    url="https://nodejs.org/api/errors.html#module_not_found",
    priority=20,
)
def node_module_not_found(m: re.Match[str], ctx: LineContext) -> Block | None:
    """Node.js cannot load a module (`Error: Cannot find module 'x'`).

    What it detects: the uncaught `Error: Cannot find module './x'` of
    `require()` with its `Require stack:` list, and the ES-module form
    `Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x' imported from
    /dir/a.mjs`, each under Node's throw-site header (`file:line`, source,
    caret, blank line), which is required, so a log line merely quoting the
    message is not taken for a crash. The location is the innermost stack
    frame inside the project (the `require` call), else the importing file.

    Example output (`node b.js`, Node.js 20.20.2):
        Error: Cannot find module './src/config'
        Require stack:
        - /work/app/b.js
            at Object.<anonymous> (/work/app/b.js:1:13)

    Recipe: compile. `module` is the specifier; a bare specifier also gives
    `package`, the npm package to install.

    References: https://nodejs.org/api/errors.html#module_not_found
    """
    return _node_block("module", m, ctx)


@rule(
    id="node.syntax_error",
    category=FailureType.COMPILE,
    tool="node",
    pattern=r"^(?:Uncaught )?(?P<type>SyntaxError)(?: \[(?P<code>\w+)\])?: (?P<message>.+)$",
    triggers=("SyntaxError",),
    url="https://nodejs.org/api/errors.html#class-syntaxerror",
    priority=10,
)
def node_syntax_error(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A JavaScript file Node.js could not parse (`SyntaxError: ...`).

    What it detects: an uncaught `SyntaxError: message` under Node's
    throw-site header `file:line` (or `file:///...:line` for ES modules);
    the header names the file that does not parse, so it is the location
    (the caret gives the column); the stack below only shows who loaded it.
    An ES module importing a name its module does not export fails the
    same way at link time, printed without the blank line under the caret
    (`SyntaxError: The requested module './money.js' does not provide an
    export named 'roundPrice'`): the record is on the import, with the
    `module` and the `missing_export` in the hint.

    Example output (`node index.js`, Node.js 20.20.2):
        /work/app/src/cart.js:2
          return items.reduce((a, b) => a + b, 0) *;
                                                   ^

        SyntaxError: Unexpected token ';'

    Recipe: compile.

    References: https://nodejs.org/api/errors.html#class-syntaxerror
    """
    return _node_block("syntax", m, ctx)


@rule(
    id="node.uncaught",
    category=FailureType.COMPILE,
    tool="node",
    pattern=_ERROR_LINE,
    triggers=("Error: ", "Error [", "UnhandledPromiseRejection: "),
    url="https://nodejs.org/api/errors.html#errors",
)
def node_uncaught(m: re.Match[str], ctx: LineContext) -> Block | None:
    """An uncaught exception that stopped a Node.js program.

    What it detects: `ReferenceError: x is not defined`, `TypeError: ...`
    and any other `<Name>Error: message` that Node prints for an uncaught
    exception, under its throw-site header (`file:line`, source, caret,
    blank line), with the stack. The location is the innermost frame inside
    the project (files that exist under the cwd, not node_modules nor
    `node:` internals), else the throw site (`at async file:///app/main.mjs`
    is a module's top-level await). An error whose stack has no frame in
    the project and whose throw site is internal gives no record (the
    other rules read what it says), except a promise rejected with a value
    that is not an Error (`UnhandledPromiseRejection: ... The promise
    rejected with the reason "x".`): no location, always the program's.
    node:assert's message may go on over several lines (`3 !== 4`, a diff)
    before the stack; the text JSON.parse was given (`<anonymous_script>:1`)
    is no throw site, the parse call's frame is. An error that names a cause is the
    cause's: a socket's error (`connect ECONNREFUSED 127.0.0.1:5432`, by
    itself or as the `[cause]:` of `TypeError: fetch failed`) is infra and
    transient (hint `kind`, `host`, `port`); a network word in the
    program's own message, with no errno code, is not a cause.

    Example output (`node index.js`, Node.js 20.20.2):
        /work/app/src/cart.js:2
          return items.reduce((a, b) => a + b, 0) * taxRate;
                                                    ^

        ReferenceError: taxRate is not defined
            at total (/work/app/src/cart.js:2:45)
            at Object.<anonymous> (/work/app/index.js:2:13)

    Recipe: compile: the program is wrong as written; for "x is not
    defined" the missing `name` goes into the hint for the missing-import
    step. Confidence 0.8: a runtime error may also come from bad input.
    infra (a service that did not answer): retried with backoff.

    References: https://nodejs.org/api/errors.html#errors
    """
    return _node_block("uncaught", m, ctx)
