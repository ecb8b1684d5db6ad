"""Java rules for Gradle: failing tests and a failed build."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import FALLBACK, Block, Hit, LineContext, match_above
from ..registry import rule
from .common import RESOLUTION, expected_actual, source_of


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
            self.file = source_of(self.ctx, self.fqcn, at.group("file"))
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
        hint.update(expected_actual(message))
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


_BUILD_FILE_AT = lazy_compile(r"^Build file '(?P<file>[^']+)' line: (?P<line>\d+)$")


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
        category = FailureType.INFRA if RESOLUTION.search(message) else FailureType.COMPILE
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
