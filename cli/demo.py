"""`faultlens demo`: run `faultlens run --recover` on a temporary copy of the
shipped broken example; the checkout itself is never touched."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .main import UsageError

EXAMPLE = "broken-app"
TASK = "DEMO-001"


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="recover the shipped broken example (on a temporary copy)",
        description="Copy examples/broken-app to a temporary folder (a fresh git repository), "
        "run `faultlens run --recover -- python -m unittest` there, and print the live output, "
        "the summary and the boxed escalation display. Exit 0 when the demo went as designed "
        "(the compile failure recovered, the real test failure escalated).",
    )
    p.add_argument("--keep", metavar="DIR", help="make the copy in DIR (new or empty) and keep it")
    p.set_defaults(func=run)


def example_source() -> Path:
    """The shipped example: from the checkout, else from the installed package data."""
    env = os.environ.get("FAULTLENS_EXAMPLE_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent / "examples" / EXAMPLE
    if here.is_dir():
        return here
    from importlib import resources

    return Path(str(resources.files("faultlens.examples") / EXAMPLE))


def _git(args: list[str], cwd: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "faultlens demo",
        "GIT_AUTHOR_EMAIL": "demo@faultlens.invalid",
        "GIT_COMMITTER_NAME": "faultlens demo",
        "GIT_COMMITTER_EMAIL": "demo@faultlens.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def prepare(dest: Path) -> Path:
    """Copy the example into dest/broken-app and make it a git repository."""
    src = example_source()
    if not src.is_dir():
        raise UsageError(f"the example is missing: {src}")
    target = dest / EXAMPLE
    shutil.copytree(
        src, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".faultlens")
    )
    if shutil.which("git"):
        _git(["init", "-q", "-b", "main"], target)
        _git(["add", "-A"], target)
        _git(["commit", "-q", "-m", "broken-app: the demo project"], target)
    return target


def run(args: argparse.Namespace) -> int:
    from faultlens.recipes import RecipeSettings, Workspace

    from .run import run_command, summary_text

    if args.keep:
        base = Path(args.keep).resolve()
        if base.exists() and any(base.iterdir()):
            raise UsageError(f"--keep {args.keep!r} must be a new or empty folder")
        base.mkdir(parents=True, exist_ok=True)
    else:
        base = Path(tempfile.mkdtemp(prefix="faultlens-demo-"))
    try:
        project = prepare(base)
        ws = Workspace(roots=[project], settings=RecipeSettings(worker="demo"))
        cmd = [sys.executable, "-m", "unittest"]
        err = sys.stderr
        err.write(f"faultlens demo: a copy of examples/{EXAMPLE} in {project}\n")
        err.write("faultlens demo: $ faultlens run --recover -- python -m unittest\n\n")
        err.flush()
        report = run_command(
            cmd,
            cwd=project,
            ws=ws,
            task=TASK,
            recover=True,
            out=sys.stdout.buffer,
            err_bytes=sys.stderr.buffer,
            err=err,
        )
        sys.stdout.flush()
        err.write(summary_text(report, True))
        if shutil.which("git") and (project / ".git").exists():
            diff = subprocess.run(
                ["git", "diff", "--no-color"],
                cwd=project,
                capture_output=True,
                text=True,
                check=False,
            ).stdout
            if diff:
                err.write("\nfaultlens demo: what the recipes changed (git diff):\n" + diff)
        results = {(o.record.failure_type.value, o.result) for o in report.outcomes}
        as_designed = ("compile", "recovered") in results and ("test", "escalated") in results
        if args.keep:
            err.write(
                f"\nfaultlens demo: the copy is kept in {project} (ledger and logs in .faultlens/)\n"
            )
        err.write(
            "faultlens demo: "
            + (
                "done: one failure recovered, one escalated, as designed\n"
                if as_designed
                else "UNEXPECTED result\n"
            )
        )
        err.flush()
        return 0 if as_designed else 1
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
