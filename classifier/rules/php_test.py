"""PHP's test runner: PHPUnit (the default printer and `--testdox`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, lines_above
from .causes import environment_cause
from .php import in_library, php_hint
from .registry import rule
from .stack import related_frames

ECOSYSTEM = "PHP"

# -- PHPUnit ---------------------------------------------------------------------
_PHPUNIT_DOCS = "https://docs.phpunit.de/en/9.6/textui.html"
_ENTRY = lazy_compile(
    r"^(?P<n>\d+)\) (?P<cls>[\w\\]+)::(?P<method>\w+)(?: with data set (?P<dataset>.+?))?$"
)
_FILE_LINE = lazy_compile(r"^(?P<file>(?:[A-Za-z]:)?[\\/][^:]*|[^\s:][^:]*\.php):(?P<line>\d+)$")
_SECTION_END = lazy_compile(
    r"^(?:FAILURES!|ERRORS!|WARNINGS!|Tests: \d+|There (?:was 1|were \d+) |--$)"
)
_ASSERT_VALUES = (
    lazy_compile(
        r"^Failed asserting that (?P<actual>.+?) (?:is identical to|matches expected|is equal to) (?P<expected>.+?)\.$"
    ),
)


def _phpunit_values(lines: list[str]) -> dict[str, str]:
    for text in lines:
        for pattern in _ASSERT_VALUES:
            if m := pattern.match(text):
                return {"expected": m.group("expected"), "actual": m.group("actual")}
    minus = [t[1:] for t in lines if t.startswith("-") and not t.startswith("---")]
    plus = [t[1:] for t in lines if t.startswith("+") and not t.startswith("+++")]
    if "--- Expected" in lines and minus and plus:
        return {"expected": "\n".join(minus), "actual": "\n".join(plus)}
    return {}


def _phpunit_hit(
    ctx: LineContext,
    *,
    signal: str,
    log_line: int,
    test_id: str,
    lines: list[str],
    frames: list[tuple[str, int]],
    key: tuple[Any, ...],
    hint: dict[str, Any],
) -> Hit:
    message = next((t for t in lines if t), "test failed")
    exc = re.match(r"^(?P<exc>[\w\\]*(?:Error|Exception)): ", message)
    chosen = next((f for f in frames if ctx.in_project(f[0]) and not in_library(f[0])), None)
    chosen = chosen or (frames[0] if frames else None)
    hint = {"runner": "phpunit", "test_id": test_id, **hint}
    if exc:
        hint.update(php_hint(exc.group("exc"), message))
    hint.update(_phpunit_values(lines))
    # "Unable to connect to tcp://127.0.0.1:9 (Connection refused)", "X is not set"
    cause = environment_cause([t for t in lines if t])
    if cause is not None:
        hint.update(cause.hint)
    return Hit(
        signal=signal,
        message=message,
        file=chosen[0] if chosen else None,
        line=chosen[1] if chosen else None,
        category=cause.category if cause is not None else None,
        log_line=log_line,
        hint=hint,
        related=related_frames(frames, chosen),
        key=key,
    )


class _PhpUnitSection:
    """`There were 2 failures:` and its numbered entries: the test, the
    message (and diff), then the `file:line` frames."""

    max_lines = 20_000

    def __init__(self, ctx: LineContext, kind: str) -> None:
        self.ctx = ctx
        self.kind = kind
        self.entries: list[tuple[re.Match[str], str, int, list[str], list[tuple[str, int]]]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if _SECTION_END.match(line):
            return False
        if entry := _ENTRY.match(line):
            self.entries.append((entry, line.strip(), line_no, [], []))
            return True
        if not self.entries:
            return bool(not line.strip())
        _, _, _, lines, frames = self.entries[-1]
        if frame := _FILE_LINE.match(line.strip()):
            frames.append((frame.group("file"), int(frame.group("line"))))
        elif not frames:
            lines.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        hits = []
        for entry, signal, log_line, lines, frames in self.entries:
            test_id = f"{entry.group('cls')}::{entry.group('method')}"
            hint: dict[str, Any] = {"kind": self.kind}
            if entry.group("dataset"):
                hint["data_set"] = entry.group("dataset")
            hits.append(
                _phpunit_hit(
                    self.ctx,
                    signal=signal,
                    log_line=log_line,
                    test_id=test_id,
                    lines=lines,
                    frames=frames,
                    key=("phpunit", test_id, entry.group("dataset")),
                    hint=hint,
                )
            )
        return hits


@rule(
    id="phpunit.failure",
    category=FailureType.TEST,
    tool="phpunit",
    pattern=r"^There (?:was 1|were \d+) (?P<kind>failure|error)s?:$",
    triggers=("There was 1 failure:", "There was 1 error:", "There were "),
    url=_PHPUNIT_DOCS,
)
def phpunit_failure(m: re.Match[str], ctx: LineContext) -> Block:
    """Failing PHPUnit tests (the default result printer).

    What it detects: the `There were 2 failures:` / `There was 1 error:`
    sections and each numbered entry in them: `1)
    Shop\\Tests\\CartTest::testCountsQuantities` (`with data set
    "thousands" (...)` for a data provider row: hint["data_set"]), the
    message (`Failed asserting that 2 is identical to 3.`, or a `--- Expected`
    / `+++ Actual` diff: hint["expected"], hint["actual"]; an error's
    `Error: Call to undefined method ...`: hint["exception"], hint["name"])
    and the `/app/tests/CartTest.php:21` frames; the location is the first
    frame in the project (the assertion's line, or the library line that
    raised).  hint["test_id"] is `Shop\\Tests\\CartTest::testCountsQuantities`
    (`phpunit --filter` takes it).  Risky, skipped and incomplete tests are
    not failures: `OK, but incomplete, skipped, or risky tests!` and `OK (3
    tests, 3 assertions)` give nothing.

    Example output (`phpunit`, PHPUnit 9.6.7):
        There were 2 failures:

        1) Shop\\Tests\\CartTest::testCountsQuantities
        Failed asserting that 2 is identical to 3.

        /app/tests/CartTest.php:21

    Recipe: test. Re-run the one test (`phpunit --filter
    'CartTest::testCountsQuantities'`); a real failure is escalated with
    expected vs actual.

    References: https://docs.phpunit.de/en/9.6/textui.html
    """
    return _PhpUnitSection(ctx, m.group("kind"))


_TESTDOX_CLASS = lazy_compile(r"^(?P<title>\S.*?) \((?P<cls>[\w\\]+)\)$")
_TESTDOX_BAR = "\u2502"  # │


class _TestdoxFailure:
    """` ✘ Counts quantities` and the `│`-prefixed lines under it."""

    max_lines = 400

    def __init__(self, ctx: LineContext, name: str, cls: str | None) -> None:
        self.ctx = ctx
        self.name = name
        self.cls = cls
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        self.frames: list[tuple[str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if not text.startswith(_TESTDOX_BAR):
            return False
        body = text[1:].strip()
        if frame := _FILE_LINE.match(body):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
        elif not self.frames:
            self.lines.append(body)
        return True

    def finish(self) -> Iterable[Hit]:
        test_id = f"{self.cls}: {self.name}" if self.cls else self.name
        return [
            _phpunit_hit(
                self.ctx,
                signal=self.signal,
                log_line=self.log_line,
                test_id=test_id,
                lines=self.lines,
                frames=self.frames,
                key=("phpunit-testdox", test_id),
                hint={"test_name": self.name},
            )
        ]


@rule(
    id="phpunit.testdox",
    category=FailureType.TEST,
    tool="phpunit",
    pattern=r"^ \u2718 (?P<name>.+)$",
    triggers=(" \u2718 ",),
    url="https://docs.phpunit.de/en/9.6/textui.html#testdox",
)
def phpunit_testdox(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing test in PHPUnit's `--testdox` output.

    What it detects: ` ✘ Counts quantities` under its class line (`Cart
    (Shop\\Tests\\Cart)`) and the `│`-prefixed message and frames under it,
    as for phpunit.failure.  The `Summary of non-successful tests:` repeats
    each failure: one record.  ` ✔ ` lines pass.

    Example output (`phpunit --testdox`, PHPUnit 9.6.7):
        Cart (Shop\\Tests\\Cart)
         ✘ Counts quantities
           │
           │ Failed asserting that 2 is identical to 3.
           │
           │ /app/tests/CartTest.php:21

    Recipe: test, as for phpunit.failure.

    References: https://docs.phpunit.de/en/9.6/textui.html#testdox
    """
    cls: str | None = None
    for line in lines_above(ctx, 400):
        if found := _TESTDOX_CLASS.match(line):
            cls = found.group("cls")
            break
    return _TestdoxFailure(ctx, m.group("name").strip(), cls)
