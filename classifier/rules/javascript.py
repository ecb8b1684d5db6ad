"""JavaScript builds and runs: esbuild, vite, webpack, eslint and Node.js errors.

The helpers at the top (V8 stack frames, choosing the frame inside the
project, expected/actual from a printed diff) are shared with js_test.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..security_codes import is_security_code
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule

# -- shared helpers -------------------------------------------------------------

# `    at fn (file:line:col)`, `    at file:line:col`, `    at async fn (file:l:c)`.
_V8_FRAME = re.compile(
    r"^\s*at (?:(?P<func>.*?) \()?(?P<file>[^()\s][^()]*?):(?P<line>\d+):(?P<column>\d+)\)?\s*$"
)
_BARE_FRAME = re.compile(
    r"^\s*(?:(?P<func>[^()]*?) \()?(?P<file>[^()\s][^()]*?):(?P<line>\d+):(?P<column>\d+)\)?\s*$"
)
_INTERNAL = ("node:", "internal/", "<anonymous>", "native", "evalmachine.")


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame as printed."""

    func: str
    file: str
    line: int
    column: int

    @property
    def internal(self) -> bool:
        f = self.file
        return (
            f.startswith(_INTERNAL)
            or "/node_modules/" in f
            or "\\node_modules\\" in f
            or f.startswith("node_modules/")
        )


def parse_frame(line: str, *, bare: bool = False) -> Frame | None:
    """A V8 stack frame (`at fn (file:l:c)`); `bare` also accepts the
    `fn (file:l:c)` form without `at` (node:test TAP `stack:` lines)."""
    m = _V8_FRAME.match(line) or (_BARE_FRAME.match(line) if bare else None)
    if m is None:
        return None
    return Frame(
        m.group("func") or "", m.group("file"), int(m.group("line")), int(m.group("column"))
    )


def project_frame(frames: Sequence[Frame], ctx: LineContext) -> Frame | None:
    """The innermost frame inside the project: first a frame whose file
    exists in the working tree, else the first frame that is not Node's own
    or an installed package's (output from another machine)."""
    outside = [f for f in frames if not f.internal]
    for f in outside:
        if ctx.in_project(f.file):
            return f
    return outside[0] if outside else None


def same_file(a: str, b: str) -> bool:
    """Whether two printed paths name the same file (one may be absolute,
    a file:// URL or relative to another directory)."""
    a = a.removeprefix("file://").replace("\\", "/").removeprefix("./")
    b = b.removeprefix("file://").replace("\\", "/").removeprefix("./")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def related(
    frames: Iterable[Frame], chosen: Frame | None
) -> list[tuple[str, int | None, int | None, str]]:
    """The other non-internal frames, for the record's `related` list."""
    out: list[tuple[str, int | None, int | None, str]] = [
        (f.file, f.line, f.column, f.func or "frame")
        for f in frames
        if not f.internal and f != chosen
    ]
    return out[:5]


def package_name(specifier: str) -> str | None:
    """The npm package a bare import specifier names (`@a/b/c` -> `@a/b`)."""
    if specifier.startswith((".", "/", "file:", "node:")) or re.match(
        r"^[A-Za-z]:[\\/]", specifier
    ):
        return None
    parts = specifier.split("/")
    name = "/".join(parts[:2]) if specifier.startswith("@") else parts[0]
    return name if re.fullmatch(r"(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*", name, re.I) else None


def module_hint(specifier: str) -> dict[str, Any]:
    hint: dict[str, Any] = {"module": specifier}
    pkg = package_name(specifier)
    if pkg:
        hint["package"] = pkg
    return hint


@dataclass(slots=True)
class DiffValues:
    """Expected/actual values read from a printed assertion diff.

    `minus_is_expected` says which side the `-` lines are (jest and vitest:
    `- Expected`; mocha: `+ expected - actual`)."""

    minus_is_expected: bool = True
    active: bool = False
    minus: list[str] = field(default_factory=list)
    plus: list[str] = field(default_factory=list)

    def feed(self, text: str) -> None:
        s = text.strip()
        if not self.active:
            header = "- Expected" if self.minus_is_expected else "+ expected - actual"
            self.active = s.startswith(header)
            return
        if re.match(r"^(?:\+ Received\b|- Expected\b)", s):
            return
        if s.startswith("- ") or (s.startswith("-") and not s.startswith("--")):
            self.minus.append(s[1:].strip())
        elif s.startswith("+ ") or (s.startswith("+") and not s.startswith("++")):
            self.plus.append(s[1:].strip())

    def values(self) -> dict[str, str]:
        if not (self.minus or self.plus):
            return {}
        exp, act = (self.minus, self.plus) if self.minus_is_expected else (self.plus, self.minus)
        return {"expected": "\n".join(exp), "actual": "\n".join(act)}


