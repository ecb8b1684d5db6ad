"""Score faultlens on the evaluation corpus: one command, one table.

    python -m eval.score                 # the table (Markdown), as in eval/README.md
    python -m eval.score --cases         # also one line per case (what was missed)
    python -m eval.score --json          # the numbers, for scripts

Each case (eval/cases/<ecosystem>/<case>/, see eval/README.md) is the real
output of a real project's own command, labelled by hand: the failures a
developer would have to act on, with their category, file and line. The
scorer classifies the output as `faultlens run` would (the command and its
exit status known), in a throw-away copy of the project's file tree (the
names only, empty files: no project code is kept here), and compares:

* a record matches a label of its category (a group record, `affected` N,
  matches up to N labels: its cause and the tests it accounts for);
* precision and recall per category; F1;
* location accuracy: of the matched labels that name a file, how many
  records name the same file and line (the record's own, or one of its
  related locations for a group);
* clean negatives: cases with no label (successful runs) that gave no record.

Pure apart from reading the cases and the temporary tree.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from faultlens.classifier.engine import Options
from faultlens.classifier.record import FailureRecord
from faultlens.classifier.structured import classify_path
from faultlens.classifier.taxonomy import FailureType

CASES = Path(__file__).resolve().parent / "cases"
CATEGORIES = tuple(ft.value for ft in FailureType)


@dataclass(frozen=True)
class Label:
    category: str
    file: str | None = None
    line: int | None = None


@dataclass
class Case:
    id: str
    dir: Path
    ecosystem: str
    command: str
    exit_code: int | None
    labels: list[Label]
    files: list[str]
    meta: dict[str, Any]

    @property
    def output(self) -> Path:
        found = sorted(p for p in self.dir.iterdir() if p.name.startswith("output."))
        if not found:
            raise ValueError(f"{self.id}: no output.* file")
        return found[0]


def load_case(d: Path, root: Path = CASES) -> Case:
    meta = json.loads((d / "case.json").read_text())
    labels = [
        Label(str(lab["category"]), lab.get("file"), lab.get("line"))
        for lab in meta.get("labels", [])
    ]
    for lab in labels:
        if lab.category not in CATEGORIES:
            raise ValueError(f"{d}: unknown category {lab.category!r}")
    return Case(
        id=str(d.relative_to(root)),
        dir=d,
        ecosystem=str(meta["ecosystem"]),
        command=str(meta["command"]),
        exit_code=meta.get("exit_code"),
        labels=labels,
        files=[str(f) for f in meta.get("files", [])],
        meta=meta,
    )


def load_cases(root: Path = CASES) -> list[Case]:
    return [load_case(p.parent, root) for p in sorted(root.glob("*/*/case.json"))]


# -- classifying a case ---------------------------------------------------------------------


def _skeleton(case: Case, into: Path) -> Path:
    """The project's file names as empty files under `into/<project folder>`."""
    top = into / str(case.meta.get("cwd_name") or "project")
    top.mkdir(parents=True, exist_ok=True)
    for name in case.files:
        rel = Path(name)
        if rel.is_absolute() or ".." in rel.parts:
            raise ValueError(f"{case.id}: files must be relative, inside the project: {name}")
        path = top / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    return top


def classify_case(case: Case) -> list[FailureRecord]:
    with tempfile.TemporaryDirectory(prefix="faultlens-eval-") as tmp:
        cwd = _skeleton(case, Path(tmp))
        opts = Options(cwd=str(cwd), command=case.command, exit_code=case.exit_code)
        return classify_path(case.output, opts)


# -- matching -------------------------------------------------------------------------------


@dataclass
class Match:
    label: Label
    record: FailureRecord | None
    located: bool = False


@dataclass
class CaseResult:
    case: Case
    records: list[FailureRecord]
    matches: list[Match] = field(default_factory=list)
    false_positives: list[FailureRecord] = field(default_factory=list)


def _places(r: FailureRecord) -> list[tuple[str | None, int | None]]:
    return [(r.source_file, r.source_line), *((loc.file, loc.line) for loc in r.related)]


