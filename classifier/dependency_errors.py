"""Errors inside an installed dependency's files: one cause, one record.

A compiler that cannot read a dependency prints one error per bad line of
its files: `@types/node` released with syntax an older TypeScript does not
parse gives fifty `node_modules/@types/node/ffi.d.ts(94,21): error TS1139`
lines.  Nothing in those files is the project's to edit; the project's
choice is which version of the dependency (or of the compiler) it uses.  So
the compile records of one tool placed in one installed package become ONE
record for the cause, "a dependency does not compile with this compiler":

* located on the project's manifest entry for the package (package.json's
  `"@types/node": "*"`, requirements/pyproject, Cargo.toml) when the project
  declares it, where the version is chosen; otherwise (a transitive
  dependency) at the first error, where the compiler reported it;
* its message counts the errors; `hint` has `dependency` (the package),
  `dependency_errors` (the exact count), `dependency_files`, and `advice`;
  each error's place is a `related` location (the first MAX_LISTED);
* its id is the cause's (tool, package), the same whichever lines failed.

Installed folders: `node_modules/<pkg>` (`@scope/pkg`), `site-packages` /
`dist-packages`, cargo's registry sources (`<crate>-<version>`), Go's
module cache (`pkg/mod/<module>@<version>`).  Test failures are never
folded here (a stack passing through a library is the test's own failure).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .fingerprint import fingerprint
from .lazyre import lazy_compile
from .manifests import find_dependency
from .record import FailureRecord, Location
from .taxonomy import FailureType

MAX_LISTED = 100
_CRATE = lazy_compile(r"^(?P<name>[A-Za-z0-9_-]+?)-\d+\.\d+\.\d+")


def installed_package(path: str | None) -> tuple[str, str] | None:
    """(ecosystem, package) when `path` lies inside an installed dependency."""
    if not path:
        return None
    parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
    for i in range(len(parts) - 1, -1, -1):
        part = parts[i]
        rest = parts[i + 1 :]
        if part == "node_modules" and rest:
            if rest[0].startswith("@") and len(rest) > 1:
                return "npm", f"{rest[0]}/{rest[1]}"
            return "npm", rest[0]
        if part in ("site-packages", "dist-packages") and len(rest) > 1:
            top = rest[0].removesuffix(".py")
            if not top.endswith((".dist-info", ".egg-info", ".pth")):
                return "pypi", top
        if part == "src" and i >= 2 and parts[i - 1] == "registry" and len(rest) > 2:
            m = _CRATE.match(rest[1])
            if m:
                return "cargo", m.group("name")
        if part == "mod" and i >= 1 and parts[i - 1] == "pkg":
            for j, p in enumerate(rest):
                if "@" in p:
                    return "go", "/".join([*rest[:j], p.split("@", 1)[0]])
    return None


def fold(
    records: list[FailureRecord], cwd: Path, repeats: Mapping[int, int] | None = None
) -> list[FailureRecord]:
    """`records` with each tool's compile errors inside one installed package
    folded into one record (see the module docstring); order kept.  `repeats`:
    how many more times the output printed a record (the engine merges the
    same error at one line), so the count is what the compiler printed."""
    groups: dict[tuple[str, str, str], list[FailureRecord]] = {}
    for r in records:
        if r.failure_type is not FailureType.COMPILE or isinstance(r.hint.get("runner"), str):
            continue
        found = installed_package(r.source_file)
        if found is not None:
            groups.setdefault((r.tool or "", *found), []).append(r)
    if not groups:
        return records
    for key, members in groups.items():
        count = sum(1 + (repeats or {}).get(id(r), 0) for r in members)
        _record(key, members, count, cwd)
    folded = {id(r) for members in groups.values() for r in members[1:]}
    return [r for r in records if id(r) not in folded]


def _record(key: tuple[str, str, str], members: list[FailureRecord], count: int, cwd: Path) -> None:
    tool, ecosystem, package = key
    first = members[0]
    files: list[str] = []
    places: list[Location] = []
    for r in members:
        if r.source_file and r.source_file not in files:
            files.append(r.source_file)
        if r.source_file and len(places) < MAX_LISTED:
            places.append(
                Location(
                    file=r.source_file,
                    line=r.source_line,
                    column=r.source_column,
                    message=r.message[:300],
                )
            )
    head = first  # changed in place: the classifier keeps its records by identity
    who = tool or "the compiler"
    errors = f"{count} error{'s' if count != 1 else ''}"
    head.message = (
        f"{errors} in the installed dependency {package} ({who} cannot compile it): "
        f"{first.source_file}:{first.source_line}: {first.message}"
    )[:2000]
    head.related = places
    head.hint.update(
        {
            "dependency": package,
            "ecosystem": ecosystem,
            "dependency_errors": count,
            "dependency_files": files[:20],
            "advice": [
                f"{package} is not written for this {who}: pin {package} to a version it "
                f"reads, or upgrade {who}"
            ],
        }
    )
    declared = find_dependency(cwd, ecosystem, package)
    if declared is not None:
        head.source_file, head.source_line = declared
        head.source_column = head.end_line = head.end_column = None
        head.hint["declared_in"] = f"{declared[0]}:{declared[1]}"
    head.id = fingerprint(FailureType.COMPILE.value, "dependency", package, who)
