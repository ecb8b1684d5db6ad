"""Java: javac, maven (compiler plugin, surefire, build failures), gradle."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LineContext, match_above
from .registry import rule

_JAVAC_DOCS = "https://docs.oracle.com/en/java/javase/17/docs/specs/man/javac.html"
_SUREFIRE_DOCS = "https://maven.apache.org/surefire/maven-surefire-plugin/"

# `  symbol:   variable x`, `  location: class Main`, `  required: int` ...
_DETAIL = re.compile(
    r"^(?:\[ERROR\] )?\s+(?P<key>symbol|location|required|found|reason|method|class|variable)\s*: +(?P<value>.+)$"
)
_SYMBOL = re.compile(r"^(?P<kind>\w+) (?P<name>[\w$.]+)")
_PACKAGE_MISSING = re.compile(r"^package (?P<package>[\w.]+) does not exist$")
_EXPECTED = re.compile(
    r"expected:? ?<(?P<expected>.*?)> but was:? ?<(?P<actual>.*?)>"
    r"|expected \[(?P<expected2>.*?)\] but found \[(?P<actual2>.*?)\]"
)


def _java_hint(message: str, details: dict[str, str]) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    symbol = details.get("symbol")
    if symbol:
        hint["symbol"] = symbol
        kind = _SYMBOL.match(symbol)
        if kind:
            hint["symbol_kind"], hint["name"] = kind.group("kind"), kind.group("name")
    if "location" in details:
        hint["location"] = details["location"]
    for key in ("required", "found", "reason"):
        if key in details:
            hint[key] = details[key]
    package = _PACKAGE_MISSING.match(message)
    if package:
        hint["package"] = package.group("package")
    return hint


def _full_message(message: str, details: dict[str, str]) -> str:
    """`cannot find symbol` alone names no symbol: two such errors on one
    line would look the same; the symbol makes each distinct."""
    symbol = details.get("symbol")
    return f"{message}: {symbol}" if symbol and symbol not in message else message


def _expected_actual(message: str) -> dict[str, str]:
    m = _EXPECTED.search(message)
    if not m:
        return {}
    return {
        "expected": m.group("expected")
        if m.group("expected") is not None
        else m.group("expected2"),
        "actual": m.group("actual") if m.group("actual") is not None else m.group("actual2"),
    }


def _source_of(ctx: LineContext, fqcn: str, filename: str) -> str:
    """The source file of class `fqcn` (in a frame: `filename`) in a
    Maven/Gradle layout, when it exists under the working directory; the file
    name as printed otherwise."""
    package = fqcn.rsplit(".", 1)[0] if "." in fqcn else None
    folder = package.replace(".", "/") + "/" if package else ""
    for root in ("src/test/java/", "src/main/java/", "src/", ""):
        candidate = f"{root}{folder}{filename}"
        if ctx.exists(candidate):
            return candidate
    return filename


class _JavacError:
    """A javac error: the header, the source line, the caret (the column)
    and the indented `symbol:`/`location:` details."""

    max_lines = 40

    def __init__(
        self,
        ctx: LineContext,
        file: str,
        line: int,
        column: int | None,
        message: str,
        warning: bool = False,
    ) -> None:
        self.signal = ctx.line.strip()
        self.warning = warning
        self.file = file
        self.line = line
        self.column = column
        self.message = message.strip()
        self.log_line = ctx.line_no
        self.details: dict[str, str] = {}
        self._seen = 0
        self.maven = column is not None

    def feed(self, line: str, line_no: int) -> bool:
        self._seen += 1
        detail = _DETAIL.match(line)
        if detail:
            self.details.setdefault(detail.group("key"), detail.group("value").strip())
            return True
        if self.maven:
            return False  # maven prints no excerpt: only detail lines follow
        if self._seen == 1 and not _JAVAC.match(line) and not re.match(r"^\d+ errors?$", line):
            return True  # the source line
        if self._seen <= 2 and re.match(r"^\s*\^$", line):
            self.column = line.index("^") + 1
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        hint = _java_hint(self.message, self.details)
        message = _full_message(self.message, self.details)
        # The header line alone is the same for two missing symbols on one
        # line; the signal names the symbol too.
        extra = message[len(self.message) :]
        return [
            Hit(
                signal=self.signal + extra,
                message=message,
                file=self.file,
                line=self.line,
                column=self.column,
                log_line=self.log_line,
                hint=hint,
                warning=self.warning,
            )
        ]


_JAVAC = re.compile(
    r"^(?::\w+)*(?P<file>[^\s:][^:]*?\.java):(?P<line>\d+): (?P<severity>error|warning): (?P<message>.+)$"
)


@rule(
    id="java.javac",
    category=FailureType.COMPILE,
    tool="javac",
    pattern=_JAVAC.pattern,
    triggers=(".java:",),
    url=_JAVAC_DOCS,
)
def java_javac(m: re.Match[str], ctx: LineContext) -> Block:
    """javac errors (javac itself, and gradle's compileJava task).

    What it detects: `Main.java:3: error: cannot find symbol`, then the
    source line, the caret under the column, and the indented details:
    `  symbol:   variable x` (hint["symbol"], hint["symbol_kind"],
    hint["name"]) and `  location: class Main` (hint["location"]);
    `required:`/`found:`/`reason:` for type errors; `package x does not
    exist` gives hint["package"].  The symbol is part of the message, so
    two "cannot find symbol" errors on one line stay two records.  Gradle's
    plain console glues the task name to the first line
    (`:compileJava/abs/App.java:6: error: ...`); the prefix is dropped.
    A `warning:` is a warning (a failure only when the run failed because
    of it: `-Werror`, docs/warnings.md); the closing `N errors` line is not
    a record.

    Example output (`javac -d out src/com/example/Inventory.java`, javac 17.0.15):
        src/com/example/Inventory.java:7: error: cannot find symbol
                return itemCount;
                       ^
          symbol:   variable itemCount
          location: class Inventory

    Recipe: compile. A missing class is imported when the workspace (or the
    JDK) defines it; a misspelt variable is escalated with its name.

    References: https://docs.oracle.com/en/java/javase/17/docs/specs/man/javac.html
    """
    warning = m.group("severity") == "warning"
    return _JavacError(
        ctx, m.group("file"), int(m.group("line")), None, m.group("message"), warning
    )


@rule(
    id="java.maven_compiler",
    category=FailureType.COMPILE,
    tool="maven-compiler-plugin",
    pattern=r"^\[ERROR\] (?P<file>(?:[A-Za-z]:)?[^\s:\[][^\[]*?\.java):\[(?P<line>\d+),(?P<column>\d+)\] (?:error: )?(?P<message>.+)$",
    triggers=(".java:[",),
    url="https://maven.apache.org/plugins/maven-compiler-plugin/",
)
def java_maven_compiler(m: re.Match[str], ctx: LineContext) -> Block:
    """javac errors as the maven-compiler-plugin prints them.

    What it detects: `[ERROR] /abs/path/src/main/java/App.java:[5,9] cannot
    find symbol` with the `symbol:`/`location:` lines after it (plain, or
    `[ERROR]`-prefixed in the "Failed to execute goal" repeat).  Maven
    prints every error twice (under COMPILATION ERROR and again in the
    failure summary): the two prints are one record.  The absolute path is
    mapped onto the working directory.

    Example output (`mvn -o -B compile`, Apache Maven 3.8.7,
    maven-compiler-plugin 3.13.0):
        [ERROR] /work/shop/src/main/java/com/example/App.java:[6,16] cannot find symbol
          symbol:   variable summ
          location: class com.example.App

    Recipe: compile, as for java.javac.

    References: https://maven.apache.org/plugins/maven-compiler-plugin/
    """
    return _JavacError(
        ctx, m.group("file"), int(m.group("line")), int(m.group("column")), m.group("message")
    )


_SUREFIRE_DETAIL = re.compile(
    r"^\[ERROR\] (?P<fqcn>[\w$.]+)\.(?P<method>[^\s.]+) -- Time elapsed: .* <<< (?P<kind>FAILURE|ERROR)!$"
    r"|^(?:\[ERROR\] )?(?P<method2>[^\s(]+)\((?P<fqcn2>[\w$.]+)\)\s+Time elapsed: .* <<< (?P<kind2>FAILURE|ERROR)!$"
)
_SUREFIRE_SUMMARY = re.compile(
    r"^\[ERROR\]   (?P<cls>[\w$.]+)\.(?P<smethod>[\w$]+)(?::(?P<sline>\d+))?(?:»\S+)? (?P<message>.*)$"
)
_FRAME = re.compile(r"^\s+at (?P<where>[\w$.<>]+)\((?P<file>[\w$]+\.java):(?P<line>\d+)\)$")


class _SurefireFailure:
    """A surefire failure detail: the header, the exception line(s) and the
    stack trace, whose frame in the test class gives the location."""

    max_lines = 400

    def __init__(self, ctx: LineContext, fqcn: str, method: str, kind: str) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.fqcn = fqcn
        self.method = method
        self.kind = kind
        self.log_line = ctx.line_no
        self.exception: list[str] = []
        self.file: str | None = None
        self.line: int | None = None
        self._in_trace = False

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip() or line.startswith("["):
            return False
        frame = _FRAME.match(line)
        if frame:
            self._in_trace = True
            if self.file is None and frame.group("where") == f"{self.fqcn}.{self.method}":
                self.file = _source_of(self.ctx, self.fqcn, frame.group("file"))
                self.line = int(frame.group("line"))
            return True
        if self._in_trace and line.startswith(("\t", " ")):
            return True  # "... 3 more", "Caused by" continuation
        if not self._in_trace:
            self.exception.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        simple = self.fqcn.rsplit(".", 1)[-1]
        message = " ".join(self.exception) or f"test {self.kind.lower()}"
        hint: dict[str, Any] = {"test_id": f"{simple}#{self.method}", "class": self.fqcn}
        exc = re.match(r"^(?P<type>[\w$.]+(?:Error|Exception|Failure)\w*)(?::|$)", message)
        if exc:
            hint["exception"] = exc.group("type")
        hint.update(_expected_actual(message))
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                log_line=self.log_line,
                hint=hint,
                key=("surefire", simple, self.method),
            )
        ]


@rule(
    id="java.surefire",
    category=FailureType.TEST,
    tool="maven-surefire-plugin",
    pattern=f"{_SUREFIRE_DETAIL.pattern}|{_SUREFIRE_SUMMARY.pattern}",
    triggers=(" <<< FAILURE!", " <<< ERROR!", "[ERROR]   "),
    url=_SUREFIRE_DOCS,
)
def java_surefire(m: re.Match[str], ctx: LineContext) -> Hit | Block | None:
    """Failing tests in a maven (surefire) run.

    What it detects: the failure detail `[ERROR] com.example.AppTest.testAdd
    -- Time elapsed: 0.185 s <<< FAILURE!` (surefire 3; surefire 2 prints
    `testAdd(com.example.AppTest)  Time elapsed: ... <<< FAILURE!`) with
    its exception and stack trace, whose frame in the test method gives the
    file (found under src/test/java) and line; and the Results list line
    `[ERROR]   AppTest.testAdd:11 expected: <3> but was: <4>`.  Both name
    one failure and give one record: hint["test_id"] `AppTest#testAdd`
    (the form `mvn test -Dtest=...` takes), hint["expected"] and
    hint["actual"] from JUnit 4/5 (`expected:<3> but was:<4>`) and TestNG
    messages, hint["exception"].  The `Tests run: 4, Failures: 1, Errors: 1`
    lines are counts, not records, and `Tests run: 3, Failures: 0` of a
    green build gives nothing.

    Example output (`mvn -o -B test`, Apache Maven 3.8.7, surefire 3.2.5,
    JUnit 5.10.2):
        [ERROR] com.example.AppTest.testAdd -- Time elapsed: 0.185 s <<< FAILURE!
        org.opentest4j.AssertionFailedError: expected: <3> but was: <4>
                at com.example.AppTest.testAdd(AppTest.java:11)
        ...
        [ERROR] Failures:
        [ERROR]   AppTest.testAdd:11 expected: <3> but was: <4>

    Recipe: test. Re-run the one test (`mvn -o test -Dtest=AppTest#testAdd`)
    to tell flaky from real; a real failure is escalated with expected vs
    actual.

    References: https://maven.apache.org/surefire/maven-surefire-plugin/,
    https://maven.apache.org/surefire/maven-surefire-plugin/examples/single-test.html
    """
    detail = _SUREFIRE_DETAIL.match(ctx.line)
    if detail:
        fqcn = detail.group("fqcn") or detail.group("fqcn2")
        method = detail.group("method") or detail.group("method2")
        return _SurefireFailure(ctx, fqcn, method, detail.group("kind") or detail.group("kind2"))
    summary = _SUREFIRE_SUMMARY.match(ctx.line)
    if summary is None:
        return None
    message = summary.group("message").strip()
    if message.startswith("Run ") or not message:
        return None  # rerun-failing-tests sub-lines, or nothing said
    simple = summary.group("cls").rsplit(".", 1)[-1]
    method = summary.group("smethod")
    hint: dict[str, Any] = {"test_id": f"{simple}#{method}"}
    hint.update(_expected_actual(message))
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        hint=hint,
        key=("surefire", simple, method),
    )


_GOAL = re.compile(
    r"^\[ERROR\] Failed to execute goal (?P<plugin>\S+) \((?P<execution>[^)]+)\) on project (?P<project>\S+): (?P<message>.+)$"
)
_RESOLUTION = re.compile(
    r"could not be resolved|Could not resolve dependencies|Could not transfer artifact|in offline mode",
    re.IGNORECASE,
)


@rule(
    id="java.maven_failed",
    category=FailureType.COMPILE,
    tool="maven",
    pattern=_GOAL.pattern,
    triggers=("[ERROR] Failed to execute goal ",),
    url="https://maven.apache.org/guides/introduction/introduction-to-the-lifecycle.html",
)
def java_maven_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """Maven's "Failed to execute goal" line.

    What it detects: `[ERROR] Failed to execute goal <plugin> (<execution>)
    on project <name>: <message>`.  After compiler errors or test failures
    it only repeats them, so it is a fallback (Hit.key FALLBACK, confidence
    0.5) and dropped when they were read.  When it is all there is, it is
    the record: a plugin or dependency that cannot be resolved (offline,
    no repository) is infra, a surefire/failsafe goal is test, any other
    goal compile; hint["plugin"], hint["project"].

    Example output (`mvn -o -B compile`, Apache Maven 3.8.7, with a plugin
    version that is not in ~/.m2):
        [ERROR] Failed to execute goal org.apache.maven.plugins:maven-resources-plugin:2.6:resources (default-resources) on project shop: ... Cannot access central (https://repo.maven.apache.org/maven2) in offline mode ...

    Recipe: infra for resolution failures (escalated: which artifact, which
    repository); compile or test otherwise (re-run to get the details).

    References: https://maven.apache.org/guides/introduction/introduction-to-the-lifecycle.html,
    https://cwiki.apache.org/confluence/display/MAVEN/PluginResolutionException
    """
    plugin, message = m.group("plugin"), m.group("message").strip()
    if _RESOLUTION.search(message):
        category = FailureType.INFRA
    elif "surefire" in plugin or "failsafe" in plugin:
        category = FailureType.TEST
    else:
        category = FailureType.COMPILE
    return Hit(
        signal=ctx.line.strip()[:500],
        message=message.removesuffix(" -> [Help 1]"),
        category=category,
        confidence=0.5,
        hint={"plugin": plugin, "project": m.group("project"), "execution": m.group("execution")},
        key=(FALLBACK, "maven", plugin),
    )


class _GradleTest:
    """`com.example.AppTest > testAdd FAILED` and its indented exception
    line(s): `    java.lang.AssertionError at AppTest.java:10`."""

    max_lines = 60

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.fqcn = m.group("cls")
        # JUnit 5 display names end in "()" (`testAdd()`); --tests takes the name.
        self.method = m.group("method").removesuffix("()")
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        self.file: str | None = None
        self.line: int | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if not line.startswith((" ", "\t")) or not line.strip():
            return False
        text = line.strip()
        at = re.search(r" at (?P<file>[\w$]+\.java):(?P<line>\d+)$", text)
        if at and self.file is None:
            self.file = _source_of(self.ctx, self.fqcn, at.group("file"))
            self.line = int(at.group("line"))
        self.lines.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        message = " ".join(self.lines) or "test failed"
        hint: dict[str, Any] = {
            "test_id": f"{self.fqcn}.{self.method}",
            "class": self.fqcn,
            "method": self.method,
        }
        exc = re.match(r"^(?P<type>[\w$.]+)", message)
        if exc and self.lines:
            hint["exception"] = exc.group("type")
        hint.update(_expected_actual(message))
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                log_line=self.log_line,
                hint=hint,
            )
        ]


@rule(
    id="java.gradle_test",
    category=FailureType.TEST,
    tool="gradle",
    pattern=r"^(?P<cls>[\w$.]+) > (?P<method>.+?) FAILED$",
    triggers=(" FAILED",),
    url="https://docs.gradle.org/current/userguide/java_testing.html",
)
def java_gradle_test(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing test in a gradle run.

    What it detects: `com.example.AppTest > testAdd FAILED` and the
    indented exception line(s) under it (`    java.lang.AssertionError at
    AppTest.java:10`), whose file and line are the location (found under
    src/test/java from the class's package).  hint["test_id"] is
    `com.example.AppTest.testAdd`, the form `gradle test --tests` takes.
    The `2 tests completed, 1 failed` count and the task's `:test FAILED`
    are not records.

    Example output (`gradle --offline --console=plain test`, Gradle 4.4.1,
    JUnit 4.13.2):
        com.example.AppTest > testAdd FAILED
            java.lang.AssertionError at AppTest.java:10

    Recipe: test. Re-run the one test (`gradle test --tests
    com.example.AppTest.testAdd`); a real failure is escalated.

    References: https://docs.gradle.org/current/userguide/java_testing.html
    """
    return _GradleTest(m, ctx)


_BUILD_FILE_AT = re.compile(r"^Build file '(?P<file>[^']+)' line: (?P<line>\d+)$")


class _GradleFailure:
    """`* What went wrong:` and the lines up to the blank line after it."""

    max_lines = 60

    def __init__(self, ctx: LineContext) -> None:
        self.signal = ""
        self.lines: list[str] = []
        self.log_line = ctx.line_no
        self.file: str | None = None
        self.line: int | None = None
        if where := match_above(ctx, _BUILD_FILE_AT, 6):
            self.file, self.line = where.group("file"), int(where.group("line"))

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return False
        if not self.lines:
            self.signal = line.strip()
            self.log_line = line_no
        self.lines.append(line.strip().removeprefix("> ").strip())
        return True

    def finish(self) -> Iterable[Hit]:
        if not self.lines:
            return []
        message = " ".join(self.lines)
        task = re.match(r"^Execution failed for task '(?P<task>[^']+)'\.", self.lines[0])
        if task:
            name = task.group("task")
            category = FailureType.TEST if re.search(r"(?i)test$", name) else FailureType.COMPILE
            return [
                Hit(
                    signal=self.signal,
                    message=message,
                    category=category,
                    log_line=self.log_line,
                    confidence=0.5,
                    hint={"task": name},
                    key=(FALLBACK, "gradle", name),
                )
            ]
        category = FailureType.INFRA if _RESOLUTION.search(message) else FailureType.COMPILE
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                category=category,
                log_line=self.log_line,
            )
        ]