# -- esbuild ------------------------------------------------------------------------

_ESBUILD_LOC = re.compile(r"^ {4}(?P<file>\S.*?):(?P<line>\d+):(?P<column>\d+):\s*$")
_QUOTED_MODULE = re.compile(r"""(?:resolve|import|module|package) ["'](?P<module>[^"']+)["']""")
_PLUGIN_TAG = re.compile(r"^\[(?:plugin )?(?P<plugin>[^\]]+)\]:? ")


class _EsbuildBlock:
    max_lines = 200

    def __init__(self, message: str, line_no: int) -> None:
        self.message = message
        self.log_line = line_no
        self.loc: re.Match[str] | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return True
        if not line.startswith(" "):  # the next report, the "N errors" count, another tool
            return False
        if self.loc is None:
            self.loc = _ESBUILD_LOC.match(line)
        return True

    def finish(self) -> Iterable[Hit]:
        message = self.message
        hint: dict[str, Any] = {}
        tag = _PLUGIN_TAG.match(message)
        if tag:
            hint["plugin"] = tag.group("plugin")
            message = message[tag.end() :]
        mod = _QUOTED_MODULE.search(message)
        if mod:
            hint.update(module_hint(mod.group("module")))
        loc = self.loc
        yield Hit(
            signal=f"[ERROR] {self.message}",
            message=message,
            file=loc.group("file") if loc else None,
            line=int(loc.group("line")) if loc else None,
            column=int(loc.group("column")) + 1 if loc else None,
            log_line=self.log_line,
            hint=hint,
        )


@rule(
    id="esbuild.error",
    category=FailureType.COMPILE,
    tool="esbuild",
    pattern=r"^(?:✘|X) \[ERROR\] (?P<message>.+)$",
    triggers=("[ERROR] ",),
    url="https://esbuild.github.io/api/#log-level",
)
def esbuild_error(m: re.Match[str], ctx: LineContext) -> Block:
    """esbuild build errors (`✘ [ERROR] message` and its location).

    What it detects: the `✘ [ERROR] message` line esbuild prints for each
    error (`X [ERROR]` where the terminal has no Unicode), followed by the
    indented `file:line:col:` location and a code excerpt. Warnings
    (`▲ [WARNING]`) and the closing "N errors" count are not failures of
    their own. esbuild's column is 0-based; the record's is 1-based.

    Example output (`esbuild src/index.js --bundle --outfile=out.js`, esbuild 0.28.2):
        ✘ [ERROR] Could not resolve "./missing-format"

            src/index.js:2:23:
              2 │ import { format } from "./missing-format";
                ╵                        ~~~~~~~~~~~~~~~~~~

    Recipe: compile. An unresolved import puts `module` (and `package` for
    a bare specifier) in the hint for the missing-import or install step.

    References: https://esbuild.github.io/api/#log-level
    """
    return _EsbuildBlock(m.group("message").strip(), ctx.line_no)


# -- vite ---------------------------------------------------------------------------------

_VITE_FILE = re.compile(
    r"^file: (?P<file>.+?)(?::(?P<line>\d+):(?P<column>\d+))?(?: \((?P<importer>[^)]+)\))?\s*$"
)
_ROLLUP_POS = re.compile(r"^(?P<file>\S+) \((?P<line>\d+):(?P<column>\d+)\): (?P<message>.+)$")
_ESBUILD_TRANSFORM = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): ERROR: (?P<message>.+)$"
)
_FROM_FILE = re.compile(r"""from ["'](?P<file>[^"']+)["']""")


