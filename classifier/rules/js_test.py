"""JavaScript test runners: jest, vitest, mocha and the Node.js test runner.

Every failing test is one record whose hint carries what the test recipe
needs to re-run that test alone: `test_id` (the full name, suite names and
test name joined by spaces, the form `jest -t`, `vitest -t` and
`mocha --grep` match), `test_path` (the names one by one), `test_file`,
`runner`, and `expected` / `actual` when the runner printed them.
Summaries ("Tests: 4 failed", "3 failing", "✖ failing tests:") are never
records of their own; a failure printed twice is one record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .javascript import (
    DiffValues,
    Frame,
    module_hint,
    parse_frame,
    project_frame,
    related,
    same_file,
)
from .js_causes import code_lines, js_cause
from .registry import rule

_COMPILE_SIGNS = re.compile(
    r"Cannot find (?:module|package)|SyntaxError|error TS\d+|Jest encountered an unexpected token"
    r"|Failed to (?:load|resolve) (?:url|import)|Transform failed"
)
_MISSING_MODULE = re.compile(r"Cannot find (?:module|package) ['\"](?P<module>[^'\"]+)['\"]")
_MAX_TEXTS = 60  # lines kept of one error besides its message (what a cause is read from)


def _test_hit(
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
        hint["why"] = message.strip()[:500]
    # What the runner printed as expected/received first, else the chai-style
    # message ("expected 11 to be 10"), else the lines of the printed diff.
    hint.update(values or _chai_values(message) or diff or {})
    category = None
    if suite_failure and _COMPILE_SIGNS.search(message):
        category = FailureType.COMPILE
        missing = _MISSING_MODULE.search(message)
        if missing:
            hint.update(module_hint(missing.group("module")))
    else:
        cause = js_cause(message, texts, code_lines(texts))
        if cause is not None:
            category = cause.category
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
        key=(runner, key_file, tuple(names), message.strip()[:200] if not names else ""),
    )


# chai / vitest: "expected 11 to be 10", "expected [ 1, 2, 3 ] to include 4"
_CHAI = re.compile(
    r"^(?:AssertionError(?: \[\w+\])?: )?expected (?P<actual>.+?) to (?:not )?(?:be|equal|deeply equal|"
    r"strictly equal|include|contain|have length|have property|match|be above|be below)"
    r" (?P<expected>.+?)(?: // .*)?$"
)


def _chai_values(message: str) -> dict[str, str]:
    m = _CHAI.match(message.strip())
    return {"expected": m.group("expected"), "actual": m.group("actual")} if m else {}


def _value_lines(values: dict[str, str], line: str) -> None:
    m = re.match(r"^\s*(Expected|Received)(?: [\w ]+?)?: (?P<v>.+)$", line)
    if m:
        key = "expected" if m.group(1) == "Expected" else "actual"
        values.setdefault(key, m.group("v").strip())


# -- jest ---------------------------------------------------------------------------------

_JEST_FILE = re.compile(r"^\s*(?P<status>FAIL|PASS)\s+(?P<file>[^\s>]+?)(?:\s+\([\d.]+ m?s\))?\s*$")
_JEST_BULLET = re.compile(r"^  ● (?P<title>.+?)\s*$")
_JEST_TOP = re.compile(
    r"^(?:Summary of all failing tests|Test Suites:|Tests:|Snapshots:|Time:|Ran all test suites"
    r"|Determining test suites)"
)


class _JestFailure:
    def __init__(self, title: str, log_line: int) -> None:
        self.names = [] if title == "Test suite failed to run" else title.split(" › ")
        self.suite = title == "Test suite failed to run"
        self.signal = f"● {title}"
        self.log_line = log_line
        self.message = ""
        self.frames: list[Frame] = []
        self.values: dict[str, str] = {}
        self.diff = DiffValues()
        self.parse_error: re.Match[str] | None = None
        self.texts: list[str] = []
        self.title = title


# Babel's parse error inside "Test suite failed to run":
# "SyntaxError: /dir/test/a.test.js: Unexpected token (2:19)" (0-based column)
_BABEL_SYNTAX = re.compile(
    r"^\s*(?P<message>SyntaxError: (?P<file>\S+?): .+?) \((?P<line>\d+):(?P<column>\d+)\)\s*$"
)


class _JestBlock:
    max_lines = 1_000_000

    def __init__(self, test_file: str, ctx: LineContext) -> None:
        self.test_file: str | None = test_file
        self.ctx = ctx
        self.current: _JestFailure | None = None
        self.hits: list[Hit] = []

    def _close(self) -> None:
        f = self.current
        self.current = None
        if f is None:
            return
        if f.parse_error is not None:
            pe = f.parse_error
            f.message = pe.group("message")
            where = Frame("", pe.group("file"), int(pe.group("line")), int(pe.group("column")) + 1)
            f.frames.insert(0, where)
        self.hits.append(
            _test_hit(
                runner="jest",
                names=f.names,
                test_file=self.test_file,
                message=f.message,
                frames=f.frames,
                ctx=self.ctx,
                log_line=f.log_line,
                values=f.values,
                diff=f.diff.values(),
                signal=f.signal if not f.message else f"{f.signal}: {f.message}",
                suite_failure=f.suite,
                texts=f.texts,
                title=None if f.suite else f.title,
            )
        )

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return True
        bullet = _JEST_BULLET.match(line)
        if bullet:
            self._close()
            if bullet.group("title").strip() != "Console":
                self.current = _JestFailure(bullet.group("title"), line_no)
            return True
        fm = _JEST_FILE.match(line)
        if fm and not line.startswith("    "):
            self._close()
            self.test_file = fm.group("file")
            return True
        if not line.startswith(" "):
            if _JEST_TOP.match(line):
                self._close()
                return True
            return False
        f = self.current
        if f is None:
            return True  # a passing test's line, a console.log block
        frame = parse_frame(line)
        if frame is not None:
            f.frames.append(frame)
            return True
        s = line.strip()
        if not f.message and not f.frames:
            f.message = s
        elif len(f.texts) < _MAX_TEXTS:
            f.texts.append(line)
        if f.suite and f.parse_error is None:
            f.parse_error = _BABEL_SYNTAX.match(line)
        _value_lines(f.values, line)
        f.diff.feed(line)
        return True

    def finish(self) -> Iterable[Hit]:
        self._close()
        return self.hits


@rule(
    id="jest.failure",
    category=FailureType.TEST,
    tool="jest",
    pattern=r"^\s*FAIL\s+(?P<file>[^\s>]+?)(?:\s+\([\d.]+ m?s\))?\s*$",
    triggers=("FAIL",),
    url="https://jestjs.io/docs/cli",
)
def jest_failure(m: re.Match[str], ctx: LineContext) -> Block:
    """jest failing tests: `FAIL file` and its `● Suite › test` blocks.

    What it detects: each `● Suite › test` block under a `FAIL path` line:
    the assertion message, `Expected:` / `Received:` (or the `- Expected` /
    `+ Received` diff), and the stack frames `at ... (file:line:col)`. The
    record sits at the frame in the test file (the failing assertion), else
    at the innermost frame inside the project. `● Test suite failed to run`
    is a compile failure when it is a missing module or a syntax error, a
    test failure otherwise. The closing "Tests: N failed" summary is not a
    record; a test repeated under "Summary of all failing tests" is the same
    record.

    Example output (`jest`, jest 30.5.2):
        FAIL test/math.test.js
          ● math › adds big numbers

            expect(received).toBe(expected) // Object.is equality

            Expected: 10
            Received: 11
              at Object.toBe (test/math.test.js:9:23)

    Recipe: test: re-run that one test (`jest <test_file> -t <test_id>`)
    to tell flaky from real; a real assertion failure is escalated with
    expected vs actual.

    References: https://jestjs.io/docs/cli
    """
    return _JestBlock(m.group("file"), ctx)


@rule(
    id="jest.no_tests",
    category=FailureType.TEST,
    tool="jest",
    pattern=r"^No tests found, exiting with code 1",
    triggers=("No tests found, exiting with code",),
    url="https://jestjs.io/docs/cli#--passwithnotests",
)
def jest_no_tests(m: re.Match[str], ctx: LineContext) -> Hit:
    """jest ran no test although tests were expected.

    What it detects: `No tests found, exiting with code 1`, which jest
    prints when no test file matched (a wrong path or pattern, a
    `testMatch` that finds nothing) and `--passWithNoTests` was not given.

    Example output (`jest test/checkout`, jest 30.5.2):
        No tests found, exiting with code 1
        Run with `--passWithNoTests` to exit with code 0

    Recipe: test: nothing to re-run; escalated with the pattern that
    matched nothing.

    References: https://jestjs.io/docs/cli#--passwithnotests
    """
    return Hit(
        signal=ctx.line.strip(), message=ctx.line.strip(), hint={"runner": "jest", "no_tests": True}
    )


# -- vitest -------------------------------------------------------------------------------

_VITEST_FAIL = r"^\s*FAIL\s+(?P<file>\S+?)(?: > (?P<names>.+?)| \[ (?P<suite>\S+) \])\s*$"
_VITEST_LOC = re.compile(
    r"^\s*❯ (?:(?P<func>\S+) )?(?P<file>\S+?):(?P<line>\d+):(?P<column>\d+)\s*$"
)
_VITEST_SEPARATOR = re.compile(r"^⎯{3,}")


def _vitest_frame(line: str) -> Frame | None:
    """A vitest `❯ [func] file:line:col` location line as a frame."""
    loc = _VITEST_LOC.match(line)
    if loc is None:
        return None
    return Frame(
        loc.group("func") or "", loc.group("file"), int(loc.group("line")), int(loc.group("column"))
    )


class _VitestBlock:
    max_lines = 2000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.test_file = m.group("file")
        names = m.group("names")
        self.names = names.split(" > ") if names else []
        self.suite = names is None
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.message = ""
        self.frames: list[Frame] = []
        self.values: dict[str, str] = {}
        self.diff = DiffValues()
        self.done = False
        self.texts: list[str] = []
        self.title = names

    def feed(self, line: str, line_no: int) -> bool:
        s = line.strip()
        if self.done:
            return False
        if _VITEST_SEPARATOR.match(s):
            if "Failed Tests" in s or "Failed Suites" in s or "Unhandled" in s:
                return False
            # the `⎯⎯⎯[1/4]⎯` separator closes this failure; a plain one
            # comes before its "Serialized Error:" (the error's properties)
            self.done = "[" in s
            return True
        if re.match(_VITEST_FAIL, line) or s.startswith(("Test Files ", "Tests ")):
            return False
        if not s:
            return True
        frame = _vitest_frame(line)
        if frame is None:
            frame = parse_frame(line)
        if frame is not None:
            self.frames.append(frame)
            return True
        if not self.message:
            self.message = s
        elif len(self.texts) < _MAX_TEXTS:
            self.texts.append(line)
        _value_lines(self.values, line)
        self.diff.feed(line)
        return True

    def finish(self) -> Iterable[Hit]:
        yield _test_hit(
            runner="vitest",
            names=self.names,
            test_file=self.test_file,
            message=self.message,
            frames=self.frames,
            ctx=self.ctx,
            log_line=self.log_line,
            values=self.values,
            diff=self.diff.values(),
            signal=f"{self.signal}: {self.message}" if self.message else self.signal,
            suite_failure=self.suite,
            texts=self.texts,
            title=self.title,
        )


@rule(
    id="vitest.failure",
    category=FailureType.TEST,
    tool="vitest",
    pattern=_VITEST_FAIL,
    triggers=("FAIL",),
    url="https://vitest.dev/guide/cli",
    priority=1,
)
def vitest_failure(m: re.Match[str], ctx: LineContext) -> Block:
    """vitest failing tests: `FAIL file > suite > test` and `❯ file:line:col`.

    What it detects: each ` FAIL  file > suite > test` heading of vitest's
    "Failed Tests" section, the error under it (`AssertionError: expected
    11 to be 10`), the `- Expected` / `+ Received` diff and the
    `❯ file:line:col` locations, up to the `⎯⎯⎯[1/4]⎯` separator. The
    record sits at the location in the test file, else the innermost one in
    the project. ` FAIL  file [ file ]` (a file that failed to load) is a
    compile failure for a missing module or a syntax error. The `×` lines of
    the run list and the "Tests  4 failed" summary are not records.

    Example output (`vitest run --globals`, vitest 4.1.12):
         FAIL  test/math.test.js > math > adds big numbers
        AssertionError: expected 11 to be 10 // Object.is equality
         ❯ test/math.test.js:9:23

    Recipe: test: re-run that test alone (`vitest run <test_file> -t
    <test_id>`); a real assertion failure is escalated with expected vs
    actual.

    References: https://vitest.dev/guide/cli
    """
    return _VitestBlock(m, ctx)


@rule(
    id="vitest.no_tests",
    category=FailureType.TEST,
    tool="vitest",
    pattern=r"^No test files found, exiting with code 1",
    triggers=("No test files found, exiting with code",),
    url="https://vitest.dev/config/#passwithnotests",
)
def vitest_no_tests(m: re.Match[str], ctx: LineContext) -> Hit:
    """vitest found no test file although tests were expected.

    What it detects: `No test files found, exiting with code 1` (no file
    matched the filter or the `include` globs; `--passWithNoTests` not set).

    Example output (`vitest run checkout`, vitest 4.1.12):
        No test files found, exiting with code 1

    Recipe: test: nothing to re-run; escalated with the filter.

    References: https://vitest.dev/config/#passwithnotests
    """
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip(),
        hint={"runner": "vitest", "no_tests": True},
    )


_VITEST_ORIGIN = re.compile(r'^This error originated in "(?P<file>[^"]+)" test file')
_VITEST_LATEST = re.compile(
    r'^The latest test that might\'ve caused the error is "(?P<name>[^"]+)"'
)


class _VitestUnhandledBlock:
    max_lines = 500

    def __init__(self, kind: str, ctx: LineContext) -> None:
        self.kind = kind
        self.ctx = ctx
        self.log_line = ctx.line_no
        self.message = ""
        self.frames: list[Frame] = []
        self.test_file: str | None = None
        self.latest: str | None = None
        self.done = False

    def feed(self, line: str, line_no: int) -> bool:
        s = line.strip()
        if self.done:
            return False
        if s.startswith("⎯"):
            if s.strip("⎯ "):
                return False  # the next error's own header
            self.done = True
            return True
        if not s:
            return True
        frame = _vitest_frame(line)
        if frame is not None:
            self.frames.append(frame)
            return True
        origin = _VITEST_ORIGIN.match(s)
        if origin:
            self.test_file = origin.group("file")
            return True
        latest = _VITEST_LATEST.match(s)
        if latest:
            self.latest = latest.group("name")
            return True
        if not self.message:
            self.message = s
            self.log_line = line_no
        return True

    def finish(self) -> Iterable[Hit]:
        if not self.message:
            return
        hit = _test_hit(
            runner="vitest",
            names=[],
            test_file=self.test_file,
            message=self.message,
            frames=self.frames,
            ctx=self.ctx,
            log_line=self.log_line,
            values={},
            signal=f"{self.kind}: {self.message}",
        )
        if self.latest:
            hit.hint["latest_test"] = self.latest
        yield hit


@rule(
    id="vitest.unhandled",
    category=FailureType.TEST,
    tool="vitest",
    pattern=r"^⎯+ (?P<kind>Uncaught Exception|Unhandled Rejection|Unhandled Error) ⎯+\s*$",
    triggers=("⎯ Uncaught Exception ⎯", "⎯ Unhandled Rejection ⎯", "⎯ Unhandled Error ⎯"),
    url="https://vitest.dev/config/#dangerouslyignoreunhandlederrors",
)
def vitest_unhandled(m: re.Match[str], ctx: LineContext) -> Block:
    """vitest errors thrown outside any test (the run fails though tests pass).

    What it detects: the `⎯⎯ Uncaught Exception ⎯⎯` / `Unhandled Rejection`
    reports of vitest's "Unhandled Errors" section: the error, its
    `❯ fn file:line:col` locations and the lines naming the test file it
    came from and the latest test that ran. The record sits at the innermost
    location inside the project; `latest_test` in the hint is only vitest's
    guess, so no `test_id` is given.

    Example output (`vitest run --globals`, vitest 4.1.12):
        ⎯⎯⎯⎯⎯ Uncaught Exception ⎯⎯⎯⎯⎯
        TypeError: late failure: socket closed
         ❯ Timeout._onTimeout test/timer.test.js:2:28
        This error originated in "test/timer.test.js" test file.

    Recipe: test: re-run the test file once to tell flaky from real.

    References: https://vitest.dev/config/#dangerouslyignoreunhandlederrors
    """
    return _VitestUnhandledBlock(m.group("kind"), ctx)


# -- mocha --------------------------------------------------------------------------------

_MOCHA_NAMED_FILE = re.compile(r"\((?P<file>[^()\s]+\.[cm]?[jt]sx?)\)\s*$")
_MOCHA_ITEM = re.compile(r"^  (?P<n>\d+)\) (?P<title>.*?)\s*$")


class _MochaFailure:
    def __init__(self, first: str, log_line: int) -> None:
        self.parts: list[str] = []
        self.title_done = False
        self.log_line = log_line
        self.message = ""
        self.frames: list[Frame] = []
        self.diff = DiffValues(minus_is_expected=False)
        self.texts: list[str] = []
        self.add_title(first)

    def add_title(self, text: str) -> None:
        t = text.strip()
        if t.endswith(":"):
            t = t[:-1]
            self.title_done = True
        if t:
            self.parts.append(t)


class _MochaBlock:
    max_lines = 1_000_000

    def __init__(self, count: int, ctx: LineContext) -> None:
        self.count = count
        self.ctx = ctx
        self.current: _MochaFailure | None = None
        self.seen = 0
        self.hits: list[Hit] = []
        self.done = False

    def _close(self) -> None:
        f = self.current
        self.current = None
        if f is None:
            return
        test_frame = next((fr for fr in f.frames if fr.func.endswith("Context.<anonymous>")), None)
        test_file = test_frame.file if test_frame else None
        if test_file is None:
            # a timeout names the file at the end: "Timeout of 2000ms exceeded. ... (/dir/a.test.js)"
            named = _MOCHA_NAMED_FILE.search(f.message)
            test_file = named.group("file") if named else None
        self.hits.append(
            _test_hit(
                runner="mocha",
                names=f.parts,
                test_file=test_file,
                message=f.message,
                frames=f.frames,
                ctx=self.ctx,
                log_line=f.log_line,
                values={},
                diff=f.diff.values(),
                signal=f"{' '.join(f.parts)}: {f.message}" if f.message else " ".join(f.parts),
                texts=f.texts,
            )
        )

    def feed(self, line: str, line_no: int) -> bool:
        if self.done:
            return False
        item = _mocha_item(line, self.seen + 1)
        if item is not None:
            self._close()
            self.seen += 1
            self.current = _MochaFailure(item, line_no)
            return True
        f = self.current
        if f is None:
            return bool(not line.strip() and self.seen == 0)
        if not f.title_done:
            if line.strip():
                f.add_title(line)
            return True
        frame = parse_frame(line)
        if frame is not None:
            f.frames.append(frame)
            return True
        if f.frames and (not line.strip() or not line.startswith(" ")):
            # the stack of this failure ended
            if self.seen >= self.count:
                self._close()
                self.done = True
                return bool(not line.strip())
            return True if not line.strip() else not _looks_foreign(line)
        if line.strip() and not f.message:
            f.message = line.strip()
        elif line.strip() and len(f.texts) < _MAX_TEXTS:
            f.texts.append(line)
        f.diff.feed(line)
        return True

    def finish(self) -> Iterable[Hit]:
        self._close()
        return self.hits


def _mocha_item(line: str, expected_n: int) -> str | None:
    m = _MOCHA_ITEM.match(line)
    if m and int(m.group("n")) == expected_n:
        return m.group("title")
    return None


def _looks_foreign(line: str) -> bool:
    return bool(re.match(r"^(?:npm (?:ERR!|error)|error Command failed|\S+@\S+ \S+$)", line))


@rule(
    id="mocha.failure",
    category=FailureType.TEST,
    tool="mocha",
    pattern=r"^\s+(?P<count>\d+) failing\s*$",
    triggers=(" failing",),
    url="https://mochajs.org/#spec",
)
def mocha_failure(m: re.Match[str], ctx: LineContext) -> Block | None:
    """mocha failures: the numbered blocks after `N failing`.

    What it detects: the spec reporter's `N failing` line and the numbered
    failures under it (`1) suite` / `test:` title lines, the error message,
    mocha's `+ expected - actual` diff and the stack). The test file is the
    file of the `Context.<anonymous>` frame (the test body); the record sits
    there, else at the innermost frame inside the project.

    Example output (`mocha`, mocha 12.0.3):
          3 failing

          1) math
               adds big numbers:

              AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
              at Context.<anonymous> (test/math.test.js:10:12)

    Recipe: test: re-run that test alone (`mocha <test_file> --grep
    <test_id>`); a real assertion failure is escalated with expected vs
    actual (read from the diff).

    References: https://mochajs.org/#spec
    """
    count = int(m.group("count"))
    return _MochaBlock(count, ctx) if count > 0 else None


class _ZeroPassingBlock:
    max_lines = 6

    def __init__(self, ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.other = False

    def feed(self, line: str, line_no: int) -> bool:
        s = line.strip()
        if re.match(r"^\d+ (?:failing|pending)\b", s):
            self.other = True
            return False  # let the failing block start on it
        return not s

    def finish(self) -> Iterable[Hit]:
        if not self.other:
            yield Hit(
                signal=self.signal,
                message="mocha ran no test (0 passing)",
                log_line=self.log_line,
                confidence=0.8,
                hint={"runner": "mocha", "no_tests": True},
            )


@rule(
    id="mocha.no_tests",
    category=FailureType.TEST,
    tool="mocha",
    pattern=r"^(?:\s+0 passing \(\d+m?s\)\s*$|Error: No test files found)",
    triggers=("0 passing (", "Error: No test files found"),
    url="https://mochajs.org/#command-line-usage",
    priority=30,
)
def mocha_no_tests(m: re.Match[str], ctx: LineContext) -> Block | Hit:
    """mocha ran no test although tests were expected.

    What it detects: `0 passing (1ms)` with neither failing nor pending
    tests after it (a `--grep` or spec that matched nothing, a describe with
    no `it`), and `Error: No test files found: "spec"`, mocha's exit for a
    spec glob that matched no file.

    Example output (`mocha --grep checkout`, mocha 12.0.3):
          0 passing (1ms)

    Recipe: test: nothing to re-run; escalated with the filter that
    matched nothing.

    References: https://mochajs.org/#command-line-usage
    """
    if ctx.line.startswith("Error: No test files found"):
        return Hit(
            signal=ctx.line.strip(),
            message=ctx.line.strip(),
            hint={"runner": "mocha", "no_tests": True},
        )
    return _ZeroPassingBlock(ctx)


# -- node:test (spec reporter) --------------------------------------------------------------

_NODE_FAIL = r"^(?P<indent>\s*)✖ (?P<name>.+?) \((?P<duration>[\d.]+m?s)\)\s*$"
_NODE_SUITE = re.compile(r"^(?P<indent>\s*)▶ (?P<name>.+?)\s*$")
_NODE_TEST_AT = re.compile(r"^test at (?P<file>.+?):(?P<line>\d+):(?P<column>\d+)\s*$")
_TEST_FILE = re.compile(r"[/\\][^/\\]+\.[cm]?[jt]sx?$")
_NODE_PROP = re.compile(r"^\s+(?P<key>actual|expected): (?P<value>.+?),?\s*$")


class _NodeTestBlock:
    max_lines = 5000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.indent = len(m.group("indent"))
        self.name = m.group("name")
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.message = ""
        self.frames: list[Frame] = []
        self.values: dict[str, str] = {}
        self.texts: list[str] = []
        self.names = [*self._suite_path(ctx), self.name]

    def _suite_path(self, ctx: LineContext) -> list[str]:
        before = ctx.before(300)
        if before and _NODE_TEST_AT.match(before[-1]):
            return []  # the "failing tests" recap names no suites
        path: list[str] = []
        depth = self.indent
        for prev in reversed(before):
            s = _NODE_SUITE.match(prev)
            if s and len(s.group("indent")) < depth:
                path.insert(0, s.group("name"))
                depth = len(s.group("indent"))
                if depth == 0:
                    break
        return path

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return True
        if len(line) - len(line.lstrip()) <= self.indent:
            return False
        frame = parse_frame(line.removesuffix(" {"))
        if frame is not None:
            self.frames.append(frame)
            return True
        prop = _NODE_PROP.match(line)
        if prop and self.frames:
            self.values.setdefault(prop.group("key"), prop.group("value"))
            return True
        if not self.message and not self.frames:
            self.message = line.strip()
        elif len(self.texts) < _MAX_TEXTS:
            self.texts.append(line)
        return True

    def finish(self) -> Iterable[Hit]:
        if not self.message and not self.frames:
            return  # a suite's closing line: its tests are the records
        test_frame = next(
            (f for f in self.frames if f.func.endswith("TestContext.<anonymous>")), None
        )
        test_file = test_frame.file if test_frame else None
        hit = _test_hit(
            runner="node:test",
            names=self.names,
            test_file=test_file,
            message=self.message,
            frames=self.frames,
            ctx=self.ctx,
            log_line=self.log_line,
            values=self.values,
            signal=f"✖ {self.name}: {self.message}" if self.message else self.signal,
            texts=self.texts,
        )
        hit.hint["test_name"] = self.name
        if not self.frames and _TEST_FILE.search(self.name):
            # `✖ /dir/test/a.test.js (116ms) 'test failed'`: the file did not
            # run (its own error, printed above, says why): no test to name
            for k in ("test_id", "test_path", "test_name"):
                hit.hint.pop(k, None)
            hit.hint["test_file"] = self.ctx.resolve(self.name)
            hit.hint["file_failed"] = True
        # The recap at the end prints the same failure without its suites.
        at = test_frame or (self.frames[0] if self.frames else None)
        hit.key = ("node:test", self.name, at.file if at else "", at.line if at else 0)
        yield hit


@rule(
    id="node_test.spec",
    category=FailureType.TEST,
    tool="node:test",
    pattern=_NODE_FAIL,
    triggers=("✖ ",),
    url="https://nodejs.org/api/test.html#test-reporters",
)
def node_test_spec(m: re.Match[str], ctx: LineContext) -> Block:
    """Node.js test runner failures in the spec reporter (`node --test`).

    What it detects: `✖ name (1.2ms)` lines followed by the error (indented
    deeper), the stack `at TestContext.<anonymous> (file:line:col)` and the
    error's properties (`actual: 11,` / `expected: 10,`). The suite path
    comes from the `▶ suite` lines above. A suite's own `✖ suite (ms)` line
    (no error under it) is not a record; the "✖ failing tests:" recap at
    the end repeats each failure, which stays one record. When the output
    is not a terminal, Node 20 prints TAP instead (see tap.not_ok).

    Example output (`node --test --test-reporter=spec`, Node.js 20.20.2):
        ▶ math
          ✖ adds big numbers (6.97ms)
            AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
                at TestContext.<anonymous> (/work/app/test/math.test.js:11:12)

    Recipe: test: re-run that test alone (`node --test
    --test-name-pattern <test_name> <test_file>`); a real assertion failure
    is escalated with expected vs actual.

    References: https://nodejs.org/api/test.html#test-reporters
    """
    return _NodeTestBlock(m, ctx)