@rule(
    id="java.gradle",
    category=FailureType.COMPILE,
    tool="gradle",
    pattern=r"^\* What went wrong:$",
    triggers=("* What went wrong:",),
    url="https://docs.gradle.org/current/userguide/troubleshooting.html",
)
def java_gradle(m: re.Match[str], ctx: LineContext) -> Block:
    """Gradle's build failure report.

    What it detects: `* What went wrong:` and the lines after it.  A build
    script error (`A problem occurred evaluating root project 'shop'.` /
    `> Could not find method testCompiled() ...`) is a compile record at the
    `* Where:` location printed above it (`Build file '.../build.gradle'
    line: 10`); an unresolvable dependency is infra.  `Execution failed for
    task ':compileJava'.` / `':test'` only repeats the compiler or test
    output before it: a fallback (Hit.key FALLBACK, confidence 0.5),
    test for a test task, compile otherwise.

    Example output (`gradle --offline --console=plain build`, Gradle 4.4.1):
        * Where:
        Build file '/work/shop/build.gradle' line: 10

        * What went wrong:
        A problem occurred evaluating root project 'shop'.
        > Could not find method testCompiled() for arguments [junit:junit:4.13.2] on object of type ...

    Recipe: compile (the build script at the line named), test, or infra.

    References: https://docs.gradle.org/current/userguide/troubleshooting.html
    """
    return _GradleFailure(ctx)
