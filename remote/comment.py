"""The one pull-request comment (and GitHub job summary) that says why CI
failed: a table of each failed job's primary failure, its triage verdict and
what to do.  Pure text here; `publish` finds faultlens's own comment by its
marker and edits it, or adds it, so a pull request never collects copies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from faultlens.classifier.record import FailureRecord

from .cireport import CIRunReport

MARKER = "<!-- faultlens:ci -->"
MAX_BODY = 60_000  # GitHub refuses comments over 65,536 characters
MAX_CELL = 160


TITLE = "### faultlens: why CI failed"


def markdown(reports: Sequence[CIRunReport]) -> str:
    """The comment's body (and the job summary's): one table for all runs."""
    return bounded("\n".join([MARKER, TITLE, "", *table(reports)]) + "\n")


def table(reports: Sequence[CIRunReport]) -> list[str]:
    """The failed jobs' table and what to do of each (or that none failed)."""
    lines: list[str] = []
    failed = [j for rep in reports for j in rep.jobs if j.job.failed]
    if not failed:
        passed = ", ".join(_link(r.run.name or f"run {r.run.ident}", r.run.url) for r in reports)
        return [f"No failed job in {passed or 'the run'}."]
    lines += ["| job | failure | where | verdict |", "|---|---|---|---|"]
    notes: list[str] = []
    for job in failed:
        primary = job.primary
        name = _link(job.job.name or f"job {job.job.ident}", job.job.url)
        if primary is None:
            why = job.error or f"{job.job.conclusion}, no failure found in the log"
            lines.append(f"| {name} | {_cell(why)} | | |")
            continue
        more = len(job.records) - 1
        failure = f"**{primary.failure_type.value}**: {_cell(primary.signal)}"
        if more > 0:
            failure += f" (+{more} more)"
        lines.append(f"| {name} | {failure} | {_where(primary)} | {_verdict(primary)} |")
        notes.append(f"- **{_cell(job.job.name)}**: {_next_step(primary)}")
    heads = {r.head.note for r in reports if r.head is not None and r.head.note}
    lines += ["", *notes]
    if heads:
        lines += ["", *(f"_{_cell(h)}_" for h in sorted(heads))]
    return lines


def bounded(body: str) -> str:
    """A body GitHub accepts: cut at a line before its limit."""
    if len(body) > MAX_BODY:
        body = body[: MAX_BODY - 40].rsplit("\n", 1)[0] + "\n\n… (cut: too long)\n"
    return body


class CommentThread(Protocol):
    """A pull request's (GitHub) or merge request's (GitLab) comments."""

    def comments(self, number: int) -> list[dict[str, Any]]: ...
    def post_comment(self, number: int, body: str) -> None: ...
    def edit_comment(self, number: int, comment_id: int, body: str) -> None: ...


Body = str | Callable[[str | None], str | None]


def publish(thread: CommentThread, number: int, body: Body) -> str:
    """Edit faultlens's comment on pull request `number`, or add it; says which.
    `body` may be a function of the comment's present text (None: there is
    none) giving the new one (None: nothing to add)."""
    for c in thread.comments(number):
        text = c.get("body")
        ident = c.get("id")
        if isinstance(text, str) and text.startswith(MARKER) and isinstance(ident, int):
            new = body(text) if callable(body) else body
            if new is None or text == new:
                return "unchanged"
            thread.edit_comment(number, ident, new)
            return "updated"
    new = body(None) if callable(body) else body
    if new is None:
        return "not needed"
    thread.post_comment(number, new)
    return "added"


def _where(rec: FailureRecord) -> str:
    if not rec.source_file:
        return ""
    place = rec.source_file if rec.source_line is None else f"{rec.source_file}:{rec.source_line}"
    return f"`{_cell(place).replace('`', '')}`"


def _verdict(rec: FailureRecord) -> str:
    if rec.triage is not None:
        return _cell(rec.triage.verdict.replace("_", " "))
    return "not triaged"


def _next_step(rec: FailureRecord) -> str:
    auto = rec.auto_recoverable
    if auto is False:
        return f"needs a person ({rec.recipe}): {rec.failure_type.value} is never retried blindly"
    return (
        f"`faultlens run --recover -- <the job's command>` locally makes the one attempt "
        f"{rec.recipe} allows"
    )


def _link(text: str, url: str) -> str:
    label = _cell(text).replace("[", "(").replace("]", ")")
    if url.startswith("https://") or url.startswith("http://"):
        return f"[{label}]({url.replace(')', '%29').replace(' ', '%20')})"
    return label


def _cell(text: str) -> str:
    """Text safe in a table cell: one line, bounded, no markup of its own, no
    @-mention that would notify someone."""
    one = " ".join(str(text).split())
    if len(one) > MAX_CELL:
        one = one[: MAX_CELL - 1] + "…"
    for ch, repl in (("\\", "\\\\"), ("|", "\\|"), ("<", "&lt;"), (">", "&gt;"), ("@", "@\u200b")):
        one = one.replace(ch, repl)
    return one