def _same_file(printed: str | None, labelled: str | None) -> bool:
    if not printed or not labelled:
        return False
    a, b = printed.replace("\\", "/"), labelled.replace("\\", "/")
    return a == b or a.endswith("/" + b)


def _located(r: FailureRecord, lab: Label) -> bool:
    if lab.file is None:
        return True
    for file, line in _places(r):
        if _same_file(file, lab.file) and (lab.line is None or line == lab.line):
            return True
    return False


def match(case: Case, records: Sequence[FailureRecord]) -> CaseResult:
    """Labels to records: each record takes up to `affected` labels of its
    category, the best-located first."""
    result = CaseResult(case, list(records))
    capacity = {id(r): max(1, r.affected) for r in records}
    used: set[int] = set()
    pending = list(case.labels)
    # two passes: first the labels a record locates exactly, then any of the category
    for exact in (True, False):
        still: list[Label] = []
        for lab in pending:
            pick = next(
                (
                    r
                    for r in records
                    if r.failure_type.value == lab.category
                    and capacity[id(r)] > 0
                    and (not exact or _located(r, lab))
                ),
                None,
            )
            if pick is None:
                still.append(lab)
                continue
            capacity[id(pick)] -= 1
            used.add(id(pick))
            result.matches.append(Match(lab, pick, located=_located(pick, lab)))
        pending = still
    result.matches += [Match(lab, None) for lab in pending]
    result.false_positives = [r for r in records if id(r) not in used]
    return result


# -- the table ------------------------------------------------------------------------------


@dataclass
class Score:
    labels: int = 0
    records: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    located: int = 0
    locatable: int = 0

    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def f1(self) -> float | None:
        p, r = self.precision(), self.recall()
        return 2 * p * r / (p + r) if p is not None and r is not None and p + r else None

    def location(self) -> float | None:
        return self.located / self.locatable if self.locatable else None


@dataclass
class Report:
    results: list[CaseResult]
    by_category: dict[str, Score]
    total: Score
    negatives: int
    clean_negatives: int
    ecosystems: dict[str, int]


def score(results: Iterable[CaseResult]) -> Report:
    results = list(results)
    by_cat = {c: Score() for c in CATEGORIES}
    for res in results:
        for r in res.records:
            by_cat[r.failure_type.value].records += 1
        for m in res.matches:
            s = by_cat[m.label.category]
            s.labels += 1
            if m.record is None:
                s.fn += 1
                continue
            s.tp += 1
            if m.label.file is not None:
                s.locatable += 1
                s.located += int(m.located)
        for r in res.false_positives:
            by_cat[r.failure_type.value].fp += 1
    total = Score()
    for s in by_cat.values():
        for f in ("labels", "records", "tp", "fp", "fn", "located", "locatable"):
            setattr(total, f, getattr(total, f) + getattr(s, f))
    negatives = [res for res in results if not res.case.labels]
    ecosystems: dict[str, int] = {}
    for res in results:
        ecosystems[res.case.ecosystem] = ecosystems.get(res.case.ecosystem, 0) + 1
    return Report(
        results=results,
        by_category={c: s for c, s in by_cat.items() if s.labels or s.records},
        total=total,
        negatives=len(negatives),
        clean_negatives=sum(1 for res in negatives if not res.records),
        ecosystems=dict(sorted(ecosystems.items())),
    )


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f} %"


