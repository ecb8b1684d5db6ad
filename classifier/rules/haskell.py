"""Haskell: GHC errors (alone, under cabal, or stack's `pkg> ` prefix),
hspec failures, HLint hints and cabal's closing summaries."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from . import haskell_run  # noqa: F401  (registers its rules)
from .base import FALLBACK, Block, Hit, LineContext
from .registry import rule

ECOSYSTEM = "Haskell"

_STACK_PREFIX = lazy_compile(r"^[\w.-]+> ")
_QUOTED = r"[‘'`](?P<{}>[^’']+)[’']"
_NOT_IN_SCOPE = lazy_compile(
    r"(?:Variable|Data constructor|Type constructor or class) not in scope: (?P<name>[^\s:]+)"
)
_SUGGESTION = lazy_compile(
    r"Perhaps (?:you meant|use) (?:one of these:\s*)?(?:variable |data constructor )?"
    + _QUOTED.format("suggestion")
)
_NO_MODULE = lazy_compile(r"Could not (?:find|load) module " + _QUOTED.format("module"))
_EXPECTED_ACTUAL = lazy_compile(
    r"Expected: (?P<expected>.+?)\s+Actual: (?P<actual>.+?)(?=\s+•|\s+In |$)"
)
_MATCH = lazy_compile(
    r"Couldn't match expected type "
    + _QUOTED.format("expected")
    + r" with actual type "
    + _QUOTED.format("actual")
)


def ghc_hint(text: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    if m := _NOT_IN_SCOPE.search(text):
        hint["name"] = m.group("name")
    if m := _SUGGESTION.search(text):
        hint["suggestion"] = m.group("suggestion")
    if m := _NO_MODULE.search(text):
        hint["module"] = m.group("module")
    if m := _EXPECTED_ACTUAL.search(text) or _MATCH.search(text):
        hint["expected"], hint["actual"] = m.group("expected"), m.group("actual")
    return hint


_GHC = lazy_compile(
    r"^(?:[\w.-]+> )?(?P<file>[^\s:][^:]*?\.(?:hs|lhs|hsc|hs-boot)):(?:(?P<line>\d+):(?P<column>\d+)(?:-\d+)?|\((?P<line2>\d+),(?P<column2>\d+)\)-\(\d+,\d+\)): (?P<sev>error|warning):(?: \[(?P<code>[^\]]+)\])?\s*(?P<message>.*)$"
)


class _GhcError:
    """`src/Shop.hs:21:27: error:`, the indented message (bullets) and the
    `   |` source excerpt."""

    max_lines = 80

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.file = m.group("file")
        self.line = int(m.group("line") or m.group("line2"))
        self.column = int(m.group("column") or m.group("column2"))
        self.code = m.group("code")
        self.warning = m.group("sev") == "warning"
        self.stack = bool(_STACK_PREFIX.match(ctx.line))
        first = m.group("message").strip()
        self.lines: list[str] = [first] if first else []

    def feed(self, line: str, line_no: int) -> bool:
        if self.stack:
            if not _STACK_PREFIX.match(line):
                return False
            line = _STACK_PREFIX.sub("", line, count=1)
        if re.match(r"^\s*(?:\d+\s*)?\|", line):
            return True  # the excerpt
        if line.startswith((" ", "\t")) and line.strip():
            self.lines.append(line.strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        text = " ".join(self.lines)
        bullets = [b.strip() for b in text.split("•") if b.strip()]
        message = bullets[0] if bullets else (text or "error")
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                column=self.column,
                code=self.code,
                log_line=self.log_line,
                hint=ghc_hint(text),
                warning=self.warning,
            )
        ]


@rule(
    id="haskell.ghc",
    category=FailureType.COMPILE,
    tool="ghc",
    pattern=_GHC.pattern,
    triggers=(": error:", ": warning:"),
    url="https://downloads.haskell.org/ghc/latest/docs/users_guide/using.html",
)
def haskell_ghc(m: re.Match[str], ctx: LineContext) -> Block:
    """A GHC compile error (ghc, cabal build, stack build).

    What it detects: `src/Shop.hs:21:27: error:` (GHC 9.6+ adds the code,
    `error: [GHC-88464]`; `-Werror` gives `error: [-Wunused-imports,
    -Werror=unused-imports]`; a span may be `(21,5)-(23,10)`), then the
    indented message, whose first `•` bullet is the record's message, and
    the `   |` source excerpt.  Under stack every line carries the package
    prefix (`shop> `).  hint["name"] (`Variable not in scope: cent`),
    hint["suggestion"] (`Perhaps you meant ‘cents’`), hint["module"]
    (`Could not find module ‘Data.Maybee’`), hint["expected"] /
    hint["actual"] of a type mismatch.  `warning: [-Wunused-imports]`
    diagnostics are warning hits (failures with -Werror, docs/warnings.md).

    Example output (`ghc -isrc -no-link src/Shop.hs`, GHC 9.0.2):
        src/Shop.hs:21:27: error:
            • Variable not in scope: cent :: Price -> Int
            • Perhaps you meant ‘cents’ (line 11)
           |
        21 | total items = Price (sum [cent (itemPrice i) * quantity i | i <- items]) "EUR"
           |                           ^^^^

    Recipe: compile. GHC's own suggestion (`cents`) can be applied; the rest
    is escalated with the location.

    References: https://downloads.haskell.org/ghc/latest/docs/users_guide/using.html,
    https://errors.haskell.org/
    """
    return _GhcError(m, ctx)


# -- hspec -----------------------------------------------------------------------
class _HlintHint:
    """`src/Shop.hs:27:1-46: Warning: Eta reduce` and its Found / Perhaps /
    Note paragraphs."""

    max_lines = 60

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.m = m
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.part = ""
        self.found: list[str] = []
        self.perhaps: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return False
        if line.rstrip() in ("Found:", "Perhaps:") or line.startswith("Note:"):
            self.part = line.rstrip()
            return True
        if line.startswith("  ") and self.part in ("Found:", "Perhaps:"):
            (self.found if self.part == "Found:" else self.perhaps).append(line.strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        m = self.m
        hint: dict[str, Any] = {"severity": m.group("sev").lower()}
        if self.perhaps:
            hint["suggestion"] = "\n".join(self.perhaps)
        return [
            Hit(
                signal=self.signal,
                message=f"{m.group('sev')}: {m.group('message').strip()}",
                file=m.group("file"),
                line=int(m.group("line") or m.group("line2")),
                column=int(m.group("column") or m.group("column2")),
                code=m.group("message").strip(),
                log_line=self.log_line,
                hint=hint,
            )
        ]


@rule(
    id="haskell.hlint",
    category=FailureType.COMPILE,
    tool="hlint",
    pattern=r"^(?P<file>[^\s:][^:]*?\.l?hs):(?:(?P<line>\d+):(?P<column>\d+)(?:-\d+)?|\((?P<line2>\d+),(?P<column2>\d+)\)-\(\d+,\d+\)): (?P<sev>Warning|Suggestion|Error): (?P<message>.+)$",
    triggers=(": Warning: ", ": Suggestion: ", ": Error: "),
    url="https://github.com/ndmitchell/hlint#readme",
)
def haskell_hlint(m: re.Match[str], ctx: LineContext) -> Block:
    """An HLint hint.

    What it detects: `src/Shop.hs:27:1-46: Warning: Eta reduce` (and
    `Suggestion:`, `Error:`; a multi-line span `(27,1)-(29,5)`) with its
    `Found:` / `Perhaps:` paragraphs; the replacement is
    hint["suggestion"], the hint's name the code.  HLint exits non-zero
    when it reports any hint, so each is a record; `No hints` gives
    nothing.

    Example output (`hlint src`, HLint 3.3.6):
        src/Shop.hs:30:20-36: Suggestion: Use null
        Found:
          length items == 0
        Perhaps:
          null items

    Recipe: compile: the `Perhaps:` replacement (`hlint --refactor`)
    fixes it; escalated otherwise.

    References: https://github.com/ndmitchell/hlint#readme
    """
    return _HlintHint(m, ctx)


# -- cabal's summaries -------------------------------------------------------------
@rule(
    id="haskell.cabal_failed",
    category=FailureType.COMPILE,
    tool="cabal",
    pattern=r"^cabal: (?P<what>Failed to build|Tests failed for|Failed to build documentation for) (?P<target>\S+)",
    triggers=("cabal: Failed to build", "cabal: Tests failed for"),
    url="https://cabal.readthedocs.io/en/stable/cabal-commands.html",
)
def haskell_cabal_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """cabal's closing line for a failed build or test suite.

    What it detects: `cabal: Failed to build shop-0.1.0.0 (which is
    required by test:spec ...)` and `cabal: Tests failed for test:spec from
    shop-0.1.0.0.`  They repeat the GHC errors or test failures above: a
    fallback (Hit.key FALLBACK, confidence 0.5), dropped when those were
    read, the record when it is all there is.  `Tests failed` is test, the
    rest compile; hint["target"].

    Example output (`cabal test`, cabal-install 3.4.1.0):
        Test suite spec: FAIL
        0 of 1 test suites (0 of 1 test cases) passed.
        cabal: Tests failed for test:spec from shop-0.1.0.0.

    Recipe: compile or test: re-run to get the details.

    References: https://cabal.readthedocs.io/en/stable/cabal-commands.html
    """
    target = m.group("target").rstrip(".")
    test = m.group("what") == "Tests failed for"
    return Hit(
        signal=ctx.line.strip(),
        message=f"{m.group('what')} {target}",
        category=FailureType.TEST if test else FailureType.COMPILE,
        confidence=0.5,
        hint={"target": target},
        key=(FALLBACK, "cabal", m.group("what"), target),
    )


# `  error, called at src/Cart.hs:5:14 in main:Cart`
