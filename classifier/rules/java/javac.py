"""Java rules for the compiler: javac, and javac's errors as Maven's compiler
plugin prints them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext
from ..registry import rule

_JAVAC_DOCS = "https://docs.oracle.com/en/java/javase/17/docs/specs/man/javac.html"

# `  symbol:   variable x`, `  location: class Main`, `  required: int` ...
_DETAIL = lazy_compile(
    r"^(?:\[ERROR\] )?\s+(?P<key>symbol|location|required|found|reason|method|class|variable)\s*: +(?P<value>.+)$"
)
_SYMBOL = lazy_compile(r"^(?P<kind>\w+) (?P<name>[\w$.]+)")
_PACKAGE_MISSING = lazy_compile(r"^package (?P<package>[\w.]+) does not exist$")


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


_JAVAC = lazy_compile(
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