class _ViteBlock:
    max_lines = 120

    def __init__(self, line_no: int) -> None:
        self.log_line = line_no
        self.message = ""
        self.detail = ""
        self.file: re.Match[str] | None = None
        self.in_frames = False

    def feed(self, line: str, line_no: int) -> bool:
        s = line.strip()
        if _V8_FRAME.match(line):
            self.in_frames = True
            return True
        if self.in_frames:
            return False  # the stack ended: the report is over
        if not s:
            return True
        if not self.message:
            self.message = s
            self.log_line = line_no
        elif self.file is None and s.startswith("file: "):
            self.file = _VITE_FILE.match(s)
        elif self.file is None and not self.detail and self.message.endswith(":"):
            self.detail = s
        return True

    def finish(self) -> Iterable[Hit]:
        if not self.message:
            return
        message = self.message
        hint: dict[str, Any] = {}
        tag = _PLUGIN_TAG.match(message)
        if tag:
            hint["plugin"] = tag.group("plugin")
            message = message[tag.end() :]
        file: str | None = None
        line = column = None
        detail = _ESBUILD_TRANSFORM.match(self.detail) if self.detail else None
        if detail:
            message = detail.group("message")
        pos = _ROLLUP_POS.match(message)
        if pos:
            message = pos.group("message")
            file, line, column = (
                pos.group("file"),
                int(pos.group("line")),
                int(pos.group("column")) + 1,
            )
        if self.file:
            file = self.file.group("file")
            if self.file.group("line"):
                line = int(self.file.group("line"))
                column = int(self.file.group("column")) + 1
        if file is None:
            src = _FROM_FILE.search(message)
            file = src.group("file") if src else None
        mod = _QUOTED_MODULE.search(message)
        if mod:
            hint.update(module_hint(mod.group("module")))
        yield Hit(
            signal=f"error during build: {message}",
            message=message,
            file=file,
            line=line,
            column=column,
            log_line=self.log_line,
            hint=hint,
        )


@rule(
    id="vite.build",
    category=FailureType.COMPILE,
    tool="vite",
    pattern=r"^error during build:\s*$",
    triggers=("error during build:",),
    url="https://vite.dev/guide/build",
)
def vite_build(m: re.Match[str], ctx: LineContext) -> Block:
    """vite build failures (`error during build:` and the report under it).

    What it detects: the `error during build:` line that `vite build` prints
    after "✗ Build failed", the message under it (Rollup's "Could not
    resolve ...", a parse error `file (line:col): message`, or an esbuild
    "Transform failed" with `file:line:col: ERROR: message`), the
    `file: path:line:col` line, the code frame and vite's own stack (frames
    inside node_modules, which are consumed and never reported). The
    location comes from the `file:` line, else from the message.

    Example output (`vite build`, vite 7.3.8):
        ✗ Build failed in 97ms
        error during build:
        Could not resolve "./missing-format" from "src/index.js"
        file: /work/app/src/index.js

    Recipe: compile. An unresolved import puts `module` (and `package`) in
    the hint; a plugin tag such as `[vite:build-html]` goes to `plugin`.

    References: https://vite.dev/guide/build
    """
    return _ViteBlock(ctx.line_no)


# -- webpack -----------------------------------------------------------------------------

_CANT_RESOLVE = re.compile(r"Can't resolve '(?P<module>[^']+)'")
_PARSE_POS = re.compile(r"\((?P<line>\d+):(?P<column>\d+)\)\s*$")


class _WebpackBlock:
    max_lines = 400

    def __init__(self, m: re.Match[str], line_no: int) -> None:
        self.m = m
        self.log_line = line_no
        self.message = ""
        self.done = False

    def feed(self, line: str, line_no: int) -> bool:
        if self.done:
            return False
        if not line.strip():
            self.done = True
            return True
        if line.startswith("ERROR in ") or line.startswith("WARNING in "):
            return False
        if not self.message:
            self.message = line.strip()
        return True

    def finish(self) -> Iterable[Hit]:
        m = self.m
        where = m.group("where").strip()
        file: str | None = where if ("/" in where or "\\" in where or "." in where) else None
        line = int(m.group("line")) if m.group("line") else None
        column = int(m.group("column")) + 1 if m.group("column") else None
        message = self.message or f"ERROR in {where}"
        hint: dict[str, Any] = {}
        res = _CANT_RESOLVE.search(message)
        if res:
            hint.update(module_hint(res.group("module")))
        if line is None:
            pos = _PARSE_POS.search(message)
            if pos:
                line, column = int(pos.group("line")), int(pos.group("column")) + 1
        yield Hit(
            signal=f"ERROR in {m.group(0)[len('ERROR in ') :].strip()}: {message}"[:500],
            message=message,
            file=file,
            line=line,
            column=column,
            log_line=self.log_line,
            hint=hint,
        )


