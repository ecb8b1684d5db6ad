"""Scala: scalac 2 and Scala 3 compile errors (alone or under sbt's
`[error]` prefix), ScalaTest failures and sbt's task summaries."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, WARNINGS_FAILED, Block, Hit, LineContext, lines_above
from .registry import rule

ECOSYSTEM = "Scala"

_SBT_PREFIX = lazy_compile(r"^\[(?:error|warn|info)\] ?")
_NOT_MEMBER = lazy_compile(r"value (?P<name>\w+) is not a member of (?P<type>[\w.\[\], ]+)")
_NOT_FOUND = lazy_compile(r"not found: (?:value|type|object) (?P<name>\w+)")
_DID_YOU_MEAN = lazy_compile(r"did you mean (?:\w+\.)?(?P<suggestion>\w+)\?")


def _strip(line: str) -> str:
    return _SBT_PREFIX.sub("", line, count=1)


def scala_hint(message: str, details: dict[str, str]) -> dict[str, Any]:
    hint: dict[str, Any] = dict(details)
    if m := _NOT_MEMBER.search(message):
        hint["name"], hint["type"] = m.group("name"), m.group("type").strip()
    elif m := _NOT_FOUND.search(message):
        hint["name"] = m.group("name")
    if m := _DID_YOU_MEAN.search(message):
        hint["suggestion"] = m.group("suggestion")
    return hint


class _Scala2Error:
    """`Cart.scala:11: error: type mismatch;`, the ` found   :` / `
    required:` lines, the source line and the caret (the column)."""

    max_lines = 40

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.column = int(m.group("column")) if m.group("column") else None
        self.message = m.group("message").strip()
        self.details: dict[str, str] = {}
        self.source: str | None = None
        self.prefix = m.group("sbt") or ""  # sbt's `[error] ` or `[warn] `
        self.sbt = bool(self.prefix)
        self.warning = self.prefix == "[warn] " or m.group("err") == "warning: "

    def feed(self, line: str, line_no: int) -> bool:
        if self.sbt and not line.startswith(self.prefix):
            return False
        text = _strip(line) if self.sbt else line
        if _SCALA2.match(line) or re.match(r"^(?:\w+|\d+) errors? found$", text.strip()):
            return False
        if detail := re.match(r"^\s(?P<key>found|required)\s*: (?P<value>.+)$", text):
            self.details[detail.group("key")] = detail.group("value").strip()
            return True
        if re.match(r"^\s*\^\s*$", text):
            if self.column is None and self.source is not None:
                self.column = text.index("^") + 1
            return False  # the caret ends the report
        if self.source is None:
            self.source = text
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        message = self.message
        if "found" in self.details and "required" in self.details:
            message = f"{message.rstrip(';')}: found {self.details['found']}, required {self.details['required']}"
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                column=self.column,
                log_line=self.log_line,
                hint=scala_hint(self.message, self.details),
                warning=self.warning,
            )
        ]


_SCALA2 = lazy_compile(
    r"^(?P<sbt>\[(?:error|warn)\] )?(?P<file>(?:[A-Za-z]:)?[^\s:\[][^:]*?\.(?:scala|sc|sbt)):(?P<line>\d+):(?:(?P<column>\d+):)? (?P<err>error: |warning: )?(?P<message>.+)$"
)


@rule(
    id="scala.scalac",
    category=FailureType.COMPILE,
    tool="scalac",
    pattern=_SCALA2.pattern,
    triggers=(".scala:", ".sbt:", ".sc:"),
    url="https://docs.scala-lang.org/overviews/compiler-options/index.html",
)
def scala_scalac(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A Scala 2 compile error: scalac itself, or under sbt.

    What it detects: `src/Cart.scala:13: error: value cent is not a member
    of shop.Price` (scalac) and `[error]
    /src/main/scala/shop/Cart.scala:13:103: value cent is not a member of
    shop.Price` (sbt 1.x, which adds the column), with the ` found   : Int`
    / ` required: String` lines of a type mismatch (hint["found"],
    hint["required"]), the source line and the caret, whose position is the
    column when the line has none.  hint["name"] is a missing member or
    name.  sbt's `[warn]` lines and scalac's `warning:` lines are warning
    hits (failures with `-Xfatal-warnings`); `two errors found` is a count.

    Example output (`scalac -d out src/*.scala`, Scala 2.11.12):
        src/Cart.scala:13: error: value cent is not a member of shop.Price
          def total: Price = items.foldLeft(Price(0)) { case (sum, (_, price, quantity)) => sum + Price(price.cent * quantity) }
                                                                                                              ^

    Recipe: compile, escalated with the location and the missing name.

    References: https://docs.scala-lang.org/overviews/compiler-options/index.html,
    https://www.scala-sbt.org/1.x/docs/Running.html
    """
    if not m.group("sbt") and not m.group("err"):
        return None  # anything else naming a .scala file
    return _Scala2Error(m, ctx)


