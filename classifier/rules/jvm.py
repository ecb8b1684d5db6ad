"""JVM: uncaught exceptions of Java, Kotlin and Scala programs."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule
from .stack import Frame, related_frames

ECOSYSTEM = "Java and the JVM"

# `\tat shop.Price.plus(Price.kt:5)`
FRAME = lazy_compile(
    r"^\s+at (?:[\w.$/@]+/)?(?P<where>[\w$.<>]+)\((?P<file>[\w$-]+\.(?:java|kt|kts|scala|groovy|clj)):(?P<line>\d+)\)$"
)
_CAUSED = lazy_compile(r"^Caused by: (?P<exc>[\w$.]+)(?::\s*(?P<message>.*))?$")
_LIBRARY_PACKAGES = (
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "com.sun.",
    "kotlin.",
    "kotlinx.",
    "scala.",
    "org.jetbrains.",
    "org.junit.",
    "org.gradle.",
    "org.apache.maven.",
    "sbt.",
)
_ROOTS = (
    "src/main/kotlin/",
    "src/main/java/",
    "src/main/scala/",
    "src/test/kotlin/",
    "src/test/java/",
    "src/test/scala/",
    "app/src/main/kotlin/",
    "app/src/main/java/",
    "src/",
    "",
)
_INFRA = frozenset(
    {
        "java.net.ConnectException",
        "java.net.UnknownHostException",
        "java.net.SocketTimeoutException",
        "java.io.IOException",
        "java.nio.file.AccessDeniedException",
        "java.lang.OutOfMemoryError",
    }
)


def source_of(ctx: LineContext, where: str, filename: str) -> str | None:
    """The source file of the method `where` (`shop.Price.plus`) named
    `filename` in a frame, when it exists under a usual source root."""
    parts = where.split(".")
    package = [p for p in parts[:-2] if p and p[0].islower()]
    folder = "/".join(package) + "/" if package else ""
    for root in _ROOTS:
        if ctx.exists(f"{root}{folder}{filename}"):
            return f"{root}{folder}{filename}"
    if where.startswith(_LIBRARY_PACKAGES):
        return None
    for root in _ROOTS:  # Kotlin and Scala files need not sit in their package's folder
        if ctx.exists(f"{root}{filename}"):
            return f"{root}{filename}"
    return None


class _Uncaught:
    max_lines = 2000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.thread = m.group("thread")
        self.exc = m.group("exc")
        self.message = (m.group("message") or "").strip()
        self.frames: list[Frame] = []
        self.caused_by: str | None = None
        self._chained = False

    def feed(self, line: str, line_no: int) -> bool:
        if frame := FRAME.match(line):
            if not self._chained:
                found = source_of(self.ctx, frame.group("where"), frame.group("file"))
                if found:
                    self.frames.append((found, int(frame.group("line"))))
            return True
        if re.match(r"^\s+(?:at |\.\.\. \d+ more)", line):
            return True
        if caused := _CAUSED.match(line):
            self._chained = True
            self.caused_by = caused.group("exc")
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        chosen = self.frames[0] if self.frames else None
        hint = {"exception": self.exc, "thread": self.thread}
        if self.caused_by:
            hint["caused_by"] = self.caused_by
        infra = self.exc in _INFRA or self.caused_by in _INFRA
        return [
            Hit(
                signal=self.signal,
                message=f"{self.exc}: {self.message}" if self.message else self.exc,
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                category=FailureType.INFRA if infra else FailureType.COMPILE,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
            )
        ]


@rule(
    id="jvm.uncaught_exception",
    category=FailureType.COMPILE,
    tool="java",
    pattern=r'^Exception in thread "(?P<thread>[^"]+)" (?P<exc>[\w$.]+)(?::\s*(?P<message>.*))?$',
    triggers=("Exception in thread ",),
    url="https://docs.oracle.com/en/java/javase/17/docs/api/java.base/java/lang/Throwable.html#printStackTrace()",
)
def jvm_uncaught_exception(m: re.Match[str], ctx: LineContext) -> Block:
    """An uncaught exception that ended a JVM program (Java, Kotlin, Scala).

    What it detects: `Exception in thread "main"
    java.lang.IllegalArgumentException: currency mismatch` and its `\\tat
    shop.Price.plus(Price.kt:5)` frames.  A frame names only the file: it is
    found under the usual source roots (src/main/kotlin, src/main/java,
    src/main/scala, src/test/..., src/) from the class's package, or, for
    Kotlin and Scala, whose files need not sit in their package's folder,
    by name; frames of the JDK, the Kotlin/Scala runtime and other libraries
    are skipped.  The innermost project frame is the location.
    hint["exception"], hint["caused_by"] (the last `Caused by:`).  Network
    and I/O exceptions are infra; the rest compile.

    Example output (`kotlin -cp shop.jar shop.MainKt`, kotlinc-jvm 1.3.31):
        Exception in thread "main" java.lang.IllegalArgumentException: currency mismatch
                at shop.Price.plus(Price.kt:5)
                at shop.Cart.total(Cart.kt:13)
                at shop.MainKt.main(Main.kt:5)

    Recipe: compile, escalated with the throwing location.

    References: https://docs.oracle.com/en/java/javase/17/docs/api/java.base/java/lang/Throwable.html#printStackTrace()
    """
    return _Uncaught(m, ctx)


@rule(
    id="jvm.main_class",
    category=FailureType.COMPILE,
    tool="java",
    pattern=(
        r"^Error: (?:Could not find or load main class (?P<missing>\S+)"
        r"|Main method not found in class (?P<nomain>[\w$.]+), please define the main method as:)$"
    ),
    triggers=("Could not find or load main class ", "Main method not found in class "),
    url="https://docs.oracle.com/en/java/javase/17/docs/specs/man/java.html",
)
def jvm_main_class(m: re.Match[str], ctx: LineContext) -> Hit:
    """`java` could not start the program: the main class is not on the
    class path, or has no `main` method.

    What it detects: `Error: Could not find or load main class Shop` (with
    `Caused by: java.lang.ClassNotFoundException: Shop` under it: the
    class was not compiled, is in another package, or the -cp is wrong) and
    `Error: Main method not found in class App, please define the main
    method as:`.  The JVM names no file: a class without main is placed
    at its source file when one is found under the usual roots
    (`src/main/java/`, ...), a missing class has no location;
    hint["class"] is the class.

    Example output (`java -cp . Shop`, OpenJDK 17.0.15):
        Error: Could not find or load main class Shop
        Caused by: java.lang.ClassNotFoundException: Shop

    Recipe: compile: escalated with the class name (compile it, or fix the
    class path or the package name); nothing is run.

    References: https://docs.oracle.com/en/java/javase/17/docs/specs/man/java.html
    """
    name = m.group("missing") or m.group("nomain")
    line = ctx.line.strip()
    file: str | None = None
    if m.group("nomain"):  # the class was found: its source is where main goes
        path = name.split("$", 1)[0].replace(".", "/")
        file = next(
            (
                f"{root}{path}{ext}"
                for root in _ROOTS
                for ext in (".java", ".kt")
                if ctx.exists(f"{root}{path}{ext}")
            ),
            None,
        )
    return Hit(signal=line, message=line.removeprefix("Error: "), file=file, hint={"class": name})
