"""AVA, the Node.js test runner: its default reporter's failure reports.

AVA (4 and later; the reporter is the same on a terminal and in CI) prints
every line indented by two spaces: a progress line per test, the sections
for a test file that crashed, then, after a `─` line, one report per failed
test, then the counts::

      ✘ [fail]: cart › totals
      ✔ cart › empty

      Uncaught exception in test/broken.js

      Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/app/missing.js' imported from /app/test/broken.js
          at finalizeResolution (node:internal/modules/esm/resolve:283:11)

      ✘ test/broken.js exited with a non-zero exit code: 1
      ─

      cart › totals

      test/cart.js:5

       4: test('totals', t => {
       5:   t.is(total(items), 7);
       6: });

      Difference (- actual, + expected):

      - 6
      + 7

      › file://test/cart.js:5:5

      ─

      1 test failed

A report's title is its test's (the file's name, then ` › ` and the title,
when there are several test files); the `file:line` under it is the
assertion; the `›` lines are AVA's cleaned stack, and a thrown error's
report ends with the error's own V8 stack.  Everything in between is the
assertion's message, its diff (`-` actual, `+` expected) or the thrown value.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .js_frames import Frame, parse_frame
from .js_test_hit import MAX_TEXTS, test_hit
from .registry import rule

ECOSYSTEM = "JavaScript"

_START = lazy_compile(
    r"^  (?:✘ \[fail\]: .+"
    r"|(?:Uncaught exception|Unhandled rejection) in \S+"
    r"|✘ (?:No tests found in \S+?(?:, .*)?|Exiting due to process\.exit\(\) when running \S+"
    r"|\S+ exited with a non-zero exit code: \d+))$"
)
_FAIL = lazy_compile(r"^  ✘ \[fail\]: (?P<text>.+)$")
_PROGRESS = lazy_compile(r"^  (?:✔|✘|◌) |^  - \[(?:skip|todo)\]")
_SECTION = lazy_compile(
    r"^  (?:(?P<kind>Uncaught exception|Unhandled rejection) in (?P<file>\S+)"
    r"|✘ Exiting due to process\.exit\(\) when running (?P<exit_file>\S+))$"
)
# AVA 7 adds ", make sure to import "ava" at the top of your test file"
_NO_TESTS = lazy_compile(r"^  ✘ No tests found in (?P<file>[^\s,]+)(?:, .*)?$")
_EXITED = lazy_compile(r"^  ✘ (?P<file>\S+) exited with a non-zero exit code: (?P<code>\d+)$")
_LOCATION = lazy_compile(r"^  (?P<file>[^\s:]+\.[cm]?[jt]sx?):(?P<line>\d+)$")
_EXCERPT = lazy_compile(r"^\s+\d+:(?: |$)")  # an excerpt line may be empty
_ERROR = lazy_compile(r"^\s+(?P<error>(?:[A-Z]\w*)?Error(?: \[\w+\])?: .*)$")
# The thrown value as AVA formats it (`ReferenceError {` then `message: '...',`):
# AVA 5 prints only this, with its `›` stack, not the error's own line.
_OBJECT = lazy_compile(r"^(?P<type>(?:[A-Z]\w*)?Error) \{$")
_OBJECT_MESSAGE = lazy_compile(r"^message: (?P<q>['\"`])(?P<message>.*)(?P=q),?$")
_COUNTS = lazy_compile(
    r"^  \d+ (?:tests?|known failures?|uncaught exceptions?|unhandled rejections?)\b"
)
_DIFF = lazy_compile(r"^  (?P<sign>[-+]) (?P<value>.*)$")
_TEST_CALL = "/ava/lib/test.js"  # the frame that called the test function
MAX_FOREIGN = 200  # console lines among the progress lines before the run is taken as over


def _cleaned_frame(line: str) -> Frame | None:
    """AVA's `› fn (file://test/x.js:10:28)` / `› file://test/x.js:5:5` (its
    `file://` names a path relative to the project)."""
    text = line.strip().removeprefix("› ")
    frame = parse_frame(f"at {text}")
    if frame is None:
        return None
    file = frame.file
    if file.startswith("file://") and not file.startswith("file:///"):
        file = file[len("file://") :]
    return Frame(frame.func, file, frame.line, frame.column)


@dataclass(slots=True)
class _Report:
    """One failed test's report, or one crashed file's section."""

    title: str
    log_line: int
    section: str | None = None  # "Uncaught exception", ...: a file's crash
    file: str | None = None  # the crashed file, or the assertion's file
    line: int | None = None
    frames: list[Frame] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    error: str | None = None  # the thrown error's `Type: message` line
    diff: dict[str, list[str]] = field(default_factory=dict)
    in_diff: bool = False
    in_stack: bool = False
    blank_run: int = 0


class AvaBlock:
    """One AVA run's output: the progress lines, the crash sections and the
    reports after the `─` line, up to the first line AVA did not indent."""

    max_lines = 20_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.fails: list[tuple[str, int]] = []  # progress `✘ [fail]:` texts
        self.reports: list[_Report] = []
        self.files_exited: list[tuple[str, int, str]] = []
        self.no_tests: list[tuple[str, int]] = []
        self.current: _Report | None = None
        self.details = False  # after the first `─`
        self.counted = False  # the counts that end AVA's output began
        self.foreign = 0  # unindented lines (console output) seen among the progress lines
        self.feed(ctx.line, ctx.line_no)

    def feed(self, line: str, line_no: int) -> bool | None:
        text = line.rstrip()
        if self.counted and text.strip() and not _COUNTS.match(text):
            return False
        if text and not line.startswith("  "):
            # a test's console output comes unindented among the progress
            # lines; a run cut short is followed by another tool's output
            self.foreign += 1
            return False if self.details or self.foreign > MAX_FOREIGN else None
        if _COUNTS.match(text):
            self.counted, self.current = True, None
            return True
        if text == "  ─":
            self.details, self.current = True, None
            return True
        if not text.strip():
            if self.current is not None:
                self.current.blank_run += 1
            return True
        if (m := _FAIL.match(text)) is not None:
            self.fails.append((m.group("text"), line_no))
            self.current = None
            return True
        if (m := _SECTION.match(text)) is not None:
            file = m.group("file") or m.group("exit_file")
            kind = m.group("kind") or "Exiting due to process.exit()"
            self.current = _Report(f"{kind} in {file}", line_no, section=kind, file=file)
            self.reports.append(self.current)
            return True
        if (m := _NO_TESTS.match(text)) is not None:
            self.no_tests.append((m.group("file"), line_no))
            return True
        if (m := _EXITED.match(text)) is not None:
            self.files_exited.append((m.group("file"), line_no, m.group("code")))
            self.current = None
            return True
        if _PROGRESS.match(text):
            self.current = None
            return True
        report = self.current
        title = self.details and text.startswith("  ") and not text.startswith("   ")
        if title and (report is None or report.blank_run >= 2):
            self.current = _Report(text.strip(), line_no)
            self.reports.append(self.current)
            return True
        if report is not None:
            self._read(report, text)
        return True

    def _read(self, report: _Report, text: str) -> None:
        blank_run, report.blank_run = report.blank_run, 0
        loc = _LOCATION.match(text) if report.line is None else None
        if loc is not None and report.file in (None, loc.group("file")):
            report.file, report.line = loc.group("file"), int(loc.group("line"))
            return
        if _EXCERPT.match(text):
            return
        stripped = text.strip()
        if stripped.startswith("› "):
            if (frame := _cleaned_frame(stripped)) is not None:
                report.frames.append(frame)
            return
        if stripped.startswith("at ") and (frame := parse_frame(text)) is not None:
            report.frames.append(frame)
            report.in_stack = True
            return
        report.in_stack = report.in_stack and blank_run == 0
        if (err := _ERROR.match(text)) is not None:
            report.error = err.group("error")
            return
        if report.in_diff:
            if (d := _DIFF.match(text)) is not None:
                key = "actual" if d.group("sign") == "-" else "expected"
                report.diff.setdefault(key, []).append(d.group("value"))
                return
            if report.diff:  # a diff's unchanged lines, `{`, `a: [`
                return
        if stripped.startswith("Difference (- actual, + expected)"):
            report.in_diff = True
        if len(report.messages) < MAX_TEXTS:
            report.messages.append(stripped)

    def finish(self) -> Iterable[Hit]:
        hits: list[Hit] = []
        crashed: set[str] = set()
        titled: list[str] = []
        for report in self.reports:
            hits.append(self._hit(report))
            if report.section is not None and report.file:
                crashed.add(report.file)
            else:
                titled.append(report.title)
        for text, line_no in self.fails:
            if not any(text == t or text.startswith(f"{t} ") for t in titled):
                hits.append(self._progress_hit(text, line_no))
        for file, line_no in self.no_tests:
            hits.append(self._file_hit(f"No tests found in {file}", file, line_no))
        for file, line_no, code in self.files_exited:
            if file not in crashed:
                message = f"{file} exited with a non-zero exit code: {code}"
                hits.append(self._file_hit(message, file, line_no))
        return hits

    def _hit(self, report: _Report) -> Hit:
        frames = report.frames
        test_file = report.file
        if test_file is None:  # a thrown error's report: the frame AVA called
            for i, frame in enumerate(frames[1:], 1):
                if _TEST_CALL in frame.file.replace("\\", "/"):
                    test_file = frames[i - 1].file
                    break
        at = (report.file, report.line)
        if (
            report.line is not None
            and report.file is not None
            and not any((f.file, f.line) == at for f in frames)
        ):
            frames = [Frame("", report.file, report.line, 0), *frames]
        error = report.error or _object_error(report.messages)
        message = error or next(iter(report.messages), "") or report.title
        texts = (
            report.messages[1:] if message == next(iter(report.messages), None) else report.messages
        )
        diff = report.diff
        values = (
            {"expected": "\n".join(diff["expected"]), "actual": "\n".join(diff["actual"])}
            if "expected" in diff and "actual" in diff
            else {}
        )
        if values and message.endswith(":") and "\n" not in "".join(values.values()):
            message = f"{message} - {values['actual']} + {values['expected']}"
        names = [] if report.section else report.title.split(" › ")
        hit = test_hit(
            runner="ava",
            names=names,
            test_file=test_file,
            message=message,
            frames=frames,
            ctx=self.ctx,
            log_line=report.log_line,
            values=values,
            signal=f"{report.title}: {message}" if message != report.title else message,
            suite_failure=report.section is not None,
            texts=texts,
        )
        if hit.column == 0:
            hit.column = None
        return hit

    def _progress_hit(self, text: str, line_no: int) -> Hit:
        return Hit(
            signal=f"✘ [fail]: {text}",
            message=text,
            log_line=line_no,
            hint={"runner": "ava", "test_id": text},
            key=("ava", "progress", text),
        )

    def _file_hit(self, message: str, file: str, line_no: int) -> Hit:
        return Hit(
            signal=f"✘ {message}",
            message=message,
            file=file,
            log_line=line_no,
            hint={"runner": "ava", "test_file": self.ctx.resolve(file)},
            key=("ava", "file", message),
        )


def _object_error(messages: list[str]) -> str | None:
    """`ReferenceError: x is not defined` from AVA's formatting of the thrown
    value (`ReferenceError {` / `message: 'x is not defined',`)."""
    for head, below in itertools.pairwise(messages):
        if (obj := _OBJECT.match(head)) and (msg := _OBJECT_MESSAGE.match(below)):
            return f"{obj.group('type')}: {msg.group('message')}"
    return None


@rule(
    id="ava.failure",
    category=FailureType.TEST,
    tool="ava",
    pattern=_START.pattern,
    triggers=(
        "✘ [fail]: ",
        "Uncaught exception in ",
        "Unhandled rejection in ",
        "✘ No tests found in ",
        "✘ Exiting due to process.exit()",
        " exited with a non-zero exit code: ",
    ),
    url="https://github.com/avajs/ava/blob/main/docs/05-command-line.md",
    priority=2,
)
def ava_failure(m: re.Match[str], ctx: LineContext) -> AvaBlock:
    """AVA's failed tests and crashed test files.

    What it detects: one record per report after AVA's `─` line (`title`,
    the assertion's `file:line`, the message, the `- actual` / `+ expected`
    diff, AVA's `›` stack or a thrown error's V8 stack), at the assertion's
    line, or at the frame that threw when the error names a cause (a
    `ReferenceError: x is not defined` is compile there, a `connect
    ECONNREFUSED` is infra); one per `Uncaught exception in FILE` /
    `Unhandled rejection in FILE` / `Exiting due to process.exit()` section
    (a test file that failed to load is compile: a missing module, a syntax
    error), at its frame in the project, else the file; `✘ No tests found
    in FILE` and a file that `exited with a non-zero exit code` with no
    section of its own. A `✘ [fail]:` progress line with no report (output
    cut short) is a record without a location. The counts (`3 tests
    failed`) are not records.

    Example output (`ava`, AVA 7.0.0):
          ✘ [fail]: slugifies
          ✔ passes
          ─

          slugifies

          test.js:5

           4: test('slugifies', t => {
           5:   t.is(slugify('Hello World'), 'hello_world');
           6: });

          Difference (- actual, + expected):

          - 'hello-world'
          + 'hello_world'

          › file://test.js:5:5

    Recipe: test (hint: runner, test_id, test_file, test_line, expected and
    actual); compile or infra when the error names its cause.

    References: https://github.com/avajs/ava/blob/main/docs/05-command-line.md,
    https://github.com/avajs/ava/blob/main/docs/03-assertions.md
    """
    return AvaBlock(ctx)
