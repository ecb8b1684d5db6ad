"""`faultlens ci [URL]`: why did CI fail?  The run's failed jobs, each job's
log classified against this checkout, the primary failure of each first.

Exit status: 0 when no job failed, 1 when failures were found, 2 on bad
usage or when the CI service could not answer (one line on stderr)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .formats import FORMATS
from .main import UsageError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "ci",
        help="fetch a CI run's failed jobs and classify their logs here",
        description="Fetch a GitHub Actions run, job or pull request's runs, or a GitLab "
        "pipeline or job (default: the latest run of this branch on origin), read only the "
        "failed jobs' logs and show each job's failures at the lines of this checkout. "
        "Tokens: GITHUB_TOKEN, GH_TOKEN or `gh auth token`; GITLAB_TOKEN or CI_JOB_TOKEN.",
    )
    p.add_argument("url", nargs="?", help="a run, job, pull request, pipeline or job URL")
    p.add_argument("--cwd", default=".", help="the local checkout (default: .)")
    p.add_argument("--json", action="store_true", help="the runs, jobs and records as JSON")
    p.add_argument("--format", choices=FORMATS, help="the records in one of the output formats")
    p.add_argument(
        "--comment",
        action="store_true",
        help="keep one comment on the pull request up to date with the failures",
    )
    p.add_argument("--pr", type=int, help="the pull or merge request to comment on")
    p.add_argument(
        "--summary",
        action="store_true",
        help="append the failures' table to $GITHUB_STEP_SUMMARY",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.remote.ciurl import CIUrlError
    from faultlens.remote.http import RemoteError
    from faultlens.remote.service import ci

    checkout = Path(args.cwd)
    if not checkout.is_dir():
        raise UsageError(f"--cwd {args.cwd!r} is not a directory")
    try:
        reports = ci(args.url, checkout.resolve())
    except (CIUrlError, RemoteError) as exc:
        raise UsageError(str(exc)) from None
    records = [r for rep in reports for j in rep.jobs for r in j.records]
    if args.json:
        import json

        print(json.dumps({"runs": [rep.to_json() for rep in reports]}, indent=2))
    elif args.format:
        from .formats import Context, render

        sys.stdout.write(render(records, args.format, Context(cwd=str(checkout))))
    else:
        from .ci_text import render_runs

        sys.stdout.write(render_runs(reports))
    sys.stdout.flush()
    if args.summary or args.comment:
        try:
            _report_back(args, reports)
        except (CIUrlError, RemoteError) as exc:
            raise UsageError(str(exc)) from None
    failed = any(rep.failed for rep in reports)
    return 1 if failed else 0


def _report_back(args: argparse.Namespace, reports: list[Any]) -> None:
    from faultlens.remote.comment import markdown

    body = markdown(reports)
    if args.summary:
        path = os.environ.get("GITHUB_STEP_SUMMARY", "")
        if not path:
            raise UsageError("--summary: GITHUB_STEP_SUMMARY is not set (only inside a job)")
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(body)
    if args.comment:
        from faultlens.remote.service import publish_comment

        how = publish_comment(args.url, Path(args.cwd).resolve(), reports, body, args.pr)
        print(f"faultlens: pull request comment {how}", file=sys.stderr)