class _Scala3Error:
    """`-- [E008] Not Found Error: path:13:102 ---` and the framed lines:
    `13 | source`, `   |   ^^^^`, then the message under the caret."""

    max_lines = 60

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.column = int(m.group("column"))
        self.code = f"E{m.group('code')}" if m.group("code") else None
        self.kind = m.group("kind")
        self.sbt = ctx.line.startswith("[error]")
        self.message: list[str] = []
        self._caret = False

    def feed(self, line: str, line_no: int) -> bool:
        if self.sbt and not line.startswith("[error]"):
            return False
        text = _strip(line) if self.sbt else line
        framed = re.match(r"^\s*(?:\d+\s*)?\|(?P<body>.*)$", text)
        if not framed:
            return False
        body = framed.group("body").strip()
        if re.fullmatch(r"\^+", body):
            self._caret = True
        elif self._caret and body and not body.startswith("longer explanation"):
            self.message.append(body)
        return True

    def finish(self) -> Iterable[Hit]:
        message = " ".join(self.message) or self.kind
        details: dict[str, str] = {}
        for part in self.message:
            if found := re.match(r"^(?P<key>Found|Required):\s+(?P<value>.+)$", part):
                details[found.group("key").lower()] = found.group("value")
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                column=self.column,
                code=self.code,
                log_line=self.log_line,
                hint=scala_hint(message, details),
            )
        ]


@rule(
    id="scala.scala3",
    category=FailureType.COMPILE,
    tool="scalac",
    pattern=r"^(?:\[error\] )?-- (?:\[E(?P<code>\d+)\] )?(?P<kind>[\w ]*Error): (?P<file>\S.*?):(?P<line>\d+):(?P<column>\d+)\s*-*\s*$",
    triggers=("-- [E", "-- Error: "),
    url="https://docs.scala-lang.org/scala3/reference/error-codes.html",
)
def scala_scala3(m: re.Match[str], ctx: LineContext) -> Block:
    """A Scala 3 compile error (scalac 3, or under sbt).

    What it detects: the header `-- [E008] Not Found Error:
    /src/main/scala/shop/Cart.scala:13:102` (code `E008`; `-- Error: ...`
    without one) and the framed lines under it, `13 | <source>`, `   |
    ^^^^`, and the message under the caret (`value cent is not a member of
    shop.Price - did you mean price.cents?`: hint["name"],
    hint["suggestion"]; `Found:` / `Required:` of a type mismatch).  `--
    Warning:` headers are not failures.

    Example output (`sbt compile`, Scala 3.3's documented format; Scala 3
    cannot be resolved offline here):
        [error] -- [E008] Not Found Error: /src/main/scala/shop/Cart.scala:13:102
        [error] 13 |  def total: Price = ... Price(price.cent * quantity) }
        [error]    |                                      ^^^^^^^^^^
        [error]    |         value cent is not a member of shop.Price - did you mean price.cents?

    Recipe: compile, escalated with the location and the compiler's
    suggestion.

    References: https://docs.scala-lang.org/scala3/reference/error-codes.html
    """
    return _Scala3Error(m, ctx)


