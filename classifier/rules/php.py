"""PHP: parse and fatal errors (`php -l`, uncaught exceptions).

PHPUnit is in `php_test.py`, PHP_CodeSniffer, PHPStan and Psalm in
`php_lint.py`; both use `php_hint` and `in_library` from here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule
from .stack import related_frames

ECOSYSTEM = "PHP"

_ERRORS_DOCS = "https://www.php.net/manual/en/language.errors.php"
_LIBRARY_MARKERS = ("/vendor/", "/usr/share/php/", "phar://")

# `#0 /app/src/Cart.php(28): Shop\Cart->total()`
_TRACE_FRAME = lazy_compile(r"^#\d+ (?P<file>[^\s(][^(]*)\((?P<line>\d+)\): ")
_THROWN = lazy_compile(r"^\s+thrown in (?P<file>.+) on line (?P<line>\d+)$")
_CALLED_IN = lazy_compile(r"called in (?P<file>\S+) on line (?P<line>\d+)")
_UNCAUGHT = lazy_compile(
    r"^Uncaught (?P<exc>[A-Za-z_\\][\w\\]*): (?P<message>.*) in (?P<file>\S.*?):(?P<line>\d+)$"
)
_UNDEFINED = lazy_compile(
    r"Call to undefined (?:method (?P<cls>[\w\\]+)::(?P<method>\w+)|function (?P<function>[\w\\]+))\(\)"
    r'|Class "(?P<class>[\w\\]+)" not found'
)
_INFRA = lazy_compile(
    r"Connection refused|php_network_getaddresses|No space left on device|Permission denied"
    r"|SQLSTATE\[HY000\] \[2002\]"
)


def in_library(file: str) -> bool:
    return any(mark in file for mark in _LIBRARY_MARKERS)


def php_hint(exc: str | None, message: str) -> dict[str, Any]:
    """What a recipe needs from a PHP error: the exception class and the
    undefined method, function or class."""
    hint: dict[str, Any] = {"exception": exc} if exc else {}
    if m := _UNDEFINED.search(message):
        name = m.group("method") or m.group("function") or m.group("class")
        hint["name"] = name.rsplit("\\", 1)[-1]
        if m.group("cls"):
            hint["class"] = m.group("cls")
        elif m.group("class"):
            hint["class"] = m.group("class")
    return hint


class _PhpError:
    """`PHP Fatal error:  Uncaught Error: ... in /app/src/Cart.php:28`, the
    `Stack trace:` frames and `  thrown in ... on line 28`."""

    max_lines = 200

    def __init__(
        self, ctx: LineContext, level: str, message: str, file: str | None, line: int | None
    ) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.level = level
        self.log_line = ctx.line_no
        self.exc: str | None = None
        self.exc_name: str | None = None
        self.message = message
        self.file, self.line = file, line
        if uncaught := _UNCAUGHT.match(message):
            self.exc = uncaught.group("exc")
            self.message = uncaught.group("message")
            self.file, self.line = uncaught.group("file"), int(uncaught.group("line"))
        self.exc_name = self.exc  # self.exc is cleared when the report ends
        self.frames: list[tuple[str, int]] = []
        self._trace = False

    def feed(self, line: str, line_no: int) -> bool:
        if self.exc is None:
            return False
        if line.startswith("Stack trace:"):
            self._trace = True
            return True
        if self._trace and (frame := _TRACE_FRAME.match(line)):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        if self._trace and line.startswith("#") and "{main}" in line:
            return True
        if _THROWN.match(line):
            self.exc = None  # the report's last line
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        where: tuple[str | None, int | None] = (self.file, self.line)
        if called := _CALLED_IN.search(self.message):
            # A TypeError of an argument: the caller passed the wrong value.
            where = (called.group("file"), int(called.group("line")))
        elif self.file and (in_library(self.file) or not self.ctx.in_project(self.file)):
            for f, n in self.frames:
                if self.ctx.in_project(f) and not in_library(f):
                    where = (f, n)
                    break
        chosen = (where[0], where[1]) if where[0] and where[1] else None
        category = FailureType.INFRA if _INFRA.search(self.message) else FailureType.COMPILE
        text = f"{self.exc_name}: {self.message}" if self.exc_name else self.message
        hint = php_hint(self.exc_name, self.message)
        hint["level"] = self.level
        return [
            Hit(
                signal=self.signal,
                message=text,
                file=where[0],
                line=where[1],
                category=category,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
                # `PHP Fatal error:` (the log, on stderr) and `Fatal error:`
                # (display_errors) print one error twice.
                key=("php", self.level, where[0], where[1], text),
            )
        ]


@rule(
    id="php.error",
    category=FailureType.COMPILE,
    tool="php",
    pattern=r"^(?:PHP )?(?P<level>Parse error|Fatal error|Recoverable fatal error|Compile error|Core error):\s+(?P<message>.+?)(?: in (?P<file>\S.*?) on line (?P<line>\d+))?$",
    triggers=("Parse error: ", "Fatal error: ", "Compile error: ", "Core error: "),
    url=_ERRORS_DOCS,
)
def php_error(m: re.Match[str], ctx: LineContext) -> Block:
    """A PHP parse error or fatal error (`php -l`, or any run).

    What it detects: `PHP Parse error:  syntax error, unexpected token "}",
    expecting ";" in src/Price.php on line 18` (`php -l`; `Parse error:`
    when display_errors is on), and `PHP Fatal error:  Uncaught Error: Call
    to undefined method Shop\\Price::getCents() in /app/src/Cart.php:28`
    with its `Stack trace:` and `  thrown in ... on line 28` lines; other
    fatal errors (`Cannot redeclare ...`, `Allowed memory size ...`) with
    `in FILE on line N`.  The error log (stderr, `PHP ` prefix) and
    display_errors (stdout) print one error twice: one record.  An uncaught
    TypeError saying `called in /app/checkout.php on line 10` is located at
    the caller; an exception thrown inside vendor/ at the first project
    frame.  hint["exception"], hint["name"] (an undefined method, function
    or class), hint["level"].  A connection or disk error is infra; the
    rest compile.  Warnings, notices and deprecations are not failures, nor
    is `No syntax errors detected in src/Cart.php`.

    Example output (`php checkout.php`, PHP 8.2.36):
        PHP Fatal error:  Uncaught Error: Call to undefined method Shop\\Price::getCents() in /app/src/Cart.php:28
        Stack trace:
        #0 /app/checkout.php(11): Shop\\Cart->total()
        #1 {main}
          thrown in /app/src/Cart.php on line 28

    Recipe: compile, escalated with the location and the undefined name.

    References: https://www.php.net/manual/en/language.errors.php,
    https://www.php.net/manual/en/features.commandline.options.php
    """
    line = m.group("line")
    return _PhpError(
        ctx,
        m.group("level"),
        m.group("message").strip(),
        m.group("file"),
        int(line) if line else None,
    )
