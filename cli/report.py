"""`faultlens report`: a step inside CI, after the tests, that tells why this
job failed: the failures its commands recorded in the workspace (`faultlens
run -- CMD`) as the table `faultlens ci` makes, in the job summary
($GITHUB_STEP_SUMMARY) and, with --comment, in the one pull-request
(merge-request) comment, where each job keeps its own section.

Exit status: 0 (the report was made; the job's own steps say whether it
failed), 2 outside a CI job or when the service refused the comment (one
line on stderr)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .main import UsageError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="inside a CI job: the job's recorded failures to the job summary and the PR",
        description="Inside a GitHub Actions or GitLab CI job, after the tests: the failures "
        "this job's `faultlens run` steps recorded, as a table in the job summary "
        "($GITHUB_STEP_SUMMARY) and, with --comment, in the pull request's one faultlens "
        "comment (GITHUB_TOKEN; GitLab: GITLAB_TOKEN), the section of this job kept up to date.",
    )
    p.add_argument("--cwd", default=".", help="the workspace (default: .)")
    p.add_argument("--comment", action="store_true", help="update the pull request's comment")
    p.add_argument("--pr", type=int, help="the pull or merge request (default: the CI's)")
    p.add_argument("--job", help="this job's name in the comment (default: the CI's job name)")
    p.add_argument("--json", action="store_true", help="the report as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.remote import cienv
    from faultlens.remote.comment import markdown
    from faultlens.remote.jobreport import job_report, recorded_failures

    root = Path(args.cwd)
    if not root.is_dir():
        raise UsageError(f"--cwd {args.cwd!r} is not a directory")
    ci = cienv.from_env(job=args.job)
    if ci is None:
        raise UsageError(
            "report: not inside a GitHub Actions or GitLab CI job "
            "(GITHUB_ACTIONS/GITHUB_REPOSITORY/GITHUB_RUN_ID or GITLAB_CI/CI_PROJECT_PATH/"
            "CI_PIPELINE_ID): outside CI, `faultlens ci` reads a run"
        )
    report = job_report(ci, recorded_failures(root.resolve(), ci.started))
    if args.json:
        import json

        print(json.dumps(report.to_json(), indent=2))
    else:
        from .ci_text import render_runs

        sys.stdout.write(render_runs([report]))
    summary = os.environ.get("GITHUB_STEP_SUMMARY", "")
    if summary:
        with open(summary, "a", encoding="utf-8") as fh:
            fh.write(markdown([report]))
    if args.comment:
        _comment(args, root.resolve(), ci, report)
    return 0


def _comment(args: argparse.Namespace, root: Path, ci: Any, report: Any) -> None:
    from faultlens.remote.ciurl import CIUrlError
    from faultlens.remote.http import RemoteError
    from faultlens.remote.jobcomment import merged, section
    from faultlens.remote.service import publish_comment

    number = args.pr if args.pr is not None else ci.pull
    if number is None:
        print("faultlens: not a pull request build: no comment", file=sys.stderr)
        return
    mine = section(ci.section, [report])
    try:
        how = publish_comment(
            ci.run_url, root, [report], lambda now: merged(now, ci.section, mine), number
        )
    except (CIUrlError, RemoteError) as exc:
        raise UsageError(str(exc)) from None
    print(f"faultlens: pull request comment {how}", file=sys.stderr)
