"""Reading mocha's and the Node.js test runner's failure reports (the rules
are in js_test.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from .base import Hit, LineContext
from .js_frames import DiffValues, Frame, parse_frame
from .js_test_hit import MAX_TEXTS, suite_path, test_hit

_MOCHA_NAMED_FILE = lazy_compile(r"\((?P<file>[^()\s]+\.[cm]?[jt]sx?)\)\s*$")
_MOCHA_ITEM = lazy_compile(r"^  (?P<n>\d+)\) (?P<title>.*?)\s*$")


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


class MochaBlock:
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
            test_hit(
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
        elif line.strip() and len(f.texts) < MAX_TEXTS:
            f.texts.append(line)
        f.diff.feed(line)
        return True

    def finish(self) -> Iterable[Hit]:
        self._close()
        return self.hits


def _mocha_item(line: str, expected_n: int) -> str | None:
    m = _MOCHA_ITEM.match(line) if line.startswith("  ") else None
    if m and int(m.group("n")) == expected_n:
        return m.group("title")
    return None


def _looks_foreign(line: str) -> bool:
    return bool(re.match(r"^(?:npm (?:ERR!|error)|error Command failed|\S+@\S+ \S+$)", line))


class ZeroPassingBlock:
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


NODE_FAIL = r"^(?P<indent>\s*)✖ (?P<name>.+?) \((?P<duration>[\d.]+m?s)\)\s*$"
_NODE_SUITE = lazy_compile(r"^(?P<indent>\s*)▶ (?P<name>.+?)\s*$")
_NODE_TEST_AT = lazy_compile(r"^test at (?P<file>.+?):(?P<line>\d+):(?P<column>\d+)\s*$")
_TEST_FILE = lazy_compile(r"[/\\][^/\\]+\.[cm]?[jt]sx?$")
_NODE_PROP = lazy_compile(r"^\s+(?P<key>actual|expected): (?P<value>.+?),?\s*$")


class NodeTestBlock:
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
        return suite_path(before, self.indent, _NODE_SUITE, "▶ ")

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
        elif len(self.texts) < MAX_TEXTS:
            self.texts.append(line)
        return True

    def finish(self) -> Iterable[Hit]:
        if not self.message and not self.frames:
            return  # a suite's closing line: its tests are the records
        test_frame = next(
            (f for f in self.frames if f.func.endswith("TestContext.<anonymous>")), None
        )
        test_file = test_frame.file if test_frame else None
        hit = test_hit(
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
