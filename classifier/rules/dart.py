"""Dart and Flutter: `dart analyze` / `flutter analyze`, front-end compile
errors, `dart test` / `flutter test` failures and unhandled exceptions."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import CARET_LINE, Block, Hit, LineContext, hit_from_match
from .registry import rule
from .stack import Frame, innermost_in_project, related_frames

ECOSYSTEM = "Dart"

_UNDEFINED = lazy_compile(
    r"The (?:getter|setter|method|function|name|class) '(?P<name>[^']+)' isn't defined(?: for the (?:type|class) '(?P<type>[^']+)')?"
    r"|Undefined name '(?P<name2>[^']+)'"
)
_URI = lazy_compile(r"Target of URI doesn't exist: '(?P<module>[^']+)'")


def dart_hint(message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    if m := _UNDEFINED.search(message):
        hint["name"] = m.group("name") or m.group("name2")
        if m.group("type"):
            hint["type"] = m.group("type")
    elif m := _URI.search(message):
        hint["module"] = m.group("module")
    return hint


def _analyzer_hit(m: re.Match[str], ctx: LineContext, tool: str) -> Hit:
    message = m.group("message").strip()
    hint = dart_hint(message)
    hint["severity"] = m.group("sev")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")),
        code=m.group("code"),
        tool=tool,
        hint=hint,
    )


@rule(
    id="dart.analyze",
    category=FailureType.COMPILE,
    tool="dart analyze",
    pattern=r"^\s*(?P<sev>error|warning|info) - (?P<file>[^\s:][^:]*?\.dart):(?P<line>\d+):(?P<column>\d+) - (?P<message>.+) - (?P<code>[a-z][a-z0-9_]*)$",
    triggers=("error - ", "warning - ", "info - "),
    url="https://dart.dev/tools/dart-analyze",
)
def dart_analyze(m: re.Match[str], ctx: LineContext) -> Hit:
    """A `dart analyze` diagnostic.

    What it detects: `  error - lib/cart.dart:25:71 - The getter 'cent'
    isn't defined for the type 'Price'. ... - undefined_getter` (the
    diagnostic code is the record's code) and the `warning - ` lines: `dart
    analyze` exits non-zero for errors and warnings, so both are records;
    `info - ` lines do not fail it (unless `--fatal-infos`): warning hits.
    hint["name"] / hint["type"] of an undefined member, hint["module"] of a
    missing import.  `No issues found!` gives nothing.

    Example output (`dart analyze`, the Dart SDK's documented format; no
    Dart SDK can be installed here):
          error - lib/cart.dart:25:71 - The getter 'cent' isn't defined for the type 'Price'. Try importing the library that defines 'cent', ... - undefined_getter

    Recipe: compile, escalated with the location and the undefined name.

    References: https://dart.dev/tools/dart-analyze,
    https://dart.dev/tools/diagnostic-messages
    """
    hit = _analyzer_hit(m, ctx, "dart analyze")
    hit.warning = m.group("sev") == "info"
    return hit


@rule(
    id="dart.flutter_analyze",
    category=FailureType.COMPILE,
    tool="flutter analyze",
    pattern=r"^\s*(?P<sev>error|warning|info) \u2022 (?P<message>.+) \u2022 (?P<file>[^\s:][^:]*?\.dart):(?P<line>\d+):(?P<column>\d+) \u2022 (?P<code>[a-z][a-z0-9_]*)$",
    triggers=(" \u2022 ",),
    url="https://docs.flutter.dev/tools/analysis",
)
def dart_flutter_analyze(m: re.Match[str], ctx: LineContext) -> Hit:
    """A `flutter analyze` diagnostic.

    What it detects: `  error • The getter 'cent' isn't defined for the
    type 'Price' • lib/cart.dart:25:71 • undefined_getter` and the `warning
    •` and `info •` lines: flutter analyze exits non-zero for any issue by
    default (`--no-fatal-infos` changes that), so each is a record;
    hint["severity"].

    Example output (`flutter analyze`, documented format; no Flutter SDK
    can be installed here):
          error • The getter 'cent' isn't defined for the type 'Price' • lib/cart.dart:25:71 • undefined_getter

    Recipe: compile, escalated with the location.

    References: https://docs.flutter.dev/tools/analysis
    """
    return _analyzer_hit(m, ctx, "flutter analyze")


class _FrontEndError:
    """`lib/cart.dart:25:71: Error: ...`, its ` - ` context lines, the
    `Try ...` line, the source line and the carets (the last line: what
    follows them is the next diagnostic or another program's output)."""

    max_lines = 20

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        message = m.group("message").strip()
        self.hit = hit_from_match(
            m, ctx, message=message, log_line=ctx.line_no, hint=dart_hint(message)
        )
        self.shown = False  # the source line and its caret were printed

    def feed(self, line: str, line_no: int) -> bool:
        if self.shown or re.match(
            r"^[^\s:][^:]*?\.dart:\d+:\d+: (?:Error|Warning|Context): ", line
        ):
            return False  # the caret under the source line was the diagnostic's last line
        if line.startswith("Try "):
            self.hit.hint["suggestion"] = line.strip()
        self.shown = bool(CARET_LINE.match(line))  # the last line
        return bool(line.strip())

    def finish(self) -> Iterable[Hit]:
        return [self.hit]


@rule(
    id="dart.compile",
    category=FailureType.COMPILE,
    tool="dart",
    pattern=r"^(?P<file>[^\s:][^:]*?\.dart):(?P<line>\d+):(?P<column>\d+): Error: (?P<message>.+)$",
    triggers=(".dart:",),
    url="https://dart.dev/tools/dart-compile",
)
def dart_compile(m: re.Match[str], ctx: LineContext) -> Block:
    """A Dart front-end compile error (`dart run`, `dart compile`, `flutter
    build`, `flutter test` loading a broken file).

    What it detects: `lib/cart.dart:25:71: Error: The getter 'cent' isn't
    defined for the class 'Price'.`, the ` - 'Price' is from ...` context,
    the `Try ...` line (hint["suggestion"]), the source line and the carets.
    `Warning:` lines are not failures.

    Example output (`dart run bin/main.dart`, documented format; no Dart
    SDK can be installed here):
        lib/cart.dart:25:71: Error: The getter 'cent' isn't defined for the class 'Price'.
         - 'Price' is from 'package:shop/cart.dart' ('lib/cart.dart').
        Try correcting the name to the name of an existing getter, or defining a getter or field named 'cent'.

    Recipe: compile, escalated with the location.

    References: https://dart.dev/tools/dart-compile
    """
    return _FrontEndError(m, ctx)


# `  test/cart_test.dart 10:5  main.<fn>` (package:test's terse frames)
_TEST_FRAME = lazy_compile(r"^\s+(?P<file>[^\s:]+\.dart) (?P<line>\d+):(?P<column>\d+)\s+\S")
# `#1      Cart.find (package:shop/cart.dart:25:35)` (the VM's frames)
_VM_FRAME = lazy_compile(
    r"^#\d+\s+.+? \((?P<uri>(?:package:|file://)[^)]+?\.dart):(?P<line>\d+)(?::\d+)?\)$"
)


def _vm_file(uri: str, ctx: LineContext) -> str | None:
    """`package:shop/cart.dart` is `lib/cart.dart` of the package named in
    pubspec.yaml (taken to be the working tree's); `file:///...` a path."""
    if uri.startswith("file://"):
        return uri.removeprefix("file://")
    rest = uri.removeprefix("package:").split("/", 1)
    if len(rest) == 2 and ctx.exists(f"lib/{rest[1]}"):
        return f"lib/{rest[1]}"
    return None


class _DartTestFailure:
    """`00:00 +0 -1: test/cart_test.dart: counts the quantities [E]` and the
    indented message and frames under it."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.name = m.group("name")
        self.test_file = m.group("file")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        self.frames: list[Frame] = []

    def feed(self, line: str, line_no: int) -> bool:
        if re.match(r"^\d+:\d+ \+\d+", line):
            return False
        if frame := _TEST_FRAME.match(line):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
        elif line.strip() and not re.match(r"^\s+package:\S+\s", line):
            self.lines.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {"runner": "dart test", "test_id": self.name}
        if self.test_file:
            hint["test_file"] = self.test_file
        for text in self.lines:
            if v := re.match(r"^(?P<k>Expected|Actual): (?P<v>.+)$", text):
                hint[v.group("k").lower()] = v.group("v").strip()
        message = " ".join(self.lines[:2]) or "test failed"
        chosen = innermost_in_project(self.frames, self.ctx)
        return [
            Hit(
                signal=self.signal,
                message=f"{self.name}: {message}",
                file=chosen[0] if chosen else self.test_file,
                line=chosen[1] if chosen else None,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
            )
        ]


@rule(
    id="dart.test",
    category=FailureType.TEST,
    tool="dart test",
    pattern=r"^\d+:\d+ \+\d+(?: ~\d+)? -\d+: (?:(?P<file>[^\s:]+\.dart): )?(?P<name>.+?) \[E\]$",
    triggers=(" [E]",),
    url="https://github.com/dart-lang/test/blob/master/pkgs/test/README.md",
)
def dart_test(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing test in `dart test` / `flutter test` (the compact reporter).

    What it detects: `00:00 +0 -1: test/cart_test.dart: counts the
    quantities [E]`, the indented `Expected: <3>` / `  Actual: <2>`
    (hint["expected"], hint["actual"]) and the frames `  test/cart_test.dart
    10:5  main.<fn>`, the innermost in the project being the location.
    hint["test_id"] is the test's name (`dart test --plain-name`).  The
    progress lines of passing tests and `Some tests failed.` are not
    records; `All tests passed!` gives nothing.

    Example output (`dart test`, package:test's documented reporter; no
    Dart SDK can be installed here):
        00:00 +0 -1: test/cart_test.dart: counts the quantities [E]
          Expected: <3>
            Actual: <2>

          package:matcher                expect
          test/cart_test.dart 10:5  main.<fn>

    Recipe: test. Re-run the one test (`dart test test/cart_test.dart
    --plain-name "counts the quantities"`); a real failure is escalated
    with expected vs actual.

    References: https://github.com/dart-lang/test/blob/master/pkgs/test/README.md
    """
    return _DartTestFailure(m, ctx)


class _Unhandled:
    max_lines = 200

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.log_line = ctx.line_no
        self.message: str | None = None
        self.frames: list[Frame] = []

    def feed(self, line: str, line_no: int) -> bool:
        if self.message is None:
            self.message = line.strip()
            return True
        if frame := _VM_FRAME.match(line):
            file = _vm_file(frame.group("uri"), self.ctx)
            if file:
                self.frames.append((file, int(frame.group("line"))))
            return True
        return line.startswith("#")

    def finish(self) -> Iterable[Hit]:
        chosen = innermost_in_project(self.frames, self.ctx)
        message = self.message or "unhandled exception"
        return [
            Hit(
                signal=message,
                message=f"Unhandled exception: {message}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                log_line=self.log_line,
                hint={"exception": message.split(":", 1)[0]},
                related=related_frames(self.frames, chosen),
            )
        ]


@rule(
    id="dart.unhandled_exception",
    category=FailureType.COMPILE,
    tool="dart",
    pattern=r"^Unhandled exception:$",
    triggers=("Unhandled exception:",),
    url="https://dart.dev/language/error-handling",
)
def dart_unhandled_exception(m: re.Match[str], ctx: LineContext) -> Block:
    """An uncaught exception that stopped a Dart program.

    What it detects: the VM's `Unhandled exception:`, the message on the
    next line (`Bad state: No element`: hint["exception"] is its first
    part) and the `#1      Cart.find (package:shop/cart.dart:25:35)` frames:
    a `package:shop/...` URI is the package's lib/ folder, `file:///...` a
    path; `dart:` frames are the SDK's.  The innermost project frame is the
    location.

    Example output (`dart run bin/main.dart`, documented format; no Dart SDK
    can be installed here):
        Unhandled exception:
        Bad state: No element
        #0      ListBase.firstWhere (dart:collection/list.dart:132:5)
        #1      Cart.find (package:shop/cart.dart:25:35)

    Recipe: compile, escalated with the throwing location.

    References: https://dart.dev/language/error-handling
    """
    return _Unhandled(ctx)