class _ScalaTestFailure:
    """`- should total the prices *** FAILED ***` and the indented lines
    under it, the first ending in `(CartSpec.scala:18)`."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.name = m.group("name")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.suite: str | None = None
        for line in lines_above(ctx, 300):
            if suite := re.match(r"^(?:\[info\] )?(?P<suite>[A-Z]\w*):$", line):
                self.suite = suite.group("suite")
                break
        self.lines: list[str] = []
        self.sbt = ctx.line.startswith("[info]")

    def feed(self, line: str, line_no: int) -> bool:
        text = _strip(line) if self.sbt else line
        if not text.startswith("  "):
            return False
        self.lines.append(text.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        message = self.lines[0] if self.lines else "test failed"
        file: str | None = None
        line: int | None = None
        if at := re.search(r" \((?P<file>[\w$-]+\.scala):(?P<line>\d+)\)$", message):
            file, line = at.group("file"), int(at.group("line"))
            message = message[: at.start()]
        hint: dict[str, Any] = {"runner": "scalatest", "test_name": self.name}
        if self.suite:
            hint["suite"] = self.suite
            hint["test_id"] = f"{self.suite} {self.name}"
        if values := re.match(
            r"^(?P<actual>.+?) (?:was not equal to|did not equal) (?P<expected>.+)$", message
        ):
            hint["actual"], hint["expected"] = values.group("actual"), values.group("expected")
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=file,
                line=line,
                log_line=self.log_line,
                hint=hint,
            )
        ]


@rule(
    id="scala.scalatest",
    category=FailureType.TEST,
    tool="scalatest",
    pattern=r"^(?:\[info\] )?- (?P<name>.+?) \*\*\* FAILED \*\*\*$",
    triggers=(" *** FAILED ***",),
    url="https://www.scalatest.org/user_guide/using_the_runner",
)
def scala_scalatest(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing ScalaTest test (sbt's standard-out reporter).

    What it detects: `[info] - should total the prices *** FAILED ***` and
    the indented message under it, `"11.[2]0 EUR" was not equal to
    "11.[3]0 EUR" (CartSpec.scala:18)`: the file and line in parentheses
    are the location (as printed: ScalaTest names the file, not its
    folder), the two values hint["actual"] and hint["expected"]; the suite
    (`CartSpec:` above) and the test name give hint["test_id"].  `*** 1
    TEST FAILED ***` and sbt's `Failed tests:` list are counts; `All tests
    passed.` gives nothing.

    Example output (`sbt test`, ScalaTest 3.2's documented reporter format;
    sbt cannot be resolved offline here):
        [info] CartSpec:
        [info] - should total the prices *** FAILED ***
        [info]   "11.[2]0 EUR" was not equal to "11.[3]0 EUR" (CartSpec.scala:18)

    Recipe: test. Re-run the one suite (`sbt "testOnly shop.CartSpec --
    -z \\"total the prices\\""`); a real failure is escalated with expected
    vs actual.

    References: https://www.scalatest.org/user_guide/using_the_runner,
    https://www.scala-sbt.org/1.x/docs/Testing.html
    """
    return _ScalaTestFailure(m, ctx)


@rule(
    id="scala.sbt_failed",
    category=FailureType.COMPILE,
    tool="sbt",
    pattern=r"^\[error\] \((?P<task>[^)]+)\) (?P<message>.+)$",
    triggers=("[error] (",),
    url="https://www.scala-sbt.org/1.x/docs/Running.html",
)
def scala_sbt_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """sbt's closing line for a failed task.

    What it detects: `[error] (Compile / compileIncremental) Compilation
    failed` and `[error] (Test / test) sbt.TestsFailedException: Tests
    unsuccessful`.  It repeats the errors or test failures above it: a
    fallback (Hit.key FALLBACK, confidence 0.5), dropped when they were
    read, and the record when it is all there is (a log cut short, a
    format no rule reads).  A test task is test, the rest compile;
    hint["task"].

    Example output (`sbt compile`, sbt 1.9's documented format):
        [error] two errors found
        [error] (Compile / compileIncremental) Compilation failed

    Recipe: compile or test: re-run the task to get the details.

    References: https://www.scala-sbt.org/1.x/docs/Running.html
    """
    task = m.group("task").strip()
    test = bool(
        re.search(r"(?i)\btest(?:Only|Quick)?$", task)
    ) or "TestsFailedException" in m.group("message")
    return Hit(
        signal=ctx.line.strip(),
        message=f"{task}: {m.group('message').strip()}",
        category=FailureType.TEST if test else FailureType.COMPILE,
        confidence=0.5,
        hint={"task": task},
        key=(FALLBACK, "sbt", task),
    )


@rule(
    id="scala.fatal_warnings",
    category=FailureType.COMPILE,
    tool="scalac",
    pattern=r"^(?:\[error\] )?(?:error: )?No warnings can be incurred under -(?:Xfatal-warnings|Werror)\.",
    triggers=("No warnings can be incurred under -",),
    url="https://docs.scala-lang.org/overviews/compiler-options/index.html",
)
def scala_fatal_warnings(m: re.Match[str], ctx: LineContext) -> Hit:
    """scalac saying its warnings failed the compilation.

    What it detects: `error: No warnings can be incurred under
    -Xfatal-warnings.` (`-Werror` in Scala 2.13 and 3): the `warning:`
    lines of the same output are then failures (docs/warnings.md), and this
    line is a record only when none of them was read.

    Example output (`scalac -Ywarn-unused-import -Xfatal-warnings ...`,
    Scala 2.11.12):
        src/Main.scala:3: warning: Unused import
        error: No warnings can be incurred under -Xfatal-warnings.

    Recipe: compile: fix the warnings (or drop the flag deliberately).

    References: https://docs.scala-lang.org/overviews/compiler-options/index.html
    """
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip().removeprefix("[error] ").removeprefix("error: "),
        code="warnings-as-errors",
        confidence=0.8,
        hint={"flag": "-Xfatal-warnings"},
        key=(WARNINGS_FAILED, "scalac"),
    )
