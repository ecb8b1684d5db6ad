"""`faultlens classify`: classify saved output (files or stdin)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any

from .formats import FORMATS
from .main import UsageError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "classify",
        help="classify saved output (files or stdin)",
        description="Read build, test or agent output and print every failure found. "
        "Exit 0 when none, 1 when failures were found, 2 on bad usage, unreadable input "
        "or a bad project rule (the other rules still classify; each bad rule is one line "
        "on stderr).",
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

    from .formats import Context, render

    if not os.path.isdir(args.cwd):
        raise UsageError(f"--cwd {args.cwd!r} is not a directory")
    from faultlens.classifier.config import load_config, rule_failure

    # A bad project rule is one line each; the good rules and the built-ins
    # still classify, and the exit status says the configuration needs mending.
    cfg = load_config(args.cwd)
    problems = list(cfg.errors)

    notes: list[str] = []

    def rule_failed(rule_id: str, error: str) -> None:
        project, line = rule_failure(args.cwd, rule_id, error)
        # the project's rule: its config needs mending; a built-in rule's
        # bug: said, but the output stands
        (problems if project else notes).append(line)

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
            records.extend(classify_stream(sys.stdin.buffer, opts, on_rule_error=rule_failed))
            continue
        if os.path.isdir(name):
            raise UsageError(f"{name}: is a directory")
        try:
            records.extend(classify_path(name, opts, on_rule_error=rule_failed))
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    command = shlex.split(args.command) if args.command else None
    sys.stdout.write(render(records, fmt, Context(cwd=args.cwd, command=command)))
    sys.stdout.flush()
    for line in dict.fromkeys(notes):
        print(f"faultlens: warning: {line}", file=sys.stderr)
    for line in dict.fromkeys(problems):  # each once, in order
        print(f"faultlens: error: {line}", file=sys.stderr)
    if problems:
        return 2
    return 1 if records else 0
