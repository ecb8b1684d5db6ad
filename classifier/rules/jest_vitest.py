"""Reading jest's and vitest's failure reports (the rules are in js_test.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from .base import Hit, LazyPattern, LineContext
from .js_frames import DiffValues, Frame, parse_frame
from .js_test_hit import MAX_TEXTS, test_hit, value_lines

_JEST_FILE = lazy_compile(
    r"^\s*(?P<status>FAIL|PASS)\s+(?P<file>[^\s>]+?)(?:\s+\([\d.]+ m?s\))?\s*$"
)
_JEST_BULLET = lazy_compile(r"^  ● (?P<title>.+?)\s*$")
_JEST_TOP = lazy_compile(
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
_BABEL_SYNTAX = lazy_compile(
    r"^\s*(?P<message>SyntaxError: (?P<file>\S+?): .+?) \((?P<line>\d+):(?P<column>\d+)\)\s*$"
)


class JestBlock:
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
            test_hit(
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
        bullet = _JEST_BULLET.match(line) if line.startswith("  ● ") else None
        if bullet:
            self._close()
            if bullet.group("title").strip() != "Console":
                self.current = _JestFailure(bullet.group("title"), line_no)
            return True
        fm = _JEST_FILE.match(line) if "FAIL" in line or "PASS" in line else None
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
        elif len(f.texts) < MAX_TEXTS:
            f.texts.append(line)
        if f.suite and f.parse_error is None:
            f.parse_error = _BABEL_SYNTAX.match(line)
        value_lines(f.values, line)
        f.diff.feed(line)
        return True

    def finish(self) -> Iterable[Hit]:
        self._close()
        return self.hits


VITEST_FAIL = r"^\s*FAIL\s+(?P<file>\S+?)(?: > (?P<names>.+?)| \[ (?P<suite>\S+) \])\s*$"
_VITEST_LOC = lazy_compile(
    r"^\s*❯ (?:(?P<func>\S+) )?(?P<file>\S+?):(?P<line>\d+):(?P<column>\d+)\s*$"
)
_VITEST_FAIL = LazyPattern(VITEST_FAIL)  # (compiled on first use, as the rule's own)
_VITEST_SEPARATOR = lazy_compile(r"^⎯{3,}")


def vitest_frame(line: str) -> Frame | None:
    """A vitest `❯ [func] file:line:col` location line as a frame."""
    loc = _VITEST_LOC.match(line)
    if loc is None:
        return None
    return Frame(
        loc.group("func") or "", loc.group("file"), int(loc.group("line")), int(loc.group("column"))
    )


class VitestBlock:
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
        # the further tests printed with this one's error: (file, names, heading, line)
        self.shared: list[tuple[str, str, str, int]] = []

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
        heading = _VITEST_FAIL.match(line) if "FAIL" in line else None
        if heading and not self.message and not self.frames and heading.group("names"):
            # vitest prints one error under the headings of every test that
            # failed with it: this test shares the error below
            names = heading.group("names")
            self.shared.append((heading.group("file"), names, line.strip(), line_no))
            return True
        if heading or s.startswith(("Test Files ", "Tests ")):
            return False
        if not s:
            return True
        frame = vitest_frame(line)
        if frame is None:
            frame = parse_frame(line)
        if frame is not None:
            self.frames.append(frame)
            return True
        if not self.message:
            self.message = s
        elif len(self.texts) < MAX_TEXTS:
            self.texts.append(line)
        value_lines(self.values, line)
        self.diff.feed(line)
        return True

    def finish(self) -> Iterable[Hit]:
        tests = [(self.test_file, self.title, self.signal, self.log_line), *self.shared]
        for test_file, title, heading, log_line in tests:
            yield test_hit(
                runner="vitest",
                names=title.split(" > ") if title else [],
                test_file=test_file,
                message=self.message,
                frames=self.frames,
                ctx=self.ctx,
                log_line=log_line,
                values=self.values,
                diff=self.diff.values(),
                signal=f"{heading}: {self.message}" if self.message else heading,
                suite_failure=self.suite,
                texts=self.texts,
                title=title,
            )


_VITEST_ORIGIN = lazy_compile(r'^This error originated in "(?P<file>[^"]+)" test file')
_VITEST_LATEST = lazy_compile(
    r'^The latest test that might\'ve caused the error is "(?P<name>[^"]+)"'
)


class VitestUnhandledBlock:
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
        frame = vitest_frame(line)
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
        hit = test_hit(
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
