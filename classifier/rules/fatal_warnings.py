"""The lines in which a tool says its warnings failed the run.

A warning is a failure only when the run failed because of it
(classifier/warnings_policy.py, docs/warnings.md). Some tools say so in
their output: such a line keeps every warning read in the same output, and
stands as a record of its own only when no warning was read (a report
written to a file, a truncated log).
"""

from __future__ import annotations

import re

from ..taxonomy import FailureType
from .base import WARNINGS_FAILED, Hit, LineContext
from .registry import rule

ECOSYSTEM = "Any (warnings as errors)"

_TOOLS = {
    "eslint": "eslint",
    "stylelint": "stylelint",
    "cc1": "cc",  # the tool of c.compiler_error
    "javac": "javac",
}


@rule(
    id="fatal_warnings.run_failed",
    category=FailureType.COMPILE,
    tool="compiler",
    pattern=(
        r"(?P<eslint>ESLint found too many warnings \(maximum: (?P<max>-?\d+)\)\.?)"
        r"|(?P<stylelint>Max warnings exceeded: (?P<found>\d+) found\. (?P<allowed>\d+) allowed)"
        r"|^(?P<cc1>cc1(?:plus|obj|objplus)?): all warnings being treated as errors"
        r"|^(?P<javac>error: warnings found and -Werror specified)"
    ),
    triggers=(
        "ESLint found too many warnings",
        "Max warnings exceeded: ",
        "all warnings being treated as errors",
        "warnings found and -Werror specified",
    ),
    url="https://eslint.org/docs/latest/use/command-line-interface#--max-warnings",
    priority=20,
)
def warnings_failed_the_run(m: re.Match[str], ctx: LineContext) -> Hit:
    """A tool saying its warnings failed the run.

    What it detects: eslint's `ESLint found too many warnings (maximum:
    0).` and stylelint's `Max warnings exceeded: 1 found. 0 allowed`
    (`--max-warnings`), gcc's `cc1: all warnings being treated as errors`
    (`-Werror`), javac's `error: warnings found and -Werror specified`. The
    warnings of that tool printed in the same output are then failures
    (not another tool's: a CI log runs several); this line is a record only
    when none was read.

    Example output (`eslint -f json -o report.json --max-warnings 0 src`, eslint 10.15.0):
        ESLint found too many warnings (maximum: 0).

    Recipe: compile (fix the warnings, or lift the limit deliberately).
    hint: max_warnings / found / allowed when printed.

    References: https://eslint.org/docs/latest/use/command-line-interface#--max-warnings,
    https://stylelint.io/user-guide/cli#--max-warnings---mw,
    https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html#index-Werror,
    https://docs.oracle.com/en/java/javase/17/docs/specs/man/javac.html
    """
    tool = next(_TOOLS[g] for g in _TOOLS if m.group(g))
    hint: dict[str, object] = {}
    if m.group("max") is not None:
        hint["max_warnings"] = int(m.group("max"))
    if m.group("found") is not None:
        hint["found"] = int(m.group("found"))
        hint["allowed"] = int(m.group("allowed"))
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip(),
        code="warnings-as-errors",
        tool=tool,
        confidence=0.8,
        hint=hint,
        key=(WARNINGS_FAILED, tool),
    )
