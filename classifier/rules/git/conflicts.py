"""git rules for what stops a merge, pull, rebase or cherry-pick: conflicts,
unmerged paths, local changes in the way."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...lazyre import lazy_compile
from ..base import Hit, LineContext
from ..registry import rule
from .common import BD, DOCS_PULL, DOCS_STATUS, branch_before, fetched

_DOCS_MERGE = "https://git-scm.com/docs/git-merge#_how_conflicts_are_presented"

_CONFLICT = lazy_compile(r"^CONFLICT \((?P<kind>[^)]+)\): (?P<rest>.+)$")
_MERGE_CONFLICT_IN = lazy_compile(r"Merge conflict in (?P<file>.+?)\s*$")
_RENAMED_TO = lazy_compile(r"renamed to (?P<file>\S+?)(?: in |,|$)")
_DELETED_IN = lazy_compile(r"^(?P<file>\S+) deleted in ")
_COULD_NOT_APPLY = lazy_compile(
    r"^(?:error: c|C)ould not apply (?P<commit>[0-9a-f]{4,40})\.\.\. ?(?P<subject>.*)$"
)


def _conflict_file(kind: str, rest: str) -> str | None:
    for pattern in (_MERGE_CONFLICT_IN, _RENAMED_TO, _DELETED_IN):
        if m := pattern.search(rest):
            return m.group("file").rstrip(".")
    return None


@dataclass
class _ConflictBlock:
    """The CONFLICT lines of one merge/rebase/cherry-pick step and what follows
    them (Auto-merging, "error: could not apply", hint: lines), which tell the
    operation; one hit per conflicted file."""

    operation: str
    context: dict[str, str]
    max_lines: int = 500
    conflicts: list[tuple[str, str, str, int]] = field(default_factory=list)
    commit: str | None = None
    subject: str | None = None

    def add(self, line: str, line_no: int) -> bool:
        m = _CONFLICT.match(line)
        if m is None:
            return False
        self.conflicts.append((m.group("kind"), m.group("rest"), line.strip(), line_no))
        return True

    def feed(self, line: str, line_no: int) -> bool:
        if self.add(line, line_no) or line.startswith("Auto-merging "):
            return True
        if m := _COULD_NOT_APPLY.match(line):
            self.commit = self.commit or m.group("commit")
            self.subject = self.subject or m.group("subject")
            if self.operation == "merge":
                self.operation = "rebase" if line.startswith("Could") else "apply"
            return True
        if line.startswith("hint:"):
            for op in ("cherry-pick", "rebase", "revert", "am"):
                if f"git {op} --continue" in line:
                    self.operation = op
            return True
        return line.startswith(("Automatic merge failed", "Recorded preimage"))

    def finish(self) -> Iterable[Hit]:
        if self.operation == "apply":
            self.operation = "cherry-pick"
        for kind, rest, signal, line_no in self.conflicts:
            file = _conflict_file(kind, rest)
            hint: dict[str, object] = {
                "operation": self.operation,
                "conflict": kind,
                "files": [file] if file else [],
                **self.context,
            }
            if self.commit:
                hint["commit"] = self.commit
                hint["commit_subject"] = self.subject or ""
            yield Hit(
                signal=signal,
                message=f"{self.operation} conflict ({kind}): {rest}",
                file=file,
                code=f"conflict:{kind}",
                log_line=line_no,
                hint=hint,
                key=("conflict", file or rest),
            )


@rule(
    id="git.conflict",
    category=BD,
    tool="git",
    pattern=_CONFLICT.pattern,
    triggers=("CONFLICT (",),
    url=_DOCS_MERGE,
    priority=40,
)
def git_conflict(m: re.Match[str], ctx: LineContext) -> _ConflictBlock:
    """Conflicts left by git merge, pull, rebase, cherry-pick or revert.

    What it detects: `CONFLICT (content): Merge conflict in FILE` (and the
    add/add, modify/delete, rename/* kinds), one record per conflicted file.
    The lines that follow (`error: could not apply <sha>...`, `hint: ...
    git rebase --continue`, `Automatic merge failed`) tell the operation; a
    `From ...` / `* branch ... -> FETCH_HEAD` pair before it marks a pull.
    When the file is readable under the working directory the record is
    placed on its first `<<<<<<<` marker line and the hunks go into the hint
    (classifier/conflicts.py).

    Example output (`git merge feature`, git 2.39.5):
        Auto-merging src/app.py
        CONFLICT (content): Merge conflict in src/app.py
        Automatic merge failed; fix conflicts and then commit the result.

    Recipe: branch_divergence. hint: operation (merge, pull, rebase,
    cherry-pick, revert), conflict kind, files, commit, remote and
    upstream_branch for a pull, hunks (start/separator/end lines and labels).

    References: https://git-scm.com/docs/git-merge#_how_conflicts_are_presented
    """
    before = ctx.before(8)
    context = fetched(ctx)
    if "upstream_branch" in context:
        operation = "pull"
    elif any(line.startswith("Rebasing (") for line in before):
        operation = "rebase"
    else:
        operation = "merge"
    branch = branch_before(ctx)
    if branch:
        context["branch"] = branch
    block = _ConflictBlock(operation=operation, context=context)
    block.add(ctx.line, ctx.line_no)
    return block


_UNMERGED_STATES = (
    "both modified",
    "both added",
    "both deleted",
    "added by us",
    "added by them",
    "deleted by us",
    "deleted by them",
)


@rule(
    id="git.unmerged_path",
    category=BD,
    tool="git",
    pattern=r"^\s+(?P<state>" + "|".join(_UNMERGED_STATES) + r"):\s+(?P<file>\S.*?)\s*$",
    triggers=tuple(f"{s}:" for s in _UNMERGED_STATES),
    url=DOCS_STATUS,
)
def git_unmerged_path(m: re.Match[str], ctx: LineContext) -> Hit:
    """`git status` listing a path still unmerged after a conflict.

    What it detects: the entries under "Unmerged paths:" (`both modified:`,
    `both added:`, `deleted by us:`, ...). A file already reported by a
    CONFLICT line in the same output is the same failure (one record).

    Example output (`git status` during a merge, git 2.39.5):
        Unmerged paths:
          (use "git add <file>..." to mark resolution)
                both modified:   src/app.py

    Recipe: branch_divergence, with the file's conflict hunks in the hint.

    References: https://git-scm.com/docs/git-status#_short_format
    """
    file = m.group("file")
    state = m.group("state")
    hint: dict[str, object] = {"operation": "merge", "state": state, "files": [file]}
    branch = branch_before(ctx, 16)
    if branch:
        hint["branch"] = branch
    return Hit(
        signal=ctx.line.strip(),
        message=f"unmerged path ({state}): {file}",
        file=file,
        code=f"unmerged:{state.replace(' ', '-')}",
        hint=hint,
        key=("conflict", file),
    )


@dataclass
class _FileListBlock:
    """Collects the tab-indented file list that follows a git error line."""

    hit: Hit
    max_lines: int = 1000
    files: list[str] = field(default_factory=list)

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith("\t") and line.strip():
            self.files.append(line.strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        self.hit.hint["files"] = self.files
        if self.files:
            self.hit.file = self.files[0]
        yield self.hit


@rule(
    id="git.local_changes_overwritten",
    category=BD,
    tool="git",
    pattern=r"^error: (?:(?:Your local changes to the following files|The following untracked working tree files) would be (?:overwritten|removed) by (?P<op>merge|checkout|switch)"
    r"|cannot (?P<op2>pull with rebase|rebase|rebase --autosquash): (?:You have unstaged changes|Your index contains uncommitted changes))",
    triggers=(
        "would be overwritten by",
        "would be removed by",
        "You have unstaged changes",
        "Your index contains uncommitted changes",
    ),
    url=DOCS_PULL,
)
def git_local_changes_overwritten(m: re.Match[str], ctx: LineContext) -> _FileListBlock:
    """A pull, merge or checkout refused because the working tree is dirty.

    What it detects: `error: Your local changes to the following files would
    be overwritten by merge:` (or checkout) and the untracked-files variant,
    with the tab-indented file list that follows, and `error: cannot pull
    with rebase: You have unstaged changes.` (no file list). The branch
    cannot be updated until the changes are committed or stashed.

    Example output (`git pull --no-rebase origin main`, git 2.39.5):
        error: Your local changes to the following files would be overwritten by merge:
                src/app.py
        Please commit your changes or stash them before you merge.

    Recipe: branch_divergence; the recipe refuses to rebase or merge with a
    dirty tree, so this one is escalated with the files listed. hint:
    operation, files, dirty_tree.

    References: https://git-scm.com/docs/git-pull
    """
    hit = Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip().removeprefix("error: ").rstrip(":"),
        code="dirty-tree",
        hint={
            "operation": m.group("op") or ("pull" if "pull" in m.group("op2") else "rebase"),
            "dirty_tree": True,
            **fetched(ctx, 8),
        },
    )
    return _FileListBlock(hit)


_SHORT_UNMERGED = ("UU", "AA", "DD", "AU", "UA", "DU", "UD")


@rule(
    id="git.status_short_unmerged",
    category=BD,
    tool="git",
    pattern=r"^(?P<xy>UU|AA|DD|AU|UA|DU|UD) (?P<file>\"[^\"]+\"|\S+)$",
    triggers=tuple(f"{xy} " for xy in _SHORT_UNMERGED),
    url="https://git-scm.com/docs/git-status#_short_format",
)
def git_status_short_unmerged(m: re.Match[str], ctx: LineContext) -> Hit:
    """An unmerged path in `git status --short` / `--porcelain` output.

    What it detects: the two-letter unmerged states at the start of a line
    (`UU` both modified, `AA` both added, `DD` both deleted, `AU`/`UA`/`DU`/
    `UD` added or deleted by one side) followed by the path; the same
    failure as a CONFLICT line or a long-format "both modified:" entry for
    that file (one record).

    Example output (`git status --short --branch`, git 2.39.5):
        ## main...origin/main [ahead 1, behind 1]
        UU src/app.py

    Recipe: branch_divergence, with the file's conflict hunks in the hint.

    References: https://git-scm.com/docs/git-status#_short_format
    """
    file = m.group("file").strip('"')
    xy = m.group("xy")
    return Hit(
        signal=ctx.line.strip(),
        message=f"unmerged path ({xy}): {file}",
        file=file,
        code=f"unmerged:{xy}",
        hint={"operation": "merge", "state": xy, "files": [file]},
        key=("conflict", file),
    )
