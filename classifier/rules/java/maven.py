"""Java rules for Maven: surefire's failing tests and a failed build goal."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import FALLBACK, Block, Hit, LineContext
from ..causes import environment_cause
from ..registry import rule
from .common import RESOLUTION, expected_actual, source_of

_SUREFIRE_DOCS = "https://maven.apache.org/surefire/maven-surefire-plugin/"


_SUREFIRE_DETAIL = lazy_compile(
    r"^\[ERROR\] (?P<fqcn>[\w$.]+)\.(?P<method>[^\s.]+) -- Time elapsed: .* <<< (?P<kind>FAILURE|ERROR)!$"
    r"|^(?:\[ERROR\] )?(?P<method2>[^\s(]+)\((?P<fqcn2>[\w$.]+)\)\s+Time elapsed: .* <<< (?P<kind2>FAILURE|ERROR)!$"
)
_SUREFIRE_SUMMARY = lazy_compile(
    r"^\[ERROR\]   (?P<cls>[\w$.]+)\.(?P<smethod>[\w$]+)(?::(?P<sline>\d+))?(?:»\S+)? (?P<message>.*)$"
)
_FRAME = lazy_compile(r"^\s+at (?P<where>[\w$.<>]+)\((?P<file>[\w$]+\.java):(?P<line>\d+)\)$")


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
        self.caused_by: list[str] = []  # the messages of the exceptions chained to it
        self.file: str | None = None
        self.line: int | None = None
        # the first frame in the project's own code (where a cause was raised)
        self.raised: tuple[str, int] | None = None
        self._in_trace = False

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip() or line.startswith("["):
            return False
        frame = _FRAME.match(line)
        if frame:
            self._in_trace = True
            where = frame.group("where")
            if self.file is None and where == f"{self.fqcn}.{self.method}":
                self.file = source_of(self.ctx, self.fqcn, frame.group("file"))
                self.line = int(frame.group("line"))
            if self.raised is None:
                cls = where.rsplit(".", 1)[0]
                path = source_of(self.ctx, cls, frame.group("file"))
                if self.ctx.exists(path):
                    self.raised = (path, int(frame.group("line")))
            return True
        if self._in_trace and line.startswith("Caused by: "):
            self.caused_by.append(line.removeprefix("Caused by: ").strip())
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
        hint.update(expected_actual(message))
        file, line = self.file, self.line
        # a refused connection, a failed lookup, an unset variable: the test
        # failed because of its environment, where the project's code met it
        cause = environment_cause([message, *self.caused_by])
        if cause is not None:
            hint.update(cause.hint)
            if self.file is not None:
                hint.update(test_file=self.file, test_line=self.line)
            if self.raised is not None:
                file, line = self.raised
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=file,
                line=line,
                category=cause.category if cause is not None else None,
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
    A test that failed because of its environment (a refused connection,
    a failed lookup such as `java.net.UnknownHostException: db.internal`,
    an unset variable: `LEDGER_DB_URL is not set`, in its exception or one
    chained as `Caused by:`) is that cause's infra record (rules/causes.py),
    placed on the first frame in the project's code (where it met the
    environment), the test kept in hint `test_id`, `test_file`, `test_line`.

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
    hint.update(expected_actual(message))
    cause = environment_cause([message])  # `» Connect Connection refused`
    if cause is not None:
        hint.update(cause.hint)
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        category=cause.category if cause is not None else None,
        hint=hint,
        key=("surefire", simple, method),
    )


_GOAL = lazy_compile(
    r"^\[ERROR\] Failed to execute goal (?P<plugin>\S+) \((?P<execution>[^)]+)\) on project (?P<project>\S+): (?P<message>.+)$"
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
    if RESOLUTION.search(message):
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
