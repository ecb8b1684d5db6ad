"""TypeScript compiler (tsc) diagnostics, in both of its output styles."""

from __future__ import annotations

import re
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext, hit_from_match
from .registry import rule

_DOCS = "https://www.typescriptlang.org/docs/handbook/compiler-options.html"
_NAME = lazy_compile(r"Cannot find name '(?P<name>[^']+)'")
_DID_YOU_MEAN = lazy_compile(r"Did you mean (?:the instance member )?'(?P<suggestion>[^']+)'\?")
_MODULE = lazy_compile(r"Cannot find module '(?P<module>[^']+)'")


def _hint(message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    # (each pattern is tried only on messages holding its literal start)
    for pattern, start in (
        (_NAME, "Cannot find name '"),
        (_DID_YOU_MEAN, "Did you mean "),
        (_MODULE, "Cannot find module '"),
    ):
        m = pattern.search(message) if start in message else None
        if m:
            hint.update(m.groupdict())
    mean = _DID_YOU_MEAN.search(message) if "Did you mean " in message else None
    if mean:  # tsc's own suggestion, verbatim, for a person to read
        hint["advice"] = [mean.group(0)]
    return hint


def _tsc_hit(m: re.Match[str], ctx: LineContext) -> Hit:
    message = m.group("message").strip()
    # The seed's signal: "error TS2304: Cannot find name 'UserProfile'".
    signal = f"error {m.group('code')}: {message.rstrip('.')}"
    return hit_from_match(m, ctx, signal=signal, hint=_hint(message))


@rule(
    id="tsc.plain",
    category=FailureType.COMPILE,
    tool="tsc",
    pattern=r"^(?P<file>[^\s(][^(]*?)\((?P<line>\d+),(?P<column>\d+)\): error (?P<code>TS\d+): (?P<message>.+)$",
    triggers=("): error TS",),
    url=_DOCS,
)
def tsc_plain(m: re.Match[str], ctx: LineContext) -> Hit:
    """tsc diagnostics in the plain style (no `--pretty`, or output piped).

    What it detects: `file(line,col): error TSnnnn: message`, one line per
    error, as tsc prints when its output is not a terminal.

    Example output (`npx tsc -p .`, typescript 5.9.3):
        src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'UserProfile'.

    Recipe: compile. The missing name, the suggested name ("Did you mean")
    or the missing module go into the hint for the compile recipe.

    References: https://www.typescriptlang.org/docs/handbook/compiler-options.html
    """
    return _tsc_hit(m, ctx)


@rule(
    id="tsc.pretty",
    category=FailureType.COMPILE,
    tool="tsc",
    pattern=r"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?P<column>\d+) - error (?P<code>TS\d+): (?P<message>.+)$",
    triggers=(" - error TS",),
    url=_DOCS,
)
def tsc_pretty(m: re.Match[str], ctx: LineContext) -> Hit:
    """tsc diagnostics in the pretty style (`--pretty`, or a terminal).

    What it detects: `file:line:col - error TSnnnn: message` (colour codes
    removed), followed by a code excerpt; the closing "Found N errors in ..."
    summary is not a second failure and is not matched.

    Example output (`npx tsc -p . --pretty`, typescript 5.9.3):
        src/auth/middleware.ts:42:15 - error TS2304: Cannot find name 'UserProfile'.

    Recipe: compile, as for tsc.plain.

    References: https://www.typescriptlang.org/docs/handbook/compiler-options.html
    """
    return _tsc_hit(m, ctx)


_CONFIG_FILE = lazy_compile(r"config file '(?P<file>[^']+)'")
_QUOTED_PATH = lazy_compile(r"(?:path does not exist: |File |file )'(?P<path>[^']+)'")


@rule(
    id="tsc.global",
    category=FailureType.COMPILE,
    tool="tsc",
    pattern=r"^error (?P<code>TS\d+): (?P<message>.+)$",
    triggers=("error TS",),
    url="https://www.typescriptlang.org/docs/handbook/tsconfig-json.html",
)
def tsc_global(m: re.Match[str], ctx: LineContext) -> Hit:
    """tsc errors that name no source position (project and config errors).

    What it detects: `error TSnnnn: message` at the start of a line, as tsc
    prints for errors about the project rather than a line of code:
    TS18003 (no inputs matched the tsconfig `include`), TS5058 (the path
    given to `-p` does not exist), TS6053 (a root file is missing), TS5083
    (an `extends` target cannot be read). In the pretty style the line is
    the same once colour codes are removed. When the message names the
    tsconfig file (TS18003), that file becomes the source file; a path that
    does not exist goes into the hint as `path`, never into source_file.

    Example output (`tsc -p .` with `"include": ["src"]` and no src/,
    typescript 5.9.3):
        error TS18003: No inputs were found in config file '/work/app/tsconfig.json'. Specified 'include' paths were '["src"]' and 'exclude' paths were '[]'.

    Recipe: compile. The recipe cannot invent source files; it shows the
    config file (source_file) and the path that was not found (hint `path`).

    References: https://www.typescriptlang.org/docs/handbook/tsconfig-json.html
    """
    message = m.group("message").strip()
    hint = _hint(message)
    file: str | None = None
    cfg = _CONFIG_FILE.search(message)
    if cfg:
        file = cfg.group("file")
    else:
        missing = _QUOTED_PATH.search(message)
        if missing:
            hint["path"] = missing.group("path")
    return hit_from_match(
        m, ctx, file=file, signal=f"error {m.group('code')}: {message}", hint=hint
    )
