"""How many lines of a log the prefilter hands to the rules.

    python -m benchmarks.prefilter LOG        # triggers, rules, candidate lines

A candidate line contains at least one rule trigger (docs/benchmarks.md):
only those are decoded and tried against rules, so this count, not the
number of rules, is what the rule set costs on noise. Issue 13 bounds its
growth (at most 2x on the generated log); compare two revisions on the same
log (`python -m benchmarks.generate --size 20MB -o LOG`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from faultlens.classifier.config import effective_rules
from faultlens.classifier.engine import CHUNK, _ruleset


def candidate_lines(data: bytes) -> tuple[int, int, int]:
    """(triggers, rules, lines containing a trigger) for the built-in rule set."""
    rules, _ = effective_rules(".")
    rs = _ruleset(rules)
    count = 0
    line_end = -1
    for _, start, _ in rs.prefilter.dfa().find_matches_as_indexes(data, overlapping=True):
        if start > line_end:
            line_end = data.find(b"\n", start)
            if line_end < 0:
                line_end = len(data)
            count += 1
    return len(rs.masks), len(rs.rules), count


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.prefilter", description=__doc__)
    p.add_argument("log", type=Path)
    args = p.parse_args(argv)
    total_lines = 0
    data = bytearray()
    with open(args.log, "rb") as fh:
        while chunk := fh.read(CHUNK):
            data += chunk
    total_lines = data.count(b"\n")
    triggers, rules, lines = candidate_lines(bytes(data))
    share = 100 * lines / total_lines if total_lines else 0.0
    print(
        f"{triggers} triggers, {rules} rules: {lines:,} candidate lines of {total_lines:,} ({share:.2f} %)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