@rule(
    id="webpack.error",
    category=FailureType.COMPILE,
    tool="webpack",
    pattern=(
        r"^ERROR in (?P<where>\S+?)(?:[ :](?P<line>\d+):(?P<column>\d+)"
        r"(?:-(?:\d+:)?\d+)?)?\s*$"
    ),
    triggers=("ERROR in ",),
    url="https://webpack.js.org/configuration/stats/",
)
def webpack_error(m: re.Match[str], ctx: LineContext) -> Block:
    """webpack compilation errors (`ERROR in ./module line:col`).

    What it detects: each `ERROR in <module> <line>:<col>[-<end>]` heading
    of webpack's stats output and the message under it ("Module not found:
    Error: Can't resolve './x' in '/dir'", "Module parse failed: Unexpected
    token (2:23)"), up to the blank line closing it. The resolver's trace and
    the "webpack compiled with N errors" summary are not further failures;
    `WARNING in` is not a failure. A chunk heading (`ERROR in main`) has no
    file. webpack's column is 0-based; the record's is 1-based.

    Example output (`webpack --mode production --entry ./src/index.js`, webpack 5.113.0):
        ERROR in ./src/index.js 2:0-42
        Module not found: Error: Can't resolve './missing-format' in '/work/app/src'

    Recipe: compile; `module` (and `package`) in the hint for a missing import.

    References: https://webpack.js.org/configuration/stats/
    """
    return _WebpackBlock(m, ctx.line_no)


# -- eslint (stylish formatter) -------------------------------------------------------------

_ESLINT_MSG = re.compile(
    r"^\s+(?P<line>\d+):(?P<column>\d+)\s+(?P<severity>error|warning)\s+(?P<message>.+?)"
    r"(?:\s{2,}(?P<code>[@\w][\w@/.-]*))?\s*$"
)
_ESLINT_FILE = re.compile(r"^(?P<file>(?:[A-Za-z]:[\\/]|/|\.{1,2}[\\/]|[\w@.-]+[\\/])\S.*?)\s*$")
_ESLINT_SUMMARY = re.compile(r"^\s*(?:✖|X) \d+ problems? \(")


class _EslintBlock:
    max_lines = 100_000

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.hits: list[Hit] = []
        self.done = False

    def take(self, m: re.Match[str], line: str, line_no: int) -> None:
        code = m.group("code")
        trust = is_security_code(code, "eslint")
        # a warning is a failure only when the run failed because of it
        # (--max-warnings): classifier/warnings_policy.py decides
        warning = m.group("severity") != "error" and not trust
        message = m.group("message").strip()
        self.hits.append(
            Hit(
                signal=f"{m.group('severity')}  {message}" + (f"  {code}" if code else ""),
                message=message,
                file=self.file,
                line=int(m.group("line")) or None,
                column=int(m.group("column")) or None,
                code=code,
                log_line=line_no,
                category=FailureType.TRUST_GATE if trust else None,
                warning=warning,
                hint={"rule": code} if code else {},
            )
        )

    def feed(self, line: str, line_no: int) -> bool:
        if self.done:
            return False
        if not line.strip():
            return True
        m = _ESLINT_MSG.match(line)
        if m:
            self.take(m, line, line_no)
            return True
        if _ESLINT_SUMMARY.match(line):
            self.done = True
            return True
        if line.lstrip().startswith("✖ ") or line.strip().startswith(
            ("0 errors and", "1 error and", "1 warning and")
        ):
            return True  # "N errors and M warnings potentially fixable with `--fix`"
        f = _ESLINT_FILE.match(line)
        if f and not line.startswith(" "):
            self.file = f.group("file")
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="eslint.stylish",
    category=FailureType.COMPILE,
    tool="eslint",
    pattern=_ESLINT_MSG.pattern,
    triggers=("  error  ", "  warning  "),
    url="https://eslint.org/docs/latest/use/formatters/#stylish",
)
def eslint_stylish(m: re.Match[str], ctx: LineContext) -> Block | None:
    """eslint problems in the default `stylish` format.

    What it detects: a file header line (the file's path, alone on its line)
    followed by `  line:col  error  message  rule-id` lines, as many files as
    were linted, closed by `✖ N problems (E errors, W warnings)`. Each
    `error` line is one failure with the rule id as code; `warning` lines
    are warnings, failures only when the run failed because of them
    (`--max-warnings`, docs/warnings.md), except for security plugins (`security/...`, `no-secrets/...`), whose findings are
    trust_gate failures. Parsing errors have no rule id.

    Example output (`eslint src`, eslint 10.15.0, flat config):
        /work/app/src/app.js
          1:10  error    'helper' is defined but never used  no-unused-vars
          6:5   warning  Unexpected console statement        no-console

        ✖ 2 problems (1 error, 1 warning)

    Recipe: compile (trust_gate for security plugins). `rule` in the hint
    names the eslint rule.

    References: https://eslint.org/docs/latest/use/formatters/#stylish
    """
    header = None
    for prev in reversed(ctx.before(200)):
        if not prev.strip() or _ESLINT_MSG.match(prev):
            continue
        f = _ESLINT_FILE.match(prev)
        if f and not prev.startswith(" "):
            header = f.group("file")
        break
    if header is None:
        return None
    block = _EslintBlock(header)
    block.take(m, ctx.line, ctx.line_no)
    return block


