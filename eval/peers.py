"""How many of a peer registry's formats faultlens reads with its built-in rules.

reviewdog/errorformat keeps, for each format it knows, a real tool output
(`fmts/testdata/<name>.in`) and the entries its errorformat takes from it
(`<name>.ok`, one `file|line col C type N| message` per entry).  This measures
faultlens on those outputs without any project rule: for each format, how many
of the peer's entries get a record at the same file and line.

    git clone https://github.com/reviewdog/errorformat
    python -m eval.peers errorformat/fmts/testdata

Nothing of the peer is kept here: the command reads a checkout the user makes.
The files the entries name are recreated empty in a throw-away folder (the
working directory of the classification), as the evaluation corpus does, and
the format's name is passed as the command with exit status 1, the way
`faultlens run` knows a failed tool.  The figures are a measurement, never a
target a rule is tuned to (eval/README.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from faultlens.classifier.engine import Options
from faultlens.classifier.structured import classify_path


@dataclass(frozen=True)
class Entry:
    file: str
    line: int


@dataclass(frozen=True)
class FormatResult:
    name: str
    entries: int
    located: int
    records: int
    rules: tuple[str, ...]


def parse_ok(text: str) -> list[Entry]:
    """The located entries of a `.ok` file (`file|line col C ...| message`)."""
    found: list[Entry] = []
    for raw in text.splitlines():
        parts = raw.split("|", 2)
        if len(parts) < 3 or not parts[0]:
            continue
        head = parts[1].split(" ", 1)[0]
        if head.isdigit():
            found.append(Entry(parts[0].replace("\\", "/"), int(head)))
    return found


def _same_file(printed: str, wanted: str) -> bool:
    a = printed.replace("\\", "/")
    b = wanted.removeprefix("./")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def _skeleton(entries: Sequence[Entry], into: Path) -> None:
    for e in entries:
        rel = PurePosixPath(e.file.removeprefix("./"))
        if rel.is_absolute() or ".." in rel.parts or ":" in rel.parts[0]:
            continue  # absolute or Windows paths: nothing to recreate
        path = into.joinpath(*rel.parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def measure(inp: Path) -> FormatResult:
    ok = inp.with_suffix(".ok")
    entries = parse_ok(ok.read_text(errors="replace")) if ok.is_file() else []
    with tempfile.TemporaryDirectory(prefix="faultlens-peers-") as tmp:
        _skeleton(entries, Path(tmp))
        opts = Options(cwd=tmp, command=inp.stem, exit_code=1)
        records = classify_path(str(inp), opts)
    places = [(r.source_file, r.source_line) for r in records if r.source_file and r.source_line]
    located = sum(
        1
        for e in set(entries)
        if any(line == e.line and _same_file(f, e.file) for f, line in places)
    )
    return FormatResult(
        inp.stem, len(set(entries)), located, len(records), tuple(sorted({r.rule for r in records}))
    )


def run(testdata: Path) -> list[FormatResult]:
    return [measure(p) for p in sorted(testdata.glob("*.in"))]


def report(results: Sequence[FormatResult]) -> str:
    with_entries = [r for r in results if r.entries]
    read = sum(1 for r in with_entries if r.located)
    total = sum(r.entries for r in results)
    got = sum(r.located for r in results)
    lines = [
        f"{read} of {len(with_entries)} formats: at least one entry at the peer's file and line",
        f"{got} of {total} entries located ({100 * got / total:.0f} %)" if total else "no entries",
        "",
        "| format | entries | located | records | rules |",
        "|---|---:|---:|---:|---|",
    ]
    lines += [
        f"| {r.name} | {r.entries} | {r.located} | {r.records} | {', '.join(r.rules)} |"
        for r in results
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m eval.peers", description=__doc__.split("\n")[0])
    ap.add_argument("testdata", type=Path, help="errorformat's fmts/testdata folder")
    args = ap.parse_args(argv)
    if not args.testdata.is_dir() or not any(args.testdata.glob("*.in")):
        print(f"eval.peers: no <name>.in files in {args.testdata}", file=sys.stderr)
        return 2
    print(report(run(args.testdata)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
