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

from . import __version__

# subcommand name -> module in this package
SUBCOMMANDS: dict[str, str] = {
    "classify": "classify",
    "run": "run",
    "demo": "demo",
    "status": "status",
    "recover": "recover",
    "serve": "serve",
    "schema": "schema",
    "rules": "rules",
}


class UsageError(Exception):
    """Bad usage or unreadable input: exit status 2, one line on stderr."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"faultlens: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The whole command-line parser (separate from `main` so tests can read it)."""
    parser = _Parser(
        prog="faultlens",
        description="Classify build, test and agent failures; recover once; escalate the rest.",
    )
    parser.add_argument("--version", action="version", version=f"faultlens {__version__}")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND", parser_class=_Parser)
    for module in SUBCOMMANDS.values():
        try:
            mod = importlib.import_module(f"{__package__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__package__}.{module}":
                continue  # not built yet
            raise
        mod.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "subcommand", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"faultlens: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
