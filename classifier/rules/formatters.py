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
# `gofmt -d`'s header for a file it would change, and the diff's first hunk.
_GO_DIFF = lazy_compile(r"^diff (?:-u )?(?P<orig>\S+\.go)\.orig (?P<file>\S+\.go)$")
_HUNK = lazy_compile(r"^@@ -(?P<line>\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")
# Lines a CI log puts between the command and its output: a shell's trace
# (`+ test -z main.go`), the runner's step lines (`##[endgroup]`, `shell:`).
_BETWEEN = ("+", "##[", "shell:", "$ ")
_FAILED_STEP = lazy_compile(r"exit (?:code|status) [1-9]|\] Error [1-9]")
_DIFF_BODY = (" ", "+", "-", "@@", "\\")
_OTHER_LINES = 3  # lines of the step's own (an `echo`) before gofmt's first file


class _GofmtList:
    """The files `gofmt -l` lists (or `gofmt -d` shows a diff of) on the
    lines after the command; a step that failed with none listed (`test -z
    "$(gofmt -l .)"`) is one record."""

    max_lines = 20_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.files: dict[str, int | None] = {}
        self.failed = False
        # a runner's step header (`##[group]Run gofmt -l .`): its script
        # is echoed up to `##[endgroup]`
        self.in_script = self.signal.startswith("##[group]")
        self.in_diff: str | None = None
        self.cursor = 0  # the old file's line the diff is at
        self.other = 0

    def feed(self, line: str, line_no: int) -> bool | None:
        text = line.rstrip("\r\n")
        if self.in_script:
            if text.startswith("##[endgroup]"):
                self.in_script = False
            return True
        if (d := _GO_DIFF.match(text)) is not None:
            self.in_diff = d.group("file")
            self.files.setdefault(self.in_diff, None)
            return True
        if self.in_diff is not None and (text.startswith(_DIFF_BODY) or not text.strip()):
            # a context line that is blank in the file may reach us without
            # its leading space (a log that trims line ends)
            self._diff_line(self.in_diff, text if text.strip() else " ")
            return True
        self.in_diff = None
        if _GO_FILE.match(text.strip()):
            self.files.setdefault(text.strip(), None)
            return True
        if _FAILED_STEP.search(text):
            self.failed = True
            return False
        if text.startswith(_BETWEEN) or not text.strip():
            return None
        if not self.files and self.other < _OTHER_LINES:
            self.other += 1
            return None
        return False

    def _diff_line(self, file: str, text: str) -> None:
        """The first line the diff changes: its hunk's start, counted on
        over the context lines above the first removed one."""
        if self.files.get(file) is not None or text.startswith(("---", "+++")):
            return
        if hunk := _HUNK.match(text):
            self.cursor = int(hunk.group("line"))
        elif text.startswith(" "):
            self.cursor += 1
        elif text.startswith(("-", "+")) and self.cursor:
            self.files[file] = self.cursor

    def finish(self) -> Iterable[Hit]:
        for file, line in self.files.items():
            yield Hit(
                signal=file,
                message=f"{file}: not formatted (gofmt)",
                file=file,
                line=line,
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
    lists, one bare `*.go` path a line, or the diff `gofmt -d` prints for
    each (`diff route.go.orig route.go`, the first hunk's line): one
    record per file. A runner's step header (`##[group]Run if [ -n
    "$(gofmt -l .)" ]; then`) echoes the step's script up to
    `##[endgroup]`; a line or two the script prints itself (`echo 'Go code
    is not formatted:'`) may come before the files. When the
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
