"""JavaScript rules for bundlers: esbuild and webpack (vite is vite.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..js_frames import module_hint
from ..registry import rule

# -- esbuild ------------------------------------------------------------------------

_ESBUILD_LOC = lazy_compile(r"^ {4}(?P<file>\S.*?):(?P<line>\d+):(?P<column>\d+):\s*$")
QUOTED_MODULE = lazy_compile(r"""(?:resolve|import|module|package) ["'](?P<module>[^"']+)["']""")
PLUGIN_TAG = lazy_compile(r"^\[(?:plugin )?(?P<plugin>[^\]]+)\]:? ")


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
        tag = PLUGIN_TAG.match(message)
        if tag:
            hint["plugin"] = tag.group("plugin")
            message = message[tag.end() :]
        mod = QUOTED_MODULE.search(message)
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


# -- webpack -----------------------------------------------------------------------------

_CANT_RESOLVE = lazy_compile(r"Can't resolve '(?P<module>[^']+)'")
_PARSE_POS = lazy_compile(r"\((?P<line>\d+):(?P<column>\d+)\)\s*$")


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
