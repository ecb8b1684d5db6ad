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

Reading and classifying the cases is eval/corpus.py, matching records to
labels eval/matching.py; the scores, the tables and the command are here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .corpus import CASES, CATEGORIES, classify_case, load_cases
from .matching import CaseResult, match

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
    verdicts: int = 0  # failed cases whose primary label is of this category
    verdicts_right: int = 0  # ... whose primary record is of it

    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def f1(self) -> float | None:
        p, r = self.precision(), self.recall()
        return 2 * p * r / (p + r) if p is not None and r is not None and p + r else None

    def location(self) -> float | None:
        return self.located / self.locatable if self.locatable else None

    def verdict(self) -> float | None:
        return self.verdicts_right / self.verdicts if self.verdicts else None


@dataclass
class SetScore:
    """One case set's verdicts: failed cases whose labelled cause is found
    somewhere and named first, successful cases with no primary failure."""

    failed: int = 0
    found: int = 0
    first: int = 0
    negatives: int = 0
    clean: int = 0


SET_NAMES = {"commands": "Command outputs", "ci": "CI job logs"}


def set_scores(results: Iterable[CaseResult], key: str = "set") -> dict[str, SetScore]:
    """Verdicts per case set (`key` "set") or per issue class (`key` "class")."""
    out: dict[str, SetScore] = {}
    for res in results:
        v = res.verdict
        if v is None:
            continue
        keys = (
            [res.case.case_set]
            if key == "set"
            else [str(c) for c in res.case.meta.get("issue_classes", [])]
        )
        for k in keys:
            s = out.setdefault(k, SetScore())
            if res.case.labels:
                s.failed += 1
                s.found += int(v.found)
                s.first += int(v.first)
            else:
                s.negatives += 1
                s.clean += int(v.first)
    return out


@dataclass
class Report:
    results: list[CaseResult]
    by_category: dict[str, Score]
    total: Score
    negatives: int
    clean_negatives: int
    ecosystems: dict[str, int]
    sets: dict[str, SetScore]


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
        if res.case.labels and res.verdict is not None:
            s = by_cat[res.case.primary_labels[0].category]
            s.verdicts += 1
            s.verdicts_right += int(res.verdict.first)
    total = Score()
    for s in by_cat.values():
        for f in (
            "labels",
            "records",
            "tp",
            "fp",
            "fn",
            "located",
            "locatable",
            "verdicts",
            "verdicts_right",
        ):
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
        sets=dict(sorted(set_scores(results).items(), key=lambda kv: kv[0] != "commands")),
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
        "| category | labels | records | matched | precision | recall | F1 | location | verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [*report.by_category.items(), ("all", report.total)]
    for name, s in rows:
        label = f"**{name}**" if name == "all" else name
        lines.append(
            f"| {label} | {s.labels} | {s.records} | {s.tp} | {_pct(s.precision())} | "
            f"{_pct(s.recall())} | {_pct(s.f1())} | {_pct(s.location())} | "
            f"{_pct(s.verdict())} |"
        )
    lines += [
        "",
        "Verdict: of the failed cases whose labelled cause (the label marked primary) is "
        "of the category, those whose primary record (the one marked `primary`; the first "
        "blocking record where records carry no mark) is of it.",
        "",
        *(_set_line(name, s) for name, s in report.sets.items()),
        "",
        f"Clean negatives: {report.clean_negatives} of {report.negatives} successful runs "
        "gave no record.",
        "",
        "Cases per ecosystem: "
        + ", ".join(f"{eco} {count}" for eco, count in report.ecosystems.items())
        + ".",
    ]
    return "\n".join(lines) + "\n"


def _frac(n: int, of: int) -> str:
    return f"{n} of {of} ({_pct(n / of if of else None)})"


def _set_line(name: str, s: SetScore) -> str:
    return (
        f"* {SET_NAMES.get(name, name)}: {s.failed} failed, {s.negatives} successful; "
        f"the labelled cause found somewhere in {_frac(s.found, s.failed)}, "
        f"named first in {_frac(s.first, s.failed)}; successful with no primary failure: "
        f"{_frac(s.clean, s.negatives)}."
    )


def classes_table(report: Report) -> str:
    """Verdicts per class of issue 24 (the `issue_classes` of the cases)."""
    per = set_scores(report.results, key="class")
    lines = [
        "| class | failed | found somewhere | named first | successful, no primary failure |",
        "|---|---:|---:|---:|---:|",
    ]
    for k in sorted(per, key=int):
        s = per[k]
        lines.append(
            f"| {k} | {s.failed} | {_frac(s.found, s.failed)} | {_frac(s.first, s.failed)} | "
            f"{_frac(s.clean, s.negatives)} |"
        )
    return "\n".join(lines) + "\n"


def case_lines(report: Report) -> str:
    out = []
    for res in report.results:
        missed = [m.label for m in res.matches if m.record is None]
        misplaced = [m.label for m in res.matches if m.record is not None and not m.located]
        status = "ok" if not missed and not res.false_positives and not misplaced else "MISS"
        v = res.verdict
        if v is not None and not v.first:
            status = "MISS"
        out.append(
            f"{status:4}  {res.case.id}: {len(res.case.labels)} labels, {len(res.records)} records"
        )
        if v is not None and not v.first:
            p = v.primary
            named = "nothing" if p is None else f"{p.failure_type.value} ({p.rule}: {p.message})"
            want = "no failure" if not res.case.labels else res.case.primary_labels[0].category
            out.append(f"      verdict  {named[:160]}; labelled {want}")
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
            "verdict": s.verdict(),
        }

    return {
        "cases": len(report.results),
        "ecosystems": report.ecosystems,
        "negatives": report.negatives,
        "clean_negatives": report.clean_negatives,
        "by_category": {c: one(s) for c, s in report.by_category.items()},
        "all": one(report.total),
        "sets": {k: vars(v) for k, v in report.sets.items()},
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
    text = with_block(text, "classes", classes_table(report))
    ACCURACY.write_text(with_block(text, "cases", cases_table(report)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m eval.score", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", action="store_true", help="also print one line per case")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.add_argument(
        "--classes", action="store_true", help="also print the verdicts per issue-24 class"
    )
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
    if args.classes:
        sys.stdout.write("\n" + classes_table(report))
    if args.cases:
        sys.stdout.write("\n" + case_lines(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
