"""Formatter checks that list the files they would change: ruff format
(before 0.9), rustfmt / cargo fmt, gofmt -l.  black, isort, prettier and
oxfmt have their own families' rules (py_lint, js_lint, oxc);
`clang-format --dry-run -Werror` prints compiler-shaped diagnostics that
c.compiler_error reads."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

ECOSYSTEM = "Any tool (format checks)"


def _not_formatted(ctx: LineContext, file: str, formatter: str, line: int | None = None) -> Hit:
    return Hit(
        signal=ctx.line.strip(),
        message=f"{file}: not formatted ({formatter})",
        file=file,
        line=line,
        code=f"{formatter.split()[0]}-check",
        hint={"formatter": formatter.split()[0]},
    )


@rule(
    id="formatters.ruff_format",
    category=FailureType.COMPILE,
    tool="ruff",
    pattern=r"^Would reformat: (?P<file>\S.*?\.pyi?)\s*$",
    triggers=("Would reformat: ",),
    url="https://docs.astral.sh/ruff/formatter/",
    priority=20,
)
def ruff_format(m: re.Match[str], ctx: LineContext) -> Hit:
    """`ruff format --check` finding a file it would reformat (ruff before
    0.9; later releases print a diagnostic that python.ruff_full reads).

    What it detects: `Would reformat: FILE`, one line per file; the closing
    `N file(s) would be reformatted` is not a record.

    Example output (`ruff format --check --no-cache .`, ruff 0.4.10):
        Would reformat: app.py
        1 file would be reformatted, 1 file already formatted

    Recipe: compile (`ruff format FILE` reformats it). hint: formatter.

    References: https://docs.astral.sh/ruff/formatter/
    """
    return _not_formatted(ctx, m.group("file"), "ruff format")


@rule(
    id="formatters.rustfmt",
    category=FailureType.COMPILE,
    tool="rustfmt",
    pattern=r"^Diff in (?P<file>\S.*?\.rs)(?::(?P<line>\d+)| at line (?P<old>\d+)):\s*$",
    triggers=("Diff in ",),
    url="https://github.com/rust-lang/rustfmt#checking-style-on-a-ci-server",
    priority=20,
)
def rustfmt(m: re.Match[str], ctx: LineContext) -> Hit:
    """`cargo fmt --check` / `rustfmt --check` finding code it would change.

    What it detects: the header of each hunk of rustfmt's check diff,
    `Diff in FILE:LINE:` (rustfmt 1.5 and later) or `Diff in FILE at line
    N:` (earlier), the diff lines under it. One record per hunk (the file
    and the first line it would change).

    Example output (`cargo fmt --check`, rustfmt 1.9.0-stable):
        Diff in /work/app/src/lib.rs:1:
        -pub fn add(a:i32,b:i32)->i32{a+b}
        +pub fn add(a: i32, b: i32) -> i32 {
        +    a + b
        +}

    Recipe: compile (`cargo fmt` reformats it). hint: formatter.

    References: https://github.com/rust-lang/rustfmt#checking-style-on-a-ci-server
    """
    line = m.group("line") or m.group("old")
    return _not_formatted(ctx, m.group("file"), "rustfmt --check", int(line))


_GO_FILE = lazy_compile(r"^(?:\./)?[\w./-]+\.go$")
# Lines a CI log puts between the command and its output: a shell's trace
# (`+ test -z main.go`), the runner's step lines (`##[endgroup]`, `shell:`).
_BETWEEN = ("+", "##[", "shell:", "$ ")
_FAILED_STEP = lazy_compile(r"exit (?:code|status) [1-9]|\] Error [1-9]")


class _GofmtList:
    """The files `gofmt -l` lists on the lines after the command; a step
    that failed with none listed (`test -z "$(gofmt -l .)"`) is one record."""

    max_lines = 200

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.files: list[str] = []
        self.failed = False

    def feed(self, line: str, line_no: int) -> bool | None:
        text = line.strip()
        if _GO_FILE.match(text):
            self.files.append(text)
            return True
        if _FAILED_STEP.search(text):
            self.failed = True
            return False
        return None if text.startswith(_BETWEEN) or not text else False

    def finish(self) -> Iterable[Hit]:
        for file in self.files:
            yield Hit(
                signal=file,
                message=f"{file}: not formatted (gofmt -l)",
                file=file,
                code="gofmt-check",
                hint={"formatter": "gofmt"},
            )
        if not self.files and self.failed:
            yield Hit(
                signal=self.signal,
                message="gofmt -l listed files that are not formatted",
                code="gofmt-check",
                log_line=self.log_line,
                hint={"formatter": "gofmt"},
            )


@rule(
    id="formatters.gofmt_list",
    category=FailureType.COMPILE,
    tool="gofmt",
    pattern=r"gofmt (?:-\w+ )*-l\b",
    triggers=("gofmt -l", "gofmt -s -l"),
    url="https://pkg.go.dev/cmd/gofmt",
    priority=20,
)
def gofmt_list(m: re.Match[str], ctx: LineContext) -> _GofmtList:
    """`gofmt -l` listing the Go files that are not formatted, as a CI
    check runs it.

    What it detects: a line that runs `gofmt -l` (the command echoed by
    make, by a runner's step header, by a shell trace), then the files it
    lists, one bare `*.go` path a line: one record per file. When the
    check prints nothing but fails (`test -z "$(gofmt -l .)"`), the step's
    non-zero exit just under the command (`exit code 1`, make's `Error 1`)
    makes one record without a file. A `gofmt -l` that lists nothing and
    does not fail is no record.

    Example output (`make fmt-check`, go1.19.8; the target runs
    `test -z "$(gofmt -l .)" || (gofmt -l . && exit 1)`):
        test -z "$(gofmt -l .)" || (gofmt -l . && exit 1)
        main.go
        make: *** [Makefile:2: fmt-check] Error 1

    Recipe: compile (`gofmt -w FILE` reformats it). hint: formatter.

    References: https://pkg.go.dev/cmd/gofmt
    """
    return _GofmtList(ctx)
