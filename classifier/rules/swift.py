"""Swift: swiftc and SwiftPM errors, XCTest (Linux and macOS) and Swift
Testing failures, and runtime `Fatal error:` traps."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, hit_from_match
from .registry import rule

ECOSYSTEM = "Swift"

_NO_MEMBER = lazy_compile(r"value of type '(?P<type>[^']+)' has no member '(?P<name>[^']+)'")
_NOT_IN_SCOPE = lazy_compile(r"cannot find '(?P<name>[^']+)' in scope")
_NO_MODULE = lazy_compile(r"no such module '(?P<module>[^']+)'")
_DIAG = lazy_compile(
    r"^(?P<file>[^\s:][^:]*?\.swift):(?P<line>\d+):(?P<column>\d+): (?P<sev>error|warning|note): (?P<message>.+)$"
)


def swift_hint(message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    if m := _NO_MEMBER.search(message):
        hint["name"], hint["type"] = m.group("name"), m.group("type")
    elif m := _NOT_IN_SCOPE.search(message):
        hint["name"] = m.group("name")
    elif m := _NO_MODULE.search(message):
        hint["module"] = m.group("module")
    return hint


class _SwiftError:
    """`file:line:col: error: ...`, the source line, the caret and its
    range, and the `note:` diagnostics that follow (related locations)."""

    max_lines = 60

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        message = m.group("message").strip()
        self.hit = hit_from_match(
            m,
            ctx,
            message=message,
            log_line=ctx.line_no,
            hint=swift_hint(message),
            warning=m.group("sev") == "warning",
        )
        self._excerpt = 0

    def feed(self, line: str, line_no: int) -> bool:
        if diag := _DIAG.match(line):
            if diag.group("sev") != "note":
                return False
            self.hit.related.append(
                (
                    diag.group("file"),
                    int(diag.group("line")),
                    int(diag.group("column")),
                    diag.group("message"),
                )
            )
            self._excerpt = 0
            return True
        self._excerpt += 1
        # the source line and the caret line under the diagnostic
        return self._excerpt <= 2 and not line.startswith(("error: ", "[", "Build ", "Compiling "))

    def finish(self) -> Iterable[Hit]:
        return [self.hit]


@rule(
    id="swift.compiler",
    category=FailureType.COMPILE,
    tool="swiftc",
    pattern=_DIAG.pattern,
    triggers=(".swift:",),
    url="https://www.swift.org/documentation/",
)
def swift_compiler(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A Swift compile error (swiftc, `swift build`, xcodebuild).

    What it detects: `Sources/Shop/Cart.swift:22:61: error: value of type
    'Price' has no member 'cent'` (absolute paths under SwiftPM, mapped onto
    the working tree), the source line and the caret under it, and the
    `note:` diagnostics after it (related locations).  hint["name"] and
    hint["type"] of a missing member, hint["name"] of `cannot find 'x' in
    scope`, hint["module"] of `no such module 'X'`.  `warning:` lines are
    warning hits (failures with `-warnings-as-errors`); SwiftPM's `error: emit-module command failed ...` only repeats
    the error.

    Example output (`swift build`, SwiftPM 5.9's documented format; no Swift
    toolchain can be installed here):
        /home/runner/work/shop/shop/Sources/Shop/Cart.swift:22:61: error: value of type 'Price' has no member 'cent'
            public var total: Int { items.reduce(0) { $0 + $1.price.cent * $1.quantity } }
                                                           ~~~~~~~~^~~~

    Recipe: compile, escalated with the location and the missing name.

    References: https://www.swift.org/documentation/,
    https://www.swift.org/documentation/package-manager/
    """
    if m.group("sev") == "note":
        return None
    return _SwiftError(m, ctx)


def _xctest_id(name: str) -> tuple[str, str]:
    """`CartTests.testCount` (Linux) or `-[ShopTests.CartTests testCount]`
    (macOS) as (the test's id for `swift test --filter`, its class)."""
    if objc := re.match(r"^-\[(?P<cls>[\w.]+) (?P<method>\w+)\]$", name):
        return f"{objc.group('cls')}/{objc.group('method')}", objc.group("cls")
    cls, _, method = name.rpartition(".")
    return f"{cls}/{method}", cls


