"""`faultlens rules`: list the detection rules, or write their catalogue.

`faultlens rules --markdown > docs/rules.md` regenerates the catalogue page
(a test checks it is current: the page is generated, never hand-edited).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("rules", help="list the detection rules (built-in and the project's)")
    p.add_argument("--cwd", default=".", help="project folder whose own rules to include")
    p.add_argument(
        "--markdown", action="store_true", help="print the catalogue page (docs/rules.md)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.classifier.config import effective_rules
    from faultlens.classifier.rules import all_rules

    if args.markdown:
        from .catalogue import catalogue

        sys.stdout.write(catalogue(all_rules()))
        return 0
    rules, errors = effective_rules(args.cwd)
    for err in errors:
        print(f"faultlens: error: {err}", file=sys.stderr)
    width = max((len(r.id) for r in rules), default=10)
    for r in rules:
        print(f"{r.id:<{width}}  {r.category.value:<17}  {r.summary}")
    return 2 if errors else 0
