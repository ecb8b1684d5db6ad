"""One failing JavaScript test as a Hit (shared by the jest, vitest, mocha
and node:test readers): located at the test file's frame, or at the frame
that threw when the error names a cause (js_causes.py), with the hint a
re-run and a box need (runner, test_id, test_path, test_title, test_file,
test_line, why, expected/actual)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LazyPattern, LineContext
from .js_causes import code_lines, error_type, js_cause
from .js_frames import Frame, module_hint, project_frame, related, same_file

_COMPILE_SIGNS = lazy_compile(
    r"Cannot find (?:module|package)|SyntaxError|error TS\d+|Jest encountered an unexpected token"
    r"|Failed to (?:load|resolve) (?:url|import)|Transform failed"
)
_MISSING_MODULE = lazy_compile(r"Cannot find (?:module|package) ['\"](?P<module>[^'\"]+)['\"]")
MAX_TEXTS = 60  # lines kept of one error besides its message (what a cause is read from)


def test_hit(
    *,
    runner: str,
    names: Sequence[str],
    test_file: str | None,
    message: str,
    frames: Sequence[Frame],
    ctx: LineContext,
    log_line: int,
    values: dict[str, str],
    signal: str,
    diff: dict[str, str] | None = None,
    suite_failure: bool = False,
    texts: Sequence[str] = (),
    title: str | None = None,
) -> Hit:
    """One failing test (or suite) as a Hit, located at the test file's
    frame when there is one, else at the innermost frame in the project;
    at the frame that threw when the error names a cause (js_causes.py),
    whose category the record then has."""
    own = next((f for f in frames if test_file and same_file(f.file, test_file)), None)
    chosen = own if own is not None else project_frame(frames, ctx)
    hint: dict[str, Any] = {"runner": runner}
    if names:
        hint["test_id"] = " ".join(names)
        hint["test_path"] = list(names)
    if title is not None:
        hint["test_title"] = title
    if test_file:
        hint["test_file"] = ctx.resolve(test_file)
        if own is not None:
            hint["test_line"] = own.line
    if message.strip():
        hint["why"] = _why(message.strip(), texts)[:500]
    # What the runner printed as expected/received first, else the chai-style
    # message ("expected 11 to be 10"), else the lines of the printed diff.
    hint.update(values or chai_values(message) or diff or {})
    category = None
    if suite_failure and _COMPILE_SIGNS.search(message):
        category = FailureType.COMPILE
        missing = _MISSING_MODULE.search(message)
        if missing:
            hint.update(module_hint(missing.group("module")))
    code = None
    if category is FailureType.COMPILE and (frame := _framed_source(texts)) is not None:
        chosen = frame  # vite's "Transform failed": the broken file's code frame, not the suite
    if not (suite_failure and category is not None):
        cause = js_cause(message, texts, code_lines(texts))
        if cause is not None:
            category = cause.category
            code = error_type(message.strip().strip("[]"))[0]
            hint.update(cause.hint)
            if cause.at_throw:
                chosen = project_frame(frames, ctx) or chosen
    file = chosen.file if chosen else test_file
    key_file = (test_file or file or "").replace("\\", "/").rsplit("/", 1)[-1]
    return Hit(
        signal=signal.strip(),
        message=message.strip() or signal.strip(),
        file=file,
        line=chosen.line if chosen else None,
        column=chosen.column if chosen else None,
        log_line=log_line,
        hint=hint,
        related=related(frames, chosen),
        category=category,
        code=code,
        key=(runner, key_file, tuple(names), message.strip()[:200] if not names else ""),
    )


# The code frame a transform error draws (oxc through vite/vitest 4):
# `╭─[ src/defu.ts:3:36 ]`; older miette/oxc print `,-[src/defu.ts:3:36]`.
_CODE_FRAME = lazy_compile(
    r"^\s*(?:╭─|,-)\[\s*(?P<file>[^\[\]\s:][^\[\]:]*?):(?P<line>\d+):(?P<column>\d+)\s*\]\s*$"
)


def _framed_source(texts: Sequence[str]) -> Frame | None:
    for text in texts:
        if "─[" in text or ",-[" in text:
            m = _CODE_FRAME.match(text)
            if m:
                return Frame("", m.group("file"), int(m.group("line")), int(m.group("column")))
    return None


def _why(message: str, texts: Sequence[str]) -> str:
    """The error's line, with the line under it when the message only
    introduces it (node:assert: "Expected values to be strictly equal:"
    then "11 !== 10")."""
    if not message.endswith(":"):
        return message
    below = next((t.strip() for t in texts if t.strip()), "")
    if below and not below.startswith(("+", "-", "at ")) and len(below) <= 200:
        return f"{message} {below}"
    return message


# chai / vitest: "expected 11 to be 10", "expected [ 1, 2, 3 ] to include 4"
_CHAI = lazy_compile(
    r"^(?:AssertionError(?: \[\w+\])?: )?expected (?P<actual>.+?) to (?:not )?(?:be|equal|deeply equal|"
    r"strictly equal|include|contain|have length|have property|match|be above|be below)"
    r" (?P<expected>.+?)(?: // .*)?$"
)


def chai_values(message: str) -> dict[str, str]:
    m = _CHAI.match(message.strip())
    return {"expected": m.group("expected"), "actual": m.group("actual")} if m else {}


_VALUE = LazyPattern(r"^\s*(Expected|Received)(?: [\w ]+?)?: (?P<v>.+)$")


def value_lines(values: dict[str, str], line: str) -> None:
    m = _VALUE.match(line) if "Expected" in line or "Received" in line else None
    if m:
        key = "expected" if m.group(1) == "Expected" else "actual"
        values.setdefault(key, m.group("v").strip())


def suite_path(before: Sequence[str], indent: int, suite: re.Pattern[str], mark: str) -> list[str]:
    """The names of the suites a test printed at `indent` is nested in:
    the nearest less-indented `suite` lines above it (groups `indent` and
    `name`; every one holds `mark`, so the others are passed over without
    the regex), outermost first; node:test prints them as `▶ name` (spec)
    and `# Subtest: name` (TAP)."""
    path: list[str] = []
    for prev in reversed(before):
        s = suite.match(prev) if mark in prev else None
        if s and len(s.group("indent")) < indent:
            path.insert(0, s.group("name"))
            indent = len(s.group("indent"))
            if indent == 0:
                break
    return path
