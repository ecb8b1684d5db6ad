"""The `faultlens` command: builds the parser, dispatches to a subcommand.

Each subcommand lives in its own module of this package with two functions,
`add_parser(subparsers)` and `run(args) -> int`.  Modules keep their heavy
imports inside `run`, so `faultlens serve` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from . import version

# subcommand name -> module in this package
SUBCOMMANDS: dict[str, str] = {
    "classify": "classify",
    "run": "run",
    "demo": "demo",
    "status": "status",
    "recover": "recover",
    "retry": "retry",
    "skip": "skip",
    "stop": "stop",
    "revert": "revert",
    "serve": "serve",
    "schema": "schema",
    "rules": "rules",
    "explain": "explain",
    "mcp": "mcp",
    "hook": "hook",
    "ci": "ci",
    "report": "report",
    "history": "history",
    "quarantine": "quarantine",
}


class UsageError(Exception):
    """Bad usage or unreadable input: exit status 2, one line on stderr."""


class _Version(argparse.Action):
    """`--version`, with the version looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings,
            dest=dest,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show program's version number and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        parser._print_message(f"faultlens {version()}\n", sys.stdout)
        parser.exit()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"faultlens: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command-line parser (separate from `main` so tests can read it).

    `only`: just that subcommand (the others' modules are not imported); what
    it parses, its help and its errors are the same as in the whole parser."""
    parser = _Parser(
        prog="faultlens",
        description="Classify build, test and agent failures; recover once; escalate the rest.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND", parser_class=_Parser)
    for name, module in SUBCOMMANDS.items():
        if only is not None and name != only:
            continue
        try:
            mod = importlib.import_module(f"{__package__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__package__}.{module}":
                continue  # not built yet
            raise
        mod.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: this program's arguments, and
    then the process is about to exit)."""
    try:
        return _main(sys.argv[1:] if argv is None else list(argv))
    finally:
        if argv is None:
            _before_exit()


def _main(argv: list[str]) -> int:
    from .shown import scrubbed_output

    with scrubbed_output():
        return _subcommand(argv)


def _subcommand(argv: list[str]) -> int:
    # A subcommand named first is all that needs parsing (and importing).
    only = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(argv)
    if not getattr(args, "subcommand", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"faultlens: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        from faultlens.recipes.ledger import AmbiguousId
        from faultlens.recipes.model import StateUnavailable

        if isinstance(exc, StateUnavailable):  # the state dir cannot be used: one line
            print(f"faultlens: error: {exc}", file=sys.stderr)
            return 1
        if isinstance(exc, AmbiguousId):  # `recover ""`: never a guess at which failure
            print(f"faultlens: error: {exc}", file=sys.stderr)
            return 2
        raise
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _before_exit() -> None:
    """The process exits next: spare the cycle collector its last pass over
    everything still alive (the rules, the record model's schemas...): the
    operating system frees it all at once.  That pass took 50-90 ms after a
    `faultlens run`.  Files, pipes and the ledger are closed explicitly and
    the standard streams are flushed at exit as always; what is skipped is
    only the collection of reference cycles, whose finalizers Python does not
    promise to run at exit anyway."""
    import gc

    gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
