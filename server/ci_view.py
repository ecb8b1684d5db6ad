"""`faultlens.showCI`: a CI run's failed jobs shown as diagnostics, at the
lines of this workspace.

Each failed job is a store task of its own, `ci: <job>`, and that is the
diagnostics' `source`, so the Problems view and the quickfix list say which
job each failure came from.  The hover names the job and the run, with
links.  Showing the same workflow again clears the jobs that pass now; the
failures move and clear with their files as every other failure does, and
the recipes' quick fixes apply to them as to a local run's.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import protocol as P
from .store import TaskInfo

if TYPE_CHECKING:
    from faultlens.remote.cireport import CIRunReport

    from .app import FaultLensServer

PREFIX = "ci: "


@dataclass(slots=True)
class Link:
    job: str
    job_url: str
    run: str
    run_url: str


@dataclass(slots=True)
class CIState:
    """What the editor was shown of CI: the store tasks by workflow, the links."""

    tasks: dict[str, set[str]] = field(default_factory=dict)  # workflow -> store tasks
    links: dict[str, Link] = field(default_factory=dict)  # store task -> its job and run


def is_ci_task(task: str | None) -> bool:
    return bool(task and task.startswith(PREFIX))


def hover_header(ls: FaultLensServer, task: str) -> str | None:
    """The hover's first line for a CI failure: its job and run, linked."""
    link = ls.ci.links.get(task)
    if link is None:
        return None
    job = f"[{link.job}]({link.job_url})" if link.job_url else link.job
    run = f"[{link.run}]({link.run_url})" if link.run_url else link.run
    return f"**CI job {job}** of {run}"


async def show(ls: FaultLensServer, args: P.CIArgs) -> dict[str, Any]:
    """Fetch and publish; answers what was shown (one line per failed job)."""
    from faultlens.remote.ciurl import CIUrlError
    from faultlens.remote.http import RemoteError
    from faultlens.remote.service import ci

    try:
        reports = await asyncio.to_thread(ci, args.url, ls.root, None, ask_gh=True)
    except (CIUrlError, RemoteError) as exc:
        ls.warn(f"faultlens: CI: {exc}", show=True)
        return {"runs": [], "error": str(exc)}
    shown = []
    for rep in reports:
        shown.append(await _publish(ls, rep))
    failed = sum(len(r["failedJobs"]) for r in shown)
    ls.info(f"faultlens: CI: {failed} failed job(s) in {len(shown)} run(s)")
    return {"runs": shown}


async def _publish(ls: FaultLensServer, rep: CIRunReport) -> dict[str, Any]:
    run = rep.run
    title = f"{run.name or 'run'} #{run.ident}"
    workflow = f"{run.service}:{run.project}:{run.name or run.ident}"
    now: set[str] = set()
    jobs = []
    touched = set()
    for job in rep.jobs:
        if not job.job.failed:
            continue
        task = f"{PREFIX}{job.job.name or job.job.ident}"
        now.add(task)
        ls.ci.links[task] = Link(job.job.name, job.job.url, title, run.url)
        records = [dataclasses.replace(r, task=None) for r in job.records]  # the source says it
        entries = await asyncio.to_thread(ls.place_all, records, ls.root)
        for e in entries:
            e.task = task
            e.source = f"ci:{run.url}"
        info = TaskInfo(task=task, cwd=ls.root)
        touched |= ls.store.replace(task, entries, info)
        jobs.append({"name": job.job.name, "url": job.job.url, "failures": len(entries)})
    for gone in ls.ci.tasks.get(workflow, set()) - now:  # those jobs pass now
        touched |= ls.store.remove_task(gone)
        ls.ci.links.pop(gone, None)
    ls.ci.tasks[workflow] = now
    ls.publish(touched)
    head = rep.head.note if rep.head is not None else ""
    if head:
        ls.warn(f"faultlens: CI: {head}", show=True)
    return {"url": run.url, "sha": run.sha, "head": head, "failedJobs": jobs}
