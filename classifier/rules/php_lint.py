"""PHP's linters and static analysers: PHP_CodeSniffer, PHPStan, Psalm."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, hit_from_match
from .php import php_hint
from .registry import rule

ECOSYSTEM = "PHP"

# -- PHP_CodeSniffer, PHPStan, Psalm ---------------------------------------------
_PHPCS_ROW = lazy_compile(
    r"^\s*(?P<line>\d+) \| (?P<sev>ERROR|WARNING) \| (?:\[[ x]\] )?(?P<message>.+?)\s*$"
)
_PHPCS_MORE = lazy_compile(r"^\s+\|\s+\|\s+(?P<more>.+?)\s*$")
_PHPCS_SNIFF = lazy_compile(r"^(?P<message>.*?)\s*\((?P<code>[A-Z][\w]*(?:\.[\w]+){2,})\)$")


class _PhpcsFile:
    """`FILE: /app/src/Cart.php` and its ` 35 | ERROR | ...` rows."""

    max_lines = 50_000

    def __init__(self, ctx: LineContext, file: str) -> None:
        self.file = file
        self.rows: list[tuple[int, str, list[str], str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith(("FILE: ", "Time: ")):
            return False
        if row := _PHPCS_ROW.match(line):
            self.rows.append(
                (
                    int(row.group("line")),
                    row.group("sev"),
                    [row.group("message")],
                    line.strip(),
                    line_no,
                )
            )
            return True
        if self.rows and (more := _PHPCS_MORE.match(line)):
            self.rows[-1][2].append(more.group("more"))
        return True

    def finish(self) -> Iterable[Hit]:
        hits = []
        for line, sev, parts, signal, log_line in self.rows:
            message = " ".join(parts)
            code = None
            if sniff := _PHPCS_SNIFF.match(message):
                message, code = sniff.group("message"), sniff.group("code")
            hits.append(
                Hit(
                    signal=signal,
                    message=message,
                    file=self.file,
                    line=line,
                    code=code,
                    log_line=log_line,
                    hint={"severity": sev.lower()},
                )
            )
        return hits


@rule(
    id="php.phpcs",
    category=FailureType.COMPILE,
    tool="phpcs",
    pattern=r"^FILE: (?P<file>\S.*?)\s*$",
    triggers=("FILE: ",),
    url="https://github.com/squizlabs/PHP_CodeSniffer/wiki/Reporting",
)
def php_phpcs(m: re.Match[str], ctx: LineContext) -> Block:
    """PHP_CodeSniffer violations (the default `full` report).

    What it detects: `FILE: /app/src/Cart.php`, then each ` 35 | ERROR | [x]
    Opening brace should be on a new line` row (continued on `    |       |`
    lines; `(Squiz.Functions....)` with `-s` becomes the code).  phpcs exits
    non-zero for errors and, by default, warnings: each row is a record,
    hint["severity"].  `(0 errors, 0 warnings)` progress lines give nothing.

    Example output (`phpcs --standard=PSR12 src`, PHP_CodeSniffer 3.7.1):
        FILE: /app/src/Cart.php
        ----------------------------------------------------------------------
        FOUND 2 ERRORS AFFECTING 2 LINES
        ----------------------------------------------------------------------
         35 | ERROR | [x] Opening brace should be on a new line

    Recipe: compile: `phpcbf FILE` fixes the `[x]` ones; the rest are
    escalated.

    References: https://github.com/squizlabs/PHP_CodeSniffer/wiki/Reporting
    """
    return _PhpcsFile(ctx, m.group("file"))


@rule(
    id="php.phpcs_emacs",
    category=FailureType.COMPILE,
    tool="phpcs",
    pattern=r"^(?P<file>[^\s:][^:]*?\.(?:php|inc|phtml)):(?P<line>\d+):(?P<column>\d+): (?P<sev>error|warning) - (?P<message>.+)$",
    triggers=(": error - ", ": warning - "),
    url="https://github.com/squizlabs/PHP_CodeSniffer/wiki/Reporting",
)
def php_phpcs_emacs(m: re.Match[str], ctx: LineContext) -> Hit:
    """PHP_CodeSniffer's emacs report (`--report=emacs`).

    What it detects: `/app/src/Cart.php:35:29: error - Opening brace should
    be on a new line` (and `warning - `, which fails the run too).

    Example output (`phpcs --standard=PSR12 --report=emacs src`,
    PHP_CodeSniffer 3.7.1):
        /app/src/Cart.php:36:3: error - Line indented incorrectly; expected at least 4 spaces, found 2

    Recipe: compile, as for php.phpcs.

    References: https://github.com/squizlabs/PHP_CodeSniffer/wiki/Reporting
    """
    return hit_from_match(m, ctx, hint={"severity": m.group("sev")})


_PHPSTAN_ROW = lazy_compile(r"^  (?P<line>\d+)\s{2,}(?P<message>\S.*?)\s*$")
_PHPSTAN_MORE = lazy_compile(r"^ {9}(?P<more>\S.*?)\s*$")
_PHPSTAN_IDENTIFIER = "\U0001faaa"  # 🪪
_PHPSTAN_TIP = "\U0001f4a1"  # 💡


class _PhpstanFile:
    """`  Line   src/Cart.php` and the rows of its table."""

    max_lines = 50_000

    def __init__(self, ctx: LineContext, file: str) -> None:
        self.file = file
        self.rows: list[tuple[int, list[str], str | None, str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        if (
            line.startswith(" [ERROR] ")
            or line.startswith(" [OK] ")
            or line.startswith("  Line   ")
        ):
            return False
        if row := _PHPSTAN_ROW.match(line):
            self.rows.append(
                (int(row.group("line")), [row.group("message")], None, line.strip(), line_no)
            )
            return True
        if self.rows and (more := _PHPSTAN_MORE.match(line)):
            text = more.group("more")
            line_, parts, _, signal, log_line = self.rows[-1]
            if text.startswith(_PHPSTAN_IDENTIFIER):
                self.rows[-1] = (
                    line_,
                    parts,
                    text.lstrip(_PHPSTAN_IDENTIFIER).strip(),
                    signal,
                    log_line,
                )
            elif not text.startswith(_PHPSTAN_TIP):
                parts.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        return [
            Hit(
                signal=signal,
                message=" ".join(parts),
                file=self.file,
                line=line,
                code=identifier,
                log_line=log_line,
                hint=php_hint(None, " ".join(parts).replace("an undefined", "undefined")),
            )
            for line, parts, identifier, signal, log_line in self.rows
        ]


@rule(
    id="php.phpstan",
    category=FailureType.COMPILE,
    tool="phpstan",
    pattern=r"^  Line   (?P<file>\S.*?)\s*$",
    triggers=("  Line   ",),
    url="https://phpstan.org/user-guide/output-format",
)
def php_phpstan(m: re.Match[str], ctx: LineContext) -> Block:
    """PHPStan errors (the default `table` error format).

    What it detects: a file's table, `  Line   src/Cart.php` between ` ------`
    rules, and each row under it, `  28     Call to an undefined method
    Shop\\Price::getCents().` (a long message continues on lines indented
    nine spaces; PHPStan 1.11+ adds the error identifier `🪪
    method.notFound`, which becomes the code; `💡` tips are dropped).
    Every row fails the run (` [ERROR] Found 3 errors`); hint["name"] is an
    undefined method, function or class.  ` [OK] No errors` gives nothing.
    `--error-format=raw` lines are read by the generic `file:line:` rule.

    Example output (`vendor/bin/phpstan analyse --level 6 src`, PHPStan's
    documented table format; not installable here):
         ------ ---------------------------------------------------------
          Line   src/Cart.php
         ------ ---------------------------------------------------------
          28     Call to an undefined method Shop\\Price::getCents().
                 🪪  method.notFound

    Recipe: compile, escalated with the location and the message.

    References: https://phpstan.org/user-guide/output-format,
    https://phpstan.org/error-identifiers
    """
    return _PhpstanFile(ctx, m.group("file"))


@rule(
    id="php.psalm",
    category=FailureType.COMPILE,
    tool="psalm",
    pattern=r"^(?P<sev>ERROR): (?P<code>[A-Z]\w+) - (?P<file>[^\s:][^:]*?):(?P<line>\d+):(?P<column>\d+) - (?P<message>.+?)(?: \(see (?P<url>https://psalm\.dev/\d+)\))?$",
    triggers=("ERROR: ",),
    url="https://psalm.dev/docs/running_psalm/command_line_usage/",
)
def php_psalm(m: re.Match[str], ctx: LineContext) -> Hit:
    """A Psalm issue (the default console report).

    What it detects: `ERROR: UndefinedMethod - src/Cart.php:28:60 - Method
    Shop\\Price::getCents does not exist (see https://psalm.dev/022)`; the
    issue type is the code, hint["url"] the issue's page, hint["name"] the
    undefined method.  `INFO:` issues (below the configured error level) do
    not fail the run and are not matched, nor is `No errors found!`.

    Example output (`vendor/bin/psalm`, Psalm's documented console format;
    not installable here):
        ERROR: UndefinedMethod - src/Cart.php:28:60 - Method Shop\\Price::getCents does not exist (see https://psalm.dev/022)

    Recipe: compile, escalated with the location and the message.

    References: https://psalm.dev/docs/running_psalm/command_line_usage/,
    https://psalm.dev/docs/running_psalm/issues/
    """
    hint: dict[str, Any] = {}
    if m.group("url"):
        hint["url"] = m.group("url")
    if undefined := re.match(
        r"^Method (?P<cls>[\w\\]+)::(?P<name>\w+) does not exist", m.group("message")
    ):
        hint["name"], hint["class"] = undefined.group("name"), undefined.group("cls")
    return hit_from_match(m, ctx, hint=hint)
