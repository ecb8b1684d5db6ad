"""The C and C++ linker rule: an undefined reference, a multiple definition,
a library ld cannot find."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import FALLBACK, Hit, LineContext, match_above
from ..registry import rule

_LD_CONTEXT = lazy_compile(
    r"^\S*ld(?:\.\w+)?: (?P<object>.+?): in function [`‘'](?P<function>.+)['’]:$"
)


@rule(
    id="c.ld",
    category=FailureType.COMPILE,
    tool="ld",
    pattern=(
        r"^(?:\S*ld(?:\.\w+)?: )?(?P<file>[^\s:][^:]*?):(?:(?P<line>\d+)|\((?P<section>[^)]*)\)): "
        r"(?P<message>(?P<kind>undefined reference to|multiple definition of) [`‘'](?P<symbol>[^'’]+)['’].*)$"
        r"|^(?P<ld>\S*ld(?:\.\w+)?): (?P<libmessage>cannot find (?P<lib>-l\S+?)(?::.*)?)$"
        r"|^(?P<driver>collect2: error: ld returned (?P<status>\d+) exit status"
        r"|\S*clang(?:\+\+)?(?:-\d+)?: error: linker command failed with exit code (?P<code>\d+).*)$"
    ),
    triggers=(
        "undefined reference to ",
        "multiple definition of ",
        "ld: cannot find -l",
        "collect2: error: ld returned",
        ": error: linker command failed",
    ),
    url="https://sourceware.org/binutils/docs/ld/",
)
def c_ld(m: re.Match[str], ctx: LineContext) -> Hit:
    """Linker errors (GNU ld through gcc or clang).

    What it detects: `file:line: undefined reference to `sym'` (with debug
    info) or `file:(.text+0x2d): undefined reference to `sym'` (without),
    `multiple definition of `sym'`, and `ld: cannot find -lfoo`.  The
    `ld: main.o: in function `main':` line before it becomes
    hint["function"]; the symbol is hint["symbol"].  The drivers' closing
    `collect2: error: ld returned 1 exit status` and `clang: error: linker
    command failed with exit code 1` repeat the failure: they are a
    fallback (Hit.key FALLBACK, confidence 0.5), dropped when the linker's
    own error was read, and the record when it was not (another linker's
    format, a log cut short).

    Example output (`make`, GNU ld 2.40 via gcc 12.2.0):
        /usr/bin/ld: main.o: in function `main':
        /work/app/main.c:7: undefined reference to `compute_total'
        collect2: error: ld returned 1 exit status

    Recipe: compile. The symbol is looked up in the workspace (a missing
    source file in the link, a missing `-l` library); nothing is applied
    blindly.

    References: https://sourceware.org/binutils/docs/ld/,
    https://gcc.gnu.org/onlinedocs/gcc/Link-Options.html
    """
    line = ctx.line.strip()
    if m.group("driver"):
        return Hit(
            signal=line,
            message=line,
            tool="collect2" if line.startswith("collect2") else "clang",
            confidence=0.5,
            key=(FALLBACK, "ld"),
        )
    if m.group("lib"):
        return Hit(
            signal=line,
            message=m.group("libmessage"),
            code="cannot-find-library",
            hint={"library": m.group("lib")[2:]},
        )
    hint: dict[str, Any] = {"symbol": m.group("symbol")}
    if context := match_above(ctx, _LD_CONTEXT, 3):
        hint["function"] = context.group("function")
        hint["object"] = context.group("object")
    kind = m.group("kind")
    return Hit(
        signal=line,
        message=m.group("message").strip(),
        file=m.group("file"),
        line=int(m.group("line")) if m.group("line") else None,
        code="undefined-reference" if kind.startswith("undefined") else "multiple-definition",
        hint=hint,
    )
