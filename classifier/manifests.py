"""Placing a vulnerable-dependency finding on its manifest entry.

npm audit and pip-audit name a package, not a file.  When the project's
manifest is in the working directory, the record is put on the line that
declares the package (package.json, then package-lock.json for npm;
requirements*.txt, then pyproject.toml for PyPI), so the editor shows it
where the version is chosen.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from .locate import read_in_tree
from .taxonomy import FailureType

if TYPE_CHECKING:
    from .record import FailureRecord

MAX_MANIFEST = 8 * 1024 * 1024

MANIFESTS: dict[str, tuple[str, ...]] = {
    "npm": ("package.json", "package-lock.json"),
    "pypi": ("requirements.txt", "requirements-dev.txt", "requirements/base.txt", "pyproject.toml"),
    "cargo": ("Cargo.toml",),
}


def _pattern(ecosystem: str, manifest: str, package: str) -> re.Pattern[str]:
    if ecosystem == "npm":
        if manifest == "package-lock.json":
            return re.compile(r'"node_modules/' + re.escape(package) + r'"\s*:')
        return re.compile(r'"' + re.escape(package) + r'"\s*:')
    if ecosystem == "cargo":
        # `name = "1"`, `name = { ... }`, `[dependencies.name]`, `package = "name"`.
        n = re.escape(package)
        return re.compile(
            rf"^\s*(?:[\"']?{n}[\"']?\s*=|\[[\w.-]*dependencies\.{n}\]|.*\bpackage\s*=\s*\"{n}\")"
        )
    # PEP 503: -, _ and . are the same, case-insensitive.
    name = "[-_.]".join(re.escape(p) for p in re.split(r"[-_.]+", package))
    return re.compile(
        r"^\s*[\"']?" + name + r"\s*(?:\[[^\]]*\])?\s*(?:[=<>!~;@\"',]|$)", re.IGNORECASE
    )


def find_dependency(cwd: Path, ecosystem: str, package: str) -> tuple[str, int] | None:
    """(manifest, 1-based line) declaring `package`, or None."""
    for manifest in MANIFESTS.get(ecosystem, ()):
        text = read_in_tree(cwd, manifest, MAX_MANIFEST)
        if text is None:
            continue
        pattern = _pattern(ecosystem, manifest, package)
        for no, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                return manifest, no
    return None


def place_records(records: list[FailureRecord], cwd: Path) -> None:
    """Put dependency findings that name no file on their manifest line, and
    records that name their manifest (hint `manifest_entry`: cargo's
    unresolvable dependency) on the entry's line."""
    for r in records:
        option = r.hint.get("config_option")
        if isinstance(option, str) and option and r.source_file and r.source_line is None:
            line = _line_with(cwd, r.source_file, option)  # pytest's addopts naming it
            if line is not None:
                r.source_line = line
            continue
        entry = r.hint.get("manifest_entry")
        if isinstance(entry, str) and r.source_file and r.source_line is None:
            line = _entry_line(cwd, r.source_file, entry)
            if line is not None:
                r.source_line = line
            continue
        if r.failure_type != FailureType.TRUST_GATE or r.source_file is not None:
            continue
        package, ecosystem = r.hint.get("package"), r.hint.get("ecosystem")
        if not isinstance(package, str) or not isinstance(ecosystem, str):
            continue
        found = find_dependency(cwd, ecosystem, package)
        if found:
            r.source_file, r.source_line = found


def _entry_line(cwd: Path, manifest: str, package: str) -> int | None:
    ecosystem = next((e for e, names in MANIFESTS.items() if Path(manifest).name in names), None)
    if ecosystem is None:
        return None
    text = read_in_tree(cwd, manifest, MAX_MANIFEST)
    if text is None:
        return None
    pattern = _pattern(ecosystem, Path(manifest).name, package)
    for no, line in enumerate(text.splitlines(), start=1):
        if pattern.search(line):
            return no
    return None


def _line_with(cwd: Path, path: str, text: str) -> int | None:
    """The first line of a config file (inside the tree) that holds `text`."""
    body = read_in_tree(cwd, path, MAX_MANIFEST)
    if body is None:
        return None
    for no, line in enumerate(body.splitlines(), start=1):
        if text in line:
            return no
    return None
