"""The rule catalogue (docs/rules.md): what faultlens covers, per ecosystem,
and the real sample that proves each rule.

Pure: the rules come from the registry, the samples from
`tests/samples/*/*/expected.json` (and `expected.run.json`) of a checkout —
an installed package has none, and its catalogue says so.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The ecosystem of a rule family that does not name its own (a family module
# may set `ECOSYSTEM = "..."`; a new one should).
FAMILY_ECOSYSTEMS: dict[str, str] = {
    "typescript": "TypeScript",
    "javascript": "JavaScript",
    "js_test": "JavaScript",
    "python": "Python",
    "python_test": "Python",
    "rust": "Rust",
    "cargo_json": "Rust",
    "c": "C and C++",
    "go": "Go",
    "java": "Java and the JVM",
    "git": "Git",
    "security": "Security scanners",
    "mcp": "Agents, MCP and plugins",
    "plugin": "Agents, MCP and plugins",
    "agent": "Agents, MCP and plugins",
    "coordinator": "Agents, MCP and plugins",
    "infra": "CI and infrastructure",
    "workflow": "YAML & GitHub Actions",
    "tap": "Any tool (TAP)",
}
# Sample folders that are no rule family.
SAMPLE_FOLDERS: dict[str, str] = {
    "mixed": "CI and infrastructure",
    "structured": "Structured reports",
}
STRUCTURED = "Structured reports"
# Records of the structured parsers (classifier/structured/): rule id prefix → what.
STRUCTURED_PARSERS: tuple[tuple[str, str, str], ...] = (
    ("junit.", "JUnit XML", "pytest, jest-junit, Maven Surefire, Gradle, go-junit-report"),
    ("sarif.", "SARIF 2.1.0", "ruff, semgrep, bandit, CodeQL, eslint's SARIF formatter"),
    ("lint_report.", "checkstyle XML, lint JSON", "eslint, stylelint, ShellCheck, hadolint"),
)
SAMPLE_URL = "../tests/samples"


def ecosystem_of(family: str) -> str:
    """The ecosystem a rule family (or a sample folder) belongs to."""
    if family in SAMPLE_FOLDERS:
        return SAMPLE_FOLDERS[family]
    try:
        module = importlib.import_module(f"faultlens.classifier.rules.{family}")
    except ImportError:
        module = None
    named = getattr(module, "ECOSYSTEM", None)
    if isinstance(named, str) and named:
        return named
    return FAMILY_ECOSYSTEMS.get(family, family.replace("_", " ").title())


@dataclass
class Samples:
    """What the sample corpus proves: rule id → the cases whose expected
    records name it; every case; and the negative ones (no record)."""

    by_rule: dict[str, list[str]] = field(default_factory=dict)
    cases: list[str] = field(default_factory=list)
    negatives: list[str] = field(default_factory=list)
    found: bool = False


def load_samples(root: Path | None = None) -> Samples:
    """The samples of the checkout this module runs from (none when installed)."""
    root = root or Path(__file__).resolve().parents[1] / "tests" / "samples"
    samples = Samples()
    if not root.is_dir():
        return samples
    samples.found = True
    for exp in sorted(root.glob("*/*/expected.json")):
        case = f"{exp.parent.parent.name}/{exp.parent.name}"
        samples.cases.append(case)
        records: list[dict[str, Any]] = json.loads(exp.read_text())
        run = exp.parent / "expected.run.json"
        run_records: list[dict[str, Any]] = json.loads(run.read_text()) if run.is_file() else []
        if not records and not run_records:
            samples.negatives.append(case)
        for r in [*records, *run_records]:
            rid = r.get("rule")
            if isinstance(rid, str) and case not in samples.by_rule.setdefault(rid, []):
                samples.by_rule[rid].append(case)
    return samples


def _link(case: str) -> str:
    return f"[{case}]({SAMPLE_URL}/{case}/)"


def _proof(rule_id: str, samples: Samples, limit: int = 3) -> str:
    cases = samples.by_rule.get(rule_id, [])
    if not samples.found:
        return "(samples are in the source checkout)"
    if not cases:
        return "—"
    shown = ", ".join(_link(c) for c in cases[:limit])
    return shown + (f" (+{len(cases) - limit})" if len(cases) > limit else "")


def _anchor(title: str) -> str:
    keep = "".join(c for c in title.lower() if c.isalnum() or c in " -_")
    return keep.replace(" ", "-")


def summary_counts(rules: Sequence[Any]) -> tuple[int, int]:
    """(rules, ecosystems) as the catalogue and the README state them."""
    return len(rules), len({ecosystem_of(r.family) for r in rules})


def catalogue(rules: Sequence[Any], samples: Samples | None = None) -> str:
    """The rule catalogue as Markdown: coverage by ecosystem, then every rule
    with its documentation, grouped by ecosystem and family."""
    samples = samples if samples is not None else load_samples()
    by_eco: dict[str, list[Any]] = {}
    for r in sorted(rules, key=lambda r: (r.family, r.id)):
        by_eco.setdefault(ecosystem_of(r.family), []).append(r)
    negatives: dict[str, int] = {}
    cases: dict[str, int] = {}
    for case in samples.cases:
        eco = ecosystem_of(case.split("/", 1)[0])
        cases[eco] = cases.get(eco, 0) + 1
        if case in samples.negatives:
            negatives[eco] = negatives.get(eco, 0) + 1
    n_rules, n_eco = summary_counts(rules)
    out = [
        "# Detection rules",
        "",
        "Generated by `faultlens rules --markdown > docs/rules.md` from the rules'",
        "docstrings and the samples that prove them; do not edit by hand. Every rule",
        "is proved on real output in `tests/samples/<family>/<case>/` (the command",
        "that produced it is in the case's `cmd.txt`; a few tools that cannot be",
        "installed here have samples built from their documented format, and their",
        "`cmd.txt` says so). A negative sample is a successful run with tempting",
        "words that must give no record.",
        "",
        f"**{n_rules} rules** in **{n_eco} ecosystems**, proved by "
        f"{len(samples.cases)} samples ({len(samples.negatives)} of them negative).",
        "",
        "## Coverage by ecosystem",
        "",
        "| ecosystem | tools | rules | samples | negative samples |",
        "|---|---|---:|---:|---:|",
    ]
    for eco in sorted(by_eco):
        rs = by_eco[eco]
        tools = ", ".join(sorted({r.tool for r in rs}))
        out.append(
            f"| [{eco}](#{_anchor(eco)}) | {tools} | {len(rs)} | "
            f"{cases.get(eco, 0)} | {negatives.get(eco, 0)} |"
        )
    out += ["", f"## {STRUCTURED}", ""]
    out += [
        "Read when the input is one (detected from its first bytes) instead of the text rules;",
        "their records name the parser as `rule`.",
        "",
        "| format | producers | rule ids | proved by |",
        "|---|---|---|---|",
    ]
    for prefix, fmt, producers in STRUCTURED_PARSERS:
        ids = sorted(rid for rid in samples.by_rule if rid.startswith(prefix))
        proof = list(dict.fromkeys(c for rid in ids for c in samples.by_rule[rid]))
        shown = ", ".join(_link(c) for c in proof[:4]) or "—"
        named = ", ".join(f"`{i}`" for i in ids) or "—"
        out.append(f"| {fmt} | {producers} | {named} | {shown} |")
    out.append("")
    for eco in sorted(by_eco):
        out += [f"## {eco}", "", "| rule | category | tool | proved by |", "|---|---|---|---|"]
        for r in by_eco[eco]:
            out.append(
                f"| [`{r.id}`](#{_anchor(r.id)}) | {r.category.value} | `{r.tool}` | "
                f"{_proof(r.id, samples)} |"
            )
        out.append("")
        for r in by_eco[eco]:
            out += [f"### `{r.id}`", "", f"Category **{r.category.value}**, tool `{r.tool}`."]
            out += ["", "```text", r.doc, "```", ""]
    return "\n".join(out).rstrip() + "\n"
