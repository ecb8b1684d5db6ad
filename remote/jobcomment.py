"""The one pull-request comment when each CI job reports for itself
(`faultlens report --comment`): the comment holds a section per job, marked
by the commit and the job, and a job rewrites only its own section, so
parallel jobs and workflows of one commit share the comment and a newer
commit's reports drop the older commit's sections.  Pure text."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .cireport import CIRunReport
from .comment import MARKER, TITLE, bounded, table

_START = "<!-- faultlens:job "
_SECTION = re.compile(r"^<!-- faultlens:job (?P<sha>\S+) (?P<job>[^\n]*?) -->$", re.MULTILINE)


def section(key: str, reports: Sequence[CIRunReport]) -> str | None:
    """The job's section (None: nothing of it failed)."""
    if not any(j.job.failed for rep in reports for j in rep.jobs):
        return None
    return "\n".join([f"{_START}{key} -->", *table(reports)]).rstrip() + "\n"


def sections_of(body: str) -> dict[str, str]:
    """The job sections of a comment, by key, in their order."""
    found = list(_SECTION.finditer(body))
    out: dict[str, str] = {}
    for m, nxt in zip(found, [*found[1:], None], strict=False):
        end = nxt.start() if nxt is not None else len(body)
        out[f"{m['sha']} {m['job']}"] = body[m.start() : end].rstrip() + "\n"
    return out


def merged(existing: str | None, key: str, mine: str | None) -> str | None:
    """The comment with this job's section put in (or taken out: `mine`
    None); the other jobs' sections of the same commit kept, an older
    commit's dropped.  None: no comment is needed (none yet, nothing failed)."""
    sha = key.split(" ", 1)[0]
    kept = {k: v for k, v in sections_of(existing or "").items() if k.split(" ", 1)[0] == sha}
    if mine is None:
        kept.pop(key, None)
    else:
        kept[key] = mine
    if existing is None and not kept:
        return None
    if not kept:
        return f"{MARKER}\n{TITLE}\n\nNo failed job reported for {sha}.\n"
    return bounded("\n".join([MARKER, TITLE, "", *kept.values()]))