def table(report: Report) -> str:
    """The accuracy table (Markdown), as README.md and docs/accuracy.md show it."""
    n = len(report.results)
    lines = [
        f"{n} cases from real projects in {len(report.ecosystems)} ecosystems, "
        f"{report.negatives} of them successful runs (negatives).",
        "",
        "| category | labels | records | matched | precision | recall | F1 | location |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [*report.by_category.items(), ("all", report.total)]
    for name, s in rows:
        label = f"**{name}**" if name == "all" else name
        lines.append(
            f"| {label} | {s.labels} | {s.records} | {s.tp} | {_pct(s.precision())} | "
            f"{_pct(s.recall())} | {_pct(s.f1())} | {_pct(s.location())} |"
        )
    lines += [
        "",
        f"Clean negatives: {report.clean_negatives} of {report.negatives} successful runs "
        "gave no record.",
        "",
        "Cases per ecosystem: "
        + ", ".join(f"{eco} {count}" for eco, count in report.ecosystems.items())
        + ".",
    ]
    return "\n".join(lines) + "\n"


def case_lines(report: Report) -> str:
    out = []
    for res in report.results:
        missed = [m.label for m in res.matches if m.record is None]
        misplaced = [m.label for m in res.matches if m.record is not None and not m.located]
        status = "ok" if not missed and not res.false_positives and not misplaced else "MISS"
        out.append(
            f"{status:4}  {res.case.id}: {len(res.case.labels)} labels, {len(res.records)} records"
        )
        out += [f"      missed   {m.category} {m.file}:{m.line}" for m in missed]
        out += [f"      located  {m.category} {m.file}:{m.line} elsewhere" for m in misplaced]
        out += [
            f"      extra    {r.failure_type.value} {r.source_file}:{r.source_line} ({r.rule})"
            for r in res.false_positives
        ]
    return "\n".join(out) + "\n"


def run(root: Path = CASES) -> Report:
    results = []
    for case in load_cases(root):
        results.append(match(case, classify_case(case)))
    return score(results)


def _as_json(report: Report) -> dict[str, Any]:
    def one(s: Score) -> dict[str, Any]:
        return {
            "labels": s.labels,
            "records": s.records,
            "matched": s.tp,
            "precision": s.precision(),
            "recall": s.recall(),
            "f1": s.f1(),
            "location": s.location(),
        }

    return {
        "cases": len(report.results),
        "ecosystems": report.ecosystems,
        "negatives": report.negatives,
        "clean_negatives": report.clean_negatives,
        "by_category": {c: one(s) for c, s in report.by_category.items()},
        "all": one(report.total),
    }


def cases_table(report: Report) -> str:
    """One row per case: where its code came from, how it was broken, the
    command (docs/accuracy.md)."""
    lines = ["| case | project | how it was made | command | labels |", "|---|---|---|---|---:|"]
    for res in report.results:
        c = res.case
        cell = [c.id, str(c.meta.get("project", "")), str(c.meta.get("how", "")), c.command]
        cell = [x.replace("|", "\\|").replace("\n", " ") for x in cell]
        lines.append(f"| {cell[0]} | {cell[1]} | {cell[2]} | `{cell[3]}` | {len(c.labels)} |")
    return "\n".join(lines) + "\n"


ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ACCURACY = ROOT / "docs" / "accuracy.md"


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- eval:{name} -->", f"<!-- /eval:{name} -->"


def with_block(text: str, name: str, content: str) -> str:
    """`text` with the part between the eval:`name` markers replaced."""
    begin, end = _markers(name)
    head, sep, rest = text.partition(begin)
    if not sep or end not in rest:
        raise ValueError(f"no {begin} ... {end} block")
    return head + begin + "\n" + content + end + rest.partition(end)[2]


def block_in(text: str, name: str) -> str:
    """The content between the eval:`name` markers of a document."""
    begin, end = _markers(name)
    return text.partition(begin)[2].partition(end)[0].lstrip("\n")


def write_docs(report: Report) -> None:
    """The score table into README.md and docs/accuracy.md, the cases into the latter."""
    README.write_text(with_block(README.read_text(), "table", table(report)))
    text = with_block(ACCURACY.read_text(), "table", table(report))
    ACCURACY.write_text(with_block(text, "cases", cases_table(report)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m eval.score", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", action="store_true", help="also print one line per case")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.add_argument("--root", type=Path, default=CASES, help="the corpus (default: eval/cases)")
    p.add_argument(
        "--write", action="store_true", help="put the table into README.md and docs/accuracy.md"
    )
    args = p.parse_args(argv)
    report = run(args.root)
    if args.write:
        write_docs(report)
    if args.json:
        json.dump(_as_json(report), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(table(report))
    if args.cases:
        sys.stdout.write("\n" + case_lines(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
