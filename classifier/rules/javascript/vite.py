"""JavaScript rules for vite builds: Rollup's reports (vite 7 and before, one-off
and `--watch`) and Rolldown's (vite 8)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..js_frames import V8_FRAME, module_hint
from ..registry import rule
from .bundlers import PLUGIN_TAG, QUOTED_MODULE

_VITE_FILE = lazy_compile(
    r"^file: (?P<file>.+?)(?::(?P<line>\d+):(?P<column>\d+))?(?: \((?P<importer>[^)]+)\))?\s*$"
)
_ROLLUP_POS = lazy_compile(r"^(?P<file>\S+) \((?P<line>\d+):(?P<column>\d+)\): (?P<message>.+)$")
_ESBUILD_TRANSFORM = lazy_compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): ERROR: (?P<message>.+)$"
)
_FROM_FILE = lazy_compile(r"""from ["'](?P<file>[^"']+)["']""")


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
        if V8_FRAME.match(line):
            self.in_frames = True
            return True
        if self.in_frames:
            return False  # the stack ended: the report is over
        if not s:
            return True
        if not self.message:
            if _ROLLDOWN_HEAD.match(s):
                return False  # vite 8's Rolldown report: vite.rolldown reads it
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
        tag = PLUGIN_TAG.match(message)
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
        mod = QUOTED_MODULE.search(message)
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


class _ViteWatchBlock:
    """Rollup's report as `vite build --watch` prints it: the message line, then
    `file: path[:line:col]`; anything else ends it (the next cycle's banner)."""

    max_lines = 4

    def __init__(self, m: re.Match[str], line_no: int) -> None:
        self.m = m
        self.log_line = line_no
        self.file: re.Match[str] | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if self.file is None and line.startswith("file: "):
            self.file = _VITE_FILE.match(line.strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        message = self.m.group(0).strip()
        file, line, column = self.m.group("importer"), None, None
        if self.file and self.file.group("line"):
            file = self.file.group("file")
            line = int(self.file.group("line"))
            column = int(self.file.group("column")) + 1
        yield Hit(
            signal=message,
            message=message,
            file=file,
            line=line,
            column=column,
            log_line=self.log_line,
            hint=module_hint(self.m.group("module")),
        )


@rule(
    id="vite.watch_build",
    category=FailureType.COMPILE,
    tool="vite",
    pattern=r'^Could not resolve "(?P<module>[^"]+)" from "(?P<importer>[^"]+)"\s*$',
    triggers=('Could not resolve "',),
    url="https://vite.dev/config/build-options#build-watch",
)
def vite_watch_build(m: re.Match[str], ctx: LineContext) -> Block:
    """An unresolved import in `vite build --watch` (Rollup's watcher).

    What it detects: in watch mode vite prints Rollup's error without the
    `error during build:` header a one-off `vite build` gives (vite.build):
    `Could not resolve "./cart" from "src/index.js"` alone on its line, then
    `file: /abs/src/index.js`.  The record is at the importing file as the
    message names it (relative to the project, where the absolute `file:`
    path may be another machine's); a `file:` line with a position gives the
    line and column.  Under `error during build:` the same line belongs to
    vite.build's report and is not read twice.

    Example output (`vite build --watch`, vite 7.3.8):
        build started...
        ✓ 1 modules transformed.
        Could not resolve "./cart" from "src/index.js"
        file: /work/app/src/index.js

    Recipe: compile. `module` (and `package`) in the hint, as vite.build.

    References: https://vite.dev/config/build-options#build-watch
    """
    return _ViteWatchBlock(m, ctx.line_no)


_ROLLDOWN_HEAD_PATTERN = r"^Build failed with \d+ errors?:\s*$"
_ROLLDOWN_HEAD = lazy_compile(_ROLLDOWN_HEAD_PATTERN)
_ROLLDOWN_ERROR = lazy_compile(r"^\[(?P<code>[A-Z][A-Z0-9_]*)\] (?P<message>.+?)\s*$")
_ROLLDOWN_FRAME = lazy_compile(r"^\s*╭─\[ (?P<file>.+?):(?P<line>\d+):(?P<column>\d+) \]\s*$")
_ROLLDOWN_FRAME_LINE = lazy_compile(r"^\s*(?:\d+\s*)?[│─╰╭╯┬·]")


class _RolldownBlock:
    """Rolldown's errors under `Build failed with N errors:`: each a `[CODE]
    message` line and a code frame; vite's own stack after them is consumed."""

    max_lines = 400

    def __init__(self) -> None:
        self.errors: list[dict[str, Any]] = []
        self.in_stack = False

    def feed(self, line: str, line_no: int) -> bool:
        s = line.rstrip()
        if ("at " in line and V8_FRAME.match(line)) or (
            self.in_stack and (s.startswith("  ") or s == "}")
        ):
            self.in_stack = True
            return True
        if self.in_stack:
            return False
        err = _ROLLDOWN_ERROR.match(s)
        if err:
            self.errors.append({"m": err, "log_line": line_no, "at": None})
            return True
        frame = _ROLLDOWN_FRAME.match(s)
        if frame and self.errors and self.errors[-1]["at"] is None:
            self.errors[-1]["at"] = frame
            return True
        return not s or bool(self.errors and _ROLLDOWN_FRAME_LINE.match(s))

    def finish(self) -> Iterable[Hit]:
        for e in self.errors:
            m, at = e["m"], e["at"]
            message = m.group("message")
            mod = QUOTED_MODULE.search(message)
            yield Hit(
                signal=f"[{m.group('code')}] {message}",
                message=message,
                file=at.group("file") if at else None,
                line=int(at.group("line")) if at else None,
                column=int(at.group("column")) if at else None,
                code=m.group("code"),
                log_line=e["log_line"],
                hint=module_hint(mod.group("module")) if mod else {},
            )


@rule(
    id="vite.rolldown",
    category=FailureType.COMPILE,
    tool="vite",
    pattern=_ROLLDOWN_HEAD_PATTERN,
    triggers=("Build failed with ",),
    url="https://vite.dev/guide/rolldown",
)
def vite_rolldown(m: re.Match[str], ctx: LineContext) -> Block:
    """vite 8 build failures: Rolldown's `Build failed with N errors:` report.

    What it detects: vite 8 bundles with Rolldown, whose report replaces
    Rollup's: `Build failed with 2 errors:`, then per error a `[CODE]
    message` line (`[UNRESOLVED_IMPORT] Could not resolve './cart' in
    src/index.js`, `[PARSE_ERROR] ...`) and a code frame headed `╭─[
    src/index.js:1:23 ]` (1-based line and column).  One record per error;
    vite's stack after the report (frames inside node_modules) is consumed.
    `vite build` prints it under `error during build:` (which vite.build
    leaves to this rule), `vite build --watch` without it.

    Example output (`vite build`, vite 8.4.0):
        error during build:
        Build failed with 1 error:

        [UNRESOLVED_IMPORT] Could not resolve './cart' in src/index.js
           ╭─[ src/index.js:1:23 ]
           │
         1 │ import { total } from './cart';

    Recipe: compile. An unresolved import puts `module` (and `package`) in
    the hint; the code is Rolldown's (`UNRESOLVED_IMPORT`).

    References: https://vite.dev/guide/rolldown
    """
    return _RolldownBlock()
