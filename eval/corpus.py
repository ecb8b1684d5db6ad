"""The evaluation corpus: its cases (eval/cases/<ecosystem>/<case>/, see
eval/README.md) with their labels, and classifying one as `faultlens run`
would, in a throw-away copy of the project's file tree (the names only,
empty files).  Reads the cases and the temporary tree, nothing else."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
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
    primary: bool = False  # the labelled reason the job (or command) failed


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
    def case_set(self) -> str:
        """The set the case belongs to: `ci` (whole CI job logs) or `commands`."""
        return "ci" if self.id.split("/")[0] == "ci" else "commands"

    @property
    def job_log(self) -> bool:
        """A whole job log, classified as pasted: no command, no exit status known."""
        return self.meta.get("input") == "job-log"

    @property
    def primary_labels(self) -> list[Label]:
        """The labels a right verdict names: those marked primary, else any label."""
        marked = [lab for lab in self.labels if lab.primary]
        return marked or list(self.labels)

    @property
    def output(self) -> Path:
        found = sorted(p for p in self.dir.iterdir() if p.name.startswith("output."))
        if not found:
            raise ValueError(f"{self.id}: no output.* file")
        return found[0]


def load_case(d: Path, root: Path = CASES) -> Case:
    meta = json.loads((d / "case.json").read_text())
    labels = [
        Label(str(lab["category"]), lab.get("file"), lab.get("line"), bool(lab.get("primary")))
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
        if case.job_log:
            opts = Options(cwd=str(cwd))
        else:
            opts = Options(cwd=str(cwd), command=case.command, exit_code=case.exit_code)
        return classify_path(case.output, opts)