@rule(
    id="swift.xctest",
    category=FailureType.TEST,
    tool="xctest",
    pattern=r"^(?P<file>[^\s:][^:]*?\.swift):(?P<line>\d+): error: (?P<test>-\[[\w.]+ \w+\]|[\w.]+\.\w+) : (?P<message>.+?)(?: - (?P<note>.*))?$",
    triggers=(".swift:",),
    url="https://developer.apple.com/documentation/xctest",
)
def swift_xctest(m: re.Match[str], ctx: LineContext) -> Hit:
    """A failing XCTest assertion (`swift test`, xcodebuild test).

    What it detects: `/src/Tests/ShopTests/CartTests.swift:13: error:
    CartTests.testCount : XCTAssertEqual failed: ("2") is not equal to
    ("3") - ` (Linux; macOS names the test `-[ShopTests.CartTests
    testCount]`), located at the assertion's file and line.  hint["test_id"]
    is `CartTests/testCount` (`swift test --filter` takes it),
    hint["actual"] / hint["expected"] come from `("2") is not equal to
    ("3")`.  The `Test Case '...' failed` and `Executed 2 tests, with 1
    failure` lines are not records; `with 0 failures` gives nothing.

    Example output (`swift test`, XCTest on Linux, documented format; no
    Swift toolchain can be installed here):
        /home/runner/work/shop/shop/Tests/ShopTests/CartTests.swift:13: error: CartTests.testCount : XCTAssertEqual failed: ("2") is not equal to ("3") -

    Recipe: test. Re-run the one test (`swift test --filter
    CartTests/testCount`); a real failure is escalated with expected vs
    actual.

    References: https://developer.apple.com/documentation/xctest
    """
    test_id, cls = _xctest_id(m.group("test"))
    message = m.group("message").strip()
    hint: dict[str, Any] = {"runner": "xctest", "test_id": test_id, "class": cls}
    if v := re.search(r'\("(?P<actual>.*)"\) is not equal to \("(?P<expected>.*)"\)', message):
        hint["actual"], hint["expected"] = v.group("actual"), v.group("expected")
    if m.group("note"):
        hint["note"] = m.group("note").strip()
    return Hit(
        signal=ctx.line.strip(),
        message=f"{m.group('test')}: {message}",
        file=m.group("file"),
        line=int(m.group("line")),
        hint=hint,
    )


@rule(
    id="swift.testing",
    category=FailureType.TEST,
    tool="swift-testing",
    pattern=r"^\u2718 Test (?P<name>.+?) recorded an issue at (?P<file>[^\s:][^:]*?\.swift):(?P<line>\d+):(?P<column>\d+): (?P<message>.+)$",
    triggers=(" recorded an issue at ",),
    url="https://developer.apple.com/documentation/testing",
)
def swift_testing(m: re.Match[str], ctx: LineContext) -> Hit:
    """A failing Swift Testing test (Swift 6's `@Test`).

    What it detects: `✘ Test countsTheQuantities() recorded an issue at
    CartTests.swift:13:9: Expectation failed: (cart.count → 2) == 3`: the
    file (as printed: Swift Testing names it without its folder), line and
    column, and
    the expectation (hint["actual"] from `→ 2`).  The `✘ Test ... failed
    after` and `✘ Test run with N tests failed` summaries are not records.

    Example output (`swift test`, Swift Testing 6.0's documented format; no
    Swift toolchain can be installed here):
        ✘ Test countsTheQuantities() recorded an issue at CartTests.swift:13:9: Expectation failed: (cart.count → 2) == 3

    Recipe: test. Re-run the one test (`swift test --filter
    countsTheQuantities`); a real failure is escalated.

    References: https://developer.apple.com/documentation/testing
    """
    message = m.group("message").strip()
    name = m.group("name")
    hint: dict[str, Any] = {"runner": "swift-testing", "test_id": name.removesuffix("()")}
    if v := re.search(r"\u2192 (?P<actual>[^)]+)\) == (?P<expected>.+)$", message):
        hint["actual"], hint["expected"] = v.group("actual").strip(), v.group("expected").strip()
    return Hit(
        signal=ctx.line.strip(),
        message=f"{name}: {message}",
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")),
        hint=hint,
    )


@rule(
    id="swift.fatal_error",
    category=FailureType.COMPILE,
    tool="swift",
    pattern=r"^(?P<file>[^\s:][^:]*?\.swift):(?P<line>\d+): Fatal error: (?P<message>.*)$",
    triggers=(": Fatal error: ",),
    url="https://developer.apple.com/documentation/swift/fatalerror(_:file:line:)",
)
def swift_fatal_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """A Swift program stopped by a runtime trap.

    What it detects: `Shop/Cart.swift:27: Fatal error: no item named
    cakes` (a `fatalError()`, a failed `precondition`, a force-unwrapped
    nil: `Unexpectedly found nil while unwrapping an Optional value`, an
    index out of range).  The runtime names the file as `Module/File.swift`:
    it is found under Sources/ when there; a trap inside the standard
    library (`Swift/ContiguousArrayBuffer.swift:600`) has no project
    location.  The `Current stack trace:` lines are not records.

    Example output (`swift run`, documented format; no Swift toolchain can
    be installed here):
        Shop/Cart.swift:27: Fatal error: no item named cakes

    Recipe: compile, escalated with the location.

    References: https://developer.apple.com/documentation/swift/fatalerror(_:file:line:)
    """
    file: str | None = m.group("file")
    if file and not ctx.exists(file):
        for root in ("Sources/", "Tests/"):
            if ctx.exists(root + file):
                file = root + file
                break
        else:
            file = None if file.startswith("Swift/") else file
    return Hit(
        signal=ctx.line.strip(),
        message=f"Fatal error: {m.group('message').strip()}",
        file=file,
        line=int(m.group("line")) if file else None,
    )
