"""pre-commit: the hooks a `pre-commit run` reports as Failed.

pre-commit runs formatters and linters as hooks and prints one result line
per hook (`<name>.....Passed|Failed|Skipped`); a failed hook's line is
followed by `- hook id: ID`, `- exit code: N` when it exited non-zero,
`- files were modified by this hook` when it changed files, a blank line
and the hook's own output.  A linter's own lines in that output (flake8,
ruff, mypy, eslint...) are read by the linter's rule; the hook's record
says what the hook alone says: that a formatter changed files (which
fails the run: CI has to commit them) or that it exited with a status
and printed nothing any rule knows.  So a hook's record stands only when
no other record was found in its output (`drop_explained`, called at
close by classifier/postprocess.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

if TYPE_CHECKING:
    from ..record import FailureRecord

ECOSYSTEM = "Any tool (pre-commit hooks)"
RULE_ID = "precommit.hook_failed"
# `<name><dots><status>`, padded with dots to the terminal's width (79 by
# default); a skipped hook says why before its status.
_RESULT = lazy_compile(
    r"^(?P<name>\S.*?)\.{3,}(?:\([^()]*\))?(?P<status>Passed|Failed|Skipped)\s*$"
)
_META = lazy_compile(
    r"^- (?:(?P<key>hook id|exit code|duration): (?P<value>.+?)|(?P<modified>files were modified by this hook))\s*$"
)
# what fixers print for each file they changed (pre-commit-hooks' fixers
# and isort: `Fixing F`; black: `reformatted F`)
_FIXED = lazy_compile(r"^(?:Fixing|reformatted) (?P<file>\S.*?)\s*$")
_BARE_PATH = lazy_compile(r"^(?P<file>[\w./\\-]+\.\w+)\s*$")
MAX_FILES = 20
# What pre-commit itself prints once every hook has run, with
# --show-diff-on-failure (pre_commit/commands/run.py): the last hook's output
# ended there, and the diff below it is git's, not the hook's.
_RUN_FOOTER = ("pre-commit hook(s) made changes.", "All changes made by hooks:")


class HookReport:
    """One failed hook's report, up to the next hook's result line (or
    pre-commit's footer).  The last hook's report has no such end in a longer
    log (a CI job goes on with its next step): it is read for at most
    max_lines lines, far more than the files and the first line of output it
    keeps, and enough for the linter findings that explain it to fall inside."""

    max_lines = 500

    def __init__(self, ctx: LineContext, name: str, hook_id: str, start: int) -> None:
        self.ctx = ctx
        self.name = name
        self.hook_id = hook_id
        self.start = start  # the result line's number
        self.end = ctx.line_no
        self.exit_code: int | None = None
        self.modified = False
        self.in_meta = True
        self.files: list[str] = []
        self.first: str | None = None  # the first line of the hook's own output

    def feed(self, line: str, line_no: int) -> bool | None:
        if _RESULT.match(line) or line.startswith(_RUN_FOOTER):
            return False  # the next hook's result, or the run's end: this report ended
        self.end = line_no
        if self.in_meta:
            meta = _META.match(line)
            if meta is not None:
                if meta.group("modified"):
                    self.modified = True
                elif meta.group("key") == "exit code" and meta.group("value").isdigit():
                    self.exit_code = int(meta.group("value"))
                return True
            self.in_meta = False
        text = line.strip()
        if not text:
            return None
        fixed = _FIXED.match(text) or _BARE_PATH.match(text)
        if fixed is not None and len(self.files) < MAX_FILES:
            file = self.ctx.resolve(fixed.group("file"))
            if self.ctx.in_project(file) and file not in self.files:
                self.files.append(file)
        elif self.first is None:
            self.first = text[:300]
        return None  # the hook's own output: every other rule reads it too

    def finish(self) -> Iterable[Hit]:
        if self.modified:
            n = len(self.files)
            what = f"{n} file{'s' if n != 1 else ''}" if n else "files"
            message = f"pre-commit hook {self.hook_id} modified {what}"
        elif self.exit_code is not None:
            message = f"pre-commit hook {self.hook_id} failed (exit code {self.exit_code})"
        else:
            message = f"pre-commit hook {self.hook_id} failed"
        if self.first and not self.modified:
            message = f"{message}: {self.first}"
        hint: dict[str, Any] = {
            "hook_id": self.hook_id,
            "hook_name": self.name,
            "modified": self.modified,
            "section": [self.start, self.end],
        }
        if self.exit_code is not None:
            hint["exit_code"] = self.exit_code
        if self.files:
            hint["files"] = self.files
        return [
            Hit(
                signal=f"{self.name}: Failed (hook {self.hook_id})",
                message=message,
                file=self.files[0] if self.files else None,
                code=self.hook_id,
                log_line=self.start,
                resolved=bool(self.files),
                hint=hint,
            )
        ]


@rule(
    id=RULE_ID,
    category=FailureType.COMPILE,
    tool="pre-commit",
    pattern=r"^- hook id: (?P<id>\S+)\s*$",
    triggers=("- hook id: ",),
    url="https://pre-commit.com/#pre-commit-run",
)
def hook_failed(m: re.Match[str], ctx: LineContext) -> HookReport | None:
    """A pre-commit hook that failed, when its own output explains nothing.

    What it detects: the `- hook id: ID` line under a `<name>....Failed`
    result; the report runs to the next hook's result line.  One record
    per hook that modified files (formatters, fixers: `- files were
    modified by this hook`, at the first file it names) or exited
    non-zero without any line another rule reads; a hook whose output
    holds a linter's findings is reported by those findings instead.

    Example output (`pre-commit run --all-files`, pre-commit 4.7.0):
        black....................................................................Failed
        - hook id: black
        - files were modified by this hook

        reformatted app/cart.py

    Recipe: compile (run the hook and commit what it changed, or fix what
    it reports). hint: hook_id, modified, files, exit_code.

    References: https://pre-commit.com/#pre-commit-run
    """
    before = ctx.before(1)
    result = _RESULT.match(before[-1]) if before else None
    if result is None or result.group("status") != "Failed":
        return None
    return HookReport(ctx, result.group("name"), m.group("id"), ctx.line_no - 1)


def drop_explained(records: dict[Any, FailureRecord]) -> None:
    """Drop a hook's record when another record was found in its report
    (the linter's own findings say more than "the hook failed")."""
    hooks = {k: r for k, r in records.items() if r.rule == RULE_ID}
    if not hooks:
        return
    lines = [r.log_line for r in records.values() if r.rule != RULE_ID and r.log_line]
    for k, r in hooks.items():
        start, end = r.hint.get("section", (0, -1))
        if any(start <= n <= end for n in lines):
            del records[k]
