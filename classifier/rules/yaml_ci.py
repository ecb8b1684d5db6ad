"""YAML and CI configuration: yamllint (standard and parsable formats; its
github format is read by workflow.py) and actionlint, the GitHub Actions
workflow checker.

yamllint exits 1 for an `error`; its `warning`s fail the run only with
`--strict` (exit 2), so they are warning hits (docs/warnings.md). Every
actionlint finding fails its run (exit 1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, hit_from_match, lines_above
from .registry import rule

ECOSYSTEM = "YAML & GitHub Actions"
_YAMLLINT_RULES = "https://yamllint.readthedocs.io/en/stable/rules.html"
_STANDARD = lazy_compile(
    r"^\s+(?P<line>\d+):(?P<column>\d+)\s+(?P<level>error|warning)\s+(?P<message>.+?)\s+\((?P<code>[a-z][a-z-]*)\)\s*$"
)


def _yamllint_hit(file: str, m: re.Match[str], signal: str, line_no: int | None = None) -> Hit:
    code, level = m.group("code"), m.group("level")
    return Hit(
        signal=signal.strip(),
        message=m.group("message").strip(),
        file=file,
        line=int(m.group("line")),
        column=int(m.group("column")),
        code=code,
        log_line=line_no,
        warning=level == "warning",
        hint={"rule": code, "level": level},
    )


class _YamllintBlock:
    max_lines = 100_000

    def __init__(self, file: str) -> None:
        self.file = file
        self.hits: list[Hit] = []

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return True
        if m := _STANDARD.match(line):
            self.hits.append(_yamllint_hit(self.file, m, line, line_no))
            return True
        if not line[0].isspace() and " " not in line.strip():
            self.file = line.strip()  # the next file's header
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="yaml_ci.yamllint",
    category=FailureType.COMPILE,
    tool="yamllint",
    pattern=_STANDARD.pattern,
    triggers=("  error  ", "  warning  "),
    url=_YAMLLINT_RULES,
    priority=25,
)
def yamllint_standard(m: re.Match[str], ctx: LineContext) -> Block | None:
    """yamllint problems in its standard format (the default off a terminal).

    What it detects: the file's path alone on a line, then `  9:9  error
    message  (rule)` lines. The `(rule)` at the end tells it from eslint's
    stylish lines, which look the same. A `warning` fails the run only with
    `--strict`.

    Example output (`yamllint config.yml`, yamllint 1.38.0):
        config.yml
          1:1       warning  missing document start "---"  (document-start)
          9:9       error    wrong indentation: expected 6 but found 8  (indentation)

    Recipe: compile (edit the YAML). hint: rule, level.

    References: https://yamllint.readthedocs.io/en/stable/rules.html
    """
    header = None
    for prev in lines_above(ctx, 400):
        if not prev.strip() or _STANDARD.match(prev):
            continue
        if not prev[0].isspace() and " " not in prev.strip():
            header = prev.strip()
        break
    if header is None:
        return None
    block = _YamllintBlock(header)
    block.hits.append(_yamllint_hit(header, m, ctx.line))
    return block


@rule(
    id="yaml_ci.yamllint_parsable",
    category=FailureType.COMPILE,
    tool="yamllint",
    pattern=r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+): \[(?P<level>error|warning)\] (?P<message>.+?) \((?P<code>[a-z][a-z-]*)\)\s*$",
    triggers=(": [error] ", ": [warning] "),
    url=_YAMLLINT_RULES,
    priority=25,
)
def yamllint_parsable(m: re.Match[str], ctx: LineContext) -> Hit:
    """yamllint problems in its parsable format (`yamllint -f parsable`).

    What it detects: `config.yml:9:9: [error] message (rule)`; `[warning]`
    lines are warnings.

    Example output (`yamllint -f parsable config.yml`, yamllint 1.38.0):
        config.yml:9:9: [error] wrong indentation: expected 6 but found 8 (indentation)
        config.yml:9:16: [warning] truthy value should be one of [false, true] (truthy)

    Recipe: compile. hint: rule, level.

    References: https://yamllint.readthedocs.io/en/stable/rules.html
    """
    return _yamllint_hit(m.group("file"), m, ctx.line)


_ACTIONLINT_KINDS = (
    "syntax-check",
    "expression",
    "action",
    "runner-label",
    "shellcheck",
    "pyflakes",
    "job-needs",
    "matrix",
    "events",
    "glob",
    "permissions",
    "workflow-call",
    "credentials",
    "env-var",
    "id",
    "deprecated-commands",
    "if-cond",
)
_EMBEDDED_SC = lazy_compile(r"\b(?P<code>SC\d{4}):(?P<level>\w+):")


@rule(
    id="yaml_ci.actionlint",
    category=FailureType.COMPILE,
    tool="actionlint",
    pattern=r"^(?P<file>[^\s:][^:]*\.ya?ml):(?P<line>\d+):(?P<column>\d+): (?P<message>.+) \[(?P<kind>[a-z][a-z-]*)\]\s*$",
    triggers=tuple(f" [{k}]" for k in _ACTIONLINT_KINDS),
    url="https://github.com/rhysd/actionlint/blob/main/docs/checks.md",
    priority=25,
)
def actionlint_finding(m: re.Match[str], ctx: LineContext) -> Hit:
    """An actionlint finding in a GitHub Actions workflow.

    What it detects: `.github/workflows/ci.yml:7:14: label "ubuntu-latst"
    is unknown. ... [runner-label]` (the default format, with a source
    excerpt after it, and `-oneline`); the kind in brackets is the code. A
    `[shellcheck]` finding names the ShellCheck code it reported
    (hint["shellcheck"]).

    Example output (`actionlint .github/workflows/ci.yml`, actionlint 1.17.0):
        .github/workflows/ci.yml:4:5: unexpected key "branch" for "push" section. expected one of "branches", ... [syntax-check]
          |
        4 |     branch: [main]
          |     ^~~~~~~

    Recipe: compile (edit the workflow). hint: kind, shellcheck.

    References: https://github.com/rhysd/actionlint/blob/main/docs/checks.md
    """
    kind = m.group("kind")
    hint: dict[str, object] = {"kind": kind}
    if kind == "shellcheck" and (sc := _EMBEDDED_SC.search(m.group("message"))):
        hint["shellcheck"] = sc.group("code")
    return hit_from_match(m, ctx, signal=ctx.line.strip()[:300], code=kind, hint=hint)
