"""`faultlens classify`: classify saved output (files or stdin)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .main import UsageError
from .render import FORMATS


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "classify",
        help="classify saved output (files or stdin)",
        description="Read build, test or agent output and print every failure found. "
        "Exit 0 when none, 1 when failures were found, 2 on bad usage or unreadable input.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="output files; '-' or none for stdin")
    p.add_argument("--cwd", default=".", help="directory the output was produced in (default: .)")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--task", help="task id to attach to every record")
    p.add_argument("--command", help="the command that produced the output (for the fallback)")
    p.add_argument(
        "--exit-code", type=int, help="its exit status (non-zero: a failure is reported)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.classifier.engine import Options
    from faultlens.classifier.structured import classify_path, classify_stream

    from .render import render

    if not os.path.isdir(args.cwd):
        raise UsageError(f"--cwd {args.cwd!r} is not a directory")
    from faultlens.classifier.config import load_config

    problems = load_config(args.cwd).errors
    if problems:  # a bad project rule: say which, classify nothing
        raise UsageError("; ".join(problems))
    fmt = "json" if args.json else args.format
    files = args.files or ["-"]
    records = []
    for name in files:
        opts = Options(
            cwd=args.cwd,
            task=args.task,
            command=args.command,
            exit_code=args.exit_code,
            log_file=None if name == "-" else name,
        )
        if name == "-":
            records.extend(classify_stream(sys.stdin.buffer, opts))
            continue
        if os.path.isdir(name):
            raise UsageError(f"{name}: is a directory")
        try:
            records.extend(classify_path(name, opts))
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    sys.stdout.write(render(records, fmt))
    sys.stdout.flush()
    return 1 if records else 0