# -- Node.js uncaught errors ---------------------------------------------------------------

# The throw site Node prints above an uncaught error: `file:line`, the source
# line, a caret line, a blank line.
# mocha prefixes it with "Exception during run: " when a spec file fails to load.
_THROW_SITE = re.compile(r"^(?:\s*Exception during run: )?(?P<file>\S+?):(?P<line>\d+)$")
_ERROR_LINE = (
    r"^(?:Uncaught )?(?P<type>(?:[A-Z][A-Za-z]*)?Error)(?: \[(?P<code>\w+)\])?: (?P<message>.*)$"
)
_PROP_CODE = re.compile(r"^\s+code: '(?P<code>\w+)'")
_NAME_NOT_DEFINED = re.compile(r"^(?P<name>[\w$]+) is not defined$")


@dataclass(slots=True)
class _ThrowSite:
    file: str
    line: int
    column: int | None


def _throw_site(ctx: LineContext) -> _ThrowSite | None:
    before = ctx.before(4)
    if len(before) < 4 or before[-1].strip():
        return None
    m = _THROW_SITE.match(before[0])
    if m is None:
        return None
    caret = before[2]
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

    def feed(self, line: str, line_no: int) -> bool:
        s = line.strip()
        if self.state == "tail":
            return bool(s.startswith("Node.js v")) and self._end()
        if self.state == "props":
            pc = _PROP_CODE.match(line)
            if pc and not self.code:
                self.code = pc.group("code")
            if line.startswith("}"):
                self.state = "tail"
            return True
        f = parse_frame(line.removesuffix(" {"))
        if f is not None and line.startswith(" "):
            self.frames.append(f)
            self.state = "props" if line.rstrip().endswith("{") else "frames"
            return True
        if self.state == "head" and s == "Require stack:":
            self.state = "require"
            return True
        if self.state == "require" and s.startswith("- "):
            self.require_stack.append(s[2:])
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
        else:
            return
        if self.kind == "module":
            hint.update(module_hint(m.group("module")))
            message = m.group(0).split(": ", 1)[1]
        name = _NAME_NOT_DEFINED.match(message)
        if name:
            hint["name"] = name.group("name")
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
    triggers=("Error: ", "Error ["),
    url="https://nodejs.org/api/errors.html#errors",
)
def node_uncaught(m: re.Match[str], ctx: LineContext) -> Block | None:
    """An uncaught exception that stopped a Node.js program.

    What it detects: `ReferenceError: x is not defined`, `TypeError: ...`
    and any other `<Name>Error: message` that Node prints for an uncaught
    exception, under its throw-site header (`file:line`, source, caret,
    blank line), with the stack. The location is the innermost frame inside
    the project (files that exist under the cwd, not node_modules nor
    `node:` internals), else the throw site. An error Node reports with no
    frame in the project and an internal throw site gives no record.

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

    References: https://nodejs.org/api/errors.html#errors
    """
    return _node_block("uncaught", m, ctx)
