"""Kotlin: kotlinc diagnostics and the Kotlin Gradle plugin's `e:` lines."""

from __future__ import annotations

import re
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, hit_from_match
from .registry import rule

ECOSYSTEM = "Kotlin"

_KOTLIN_DOCS = "https://kotlinlang.org/docs/command-line.html"
_WERROR = "warnings found and -Werror specified"
_UNRESOLVED = lazy_compile(r"[Uu]nresolved reference:? '?(?P<name>[\w.`]+?)'?\.?$")
_MISMATCH = lazy_compile(
    r"inferred type is (?P<found>.+?) but (?P<required>.+?) was expected"
    r"|expected '(?P<required2>[^']+)', actual '(?P<found2>[^']+)'"
)


def kotlin_hint(message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    if m := _UNRESOLVED.search(message):
        hint["name"] = m.group("name").strip("`")
    elif m := _MISMATCH.search(message):
        hint["required"] = m.group("required") or m.group("required2")
        hint["found"] = m.group("found") or m.group("found2")
    return hint


class _KotlincError:
    """`src/Cart.kt:13:96: error: ...`, the source line and the caret."""

    max_lines = 3

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        message = m.group("message").strip()
        warning = m.group("sev") == "warning"
        hint = kotlin_hint(message)
        if warning and any(_WERROR in x for x in ctx.before(60)):
            # kotlinc says it first, then prints the warnings it failed on
            warning = False
            hint.update(warning=True, warnings_fail=f"the output says so: error: {_WERROR}")
        self.hit = hit_from_match(
            m,
            ctx,
            message=message,
            log_line=ctx.line_no,
            hint=hint,
            warning=warning,
        )
        self._seen = 0

    def feed(self, line: str, line_no: int) -> bool:
        self._seen += 1
        if self._seen == 1:
            return not re.match(r"^\S+\.kts?:\d+:\d+: ", line)
        return self._seen == 2 and bool(re.match(r"^\s*\^\s*$", line))

    def finish(self) -> list[Hit]:
        return [self.hit]


@rule(
    id="kotlin.kotlinc",
    category=FailureType.COMPILE,
    tool="kotlinc",
    pattern=r"^(?P<file>[^\s:][^:]*?\.kts?):(?P<line>\d+):(?P<column>\d+): (?P<sev>error|warning): (?P<message>.+)$",
    triggers=(": error: ", ": warning: "),
    url=_KOTLIN_DOCS,
)
def kotlin_kotlinc(m: re.Match[str], ctx: LineContext) -> Block:
    """A kotlinc compile error.

    What it detects: `src/Cart.kt:13:96: error: unresolved reference: cent`
    (Kotlin 2 writes `unresolved reference 'cent'.`), then the source line
    and a caret under the column, which are part of the report.
    hint["name"] is an unresolved name, hint["required"] / hint["found"] the
    types of a type mismatch.  `warning:` lines are warning hits (failures
    with `-Werror`, docs/warnings.md); after kotlinc's `error: warnings found
    and -Werror specified` they are failures (hint["warnings_fail"]).  The
    JVM's own `OpenJDK 64-Bit Server VM warning:` is not read.

    Example output (`kotlinc src -d shop.jar`, kotlinc-jvm 1.3.31):
        src/Cart.kt:13:96: error: unresolved reference: cent
            fun total(): Price = items.fold(Price(0)) { sum, (_, price, quantity) -> sum + Price(price.cent * quantity) }
                                                                                                   ^

    Recipe: compile, escalated with the location and the unresolved name.

    References: https://kotlinlang.org/docs/command-line.html
    """
    return _KotlincError(m, ctx)


@rule(
    id="kotlin.gradle",
    category=FailureType.COMPILE,
    tool="kotlin-gradle-plugin",
    pattern=r"^(?P<sev>[ew]): (?:file://)?(?P<file>/[^:]*?\.kts?|[CD]:[^:]*?\.kts?)(?::(?P<line>\d+):(?P<column>\d+)|: \((?P<line2>\d+), (?P<column2>\d+)\):) (?P<message>.+)$",
    triggers=("e: file:", "e: /", "e: C:", "e: D:", "w: file:", "w: /", "w: C:", "w: D:"),
    url="https://kotlinlang.org/docs/gradle-compilation-and-caches.html",
)
def kotlin_gradle(m: re.Match[str], ctx: LineContext) -> Hit:
    """A Kotlin compile error as the Kotlin Gradle (and Maven) plugin prints it.

    What it detects: `e: file:///src/main/kotlin/shop/Cart.kt:13:96
    Unresolved reference 'cent'.` (plugin 1.8 and later) and `e:
    /src/main/kotlin/shop/Cart.kt: (13, 96): Unresolved reference: cent`
    (before 1.8); the CI runner's absolute path is mapped onto the working
    tree.  `w:` lines are warning hits (docs/warnings.md); Gradle's `Execution failed for
    task ':compileKotlin'` summary is dropped when these lines were read.

    Example output (`./gradlew build`, Kotlin Gradle plugin 2.x, documented
    format; the plugin cannot be resolved offline here):
        e: file:///home/runner/work/shop/shop/src/main/kotlin/shop/Cart.kt:13:96 Unresolved reference 'cent'.

    Recipe: compile, as for kotlin.kotlinc.

    References: https://kotlinlang.org/docs/gradle-compilation-and-caches.html
    """
    message = m.group("message").strip()
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line") or m.group("line2")),
        column=int(m.group("column") or m.group("column2")),
        hint=kotlin_hint(message),
        warning=m.group("sev") == "w",
    )
