"""Java: `cannot find symbol ... class List` gets `import java.util.List;`, the
one public class of that name in the installed JDK (recipes/names/java_index.py,
`jimage list` and `javap -public`), java.base's first; the file's other unbound
names one JDK class provides come in the same edit; a name of several
packages (Document: javax.swing.text, org.w3c.dom) is the candidates, no edit.
The outputs are real javac 17 (tests/samples/java/)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes import java_imports
from faultlens.recipes.model import Plan, Refusal
from faultlens.recipes.names import java_index
from faultlens.recipes.planning import plan

from .helpers import run_recover_in_process

SAMPLES = Path(__file__).parent / "samples"


@pytest.fixture
def jdk() -> str:
    home = java_index.jdk_home(["javac"], None)
    if home is None:
        pytest.skip("no JDK with jimage installed")
    return home


def _planned(case: str, tmp_path: Path, file: str) -> tuple[Path, list[Plan | Refusal]]:
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / "java" / case, proj)
    recs = classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))
    ws = Workspace.at(proj)
    return proj, [plan(r, ws, command=["javac"]) for r in recs if r.source_file == file]


def test_the_import_edit_goes_among_the_imports_in_order():
    text = "package a;\n\nimport java.io.File;\nimport java.util.Map;\n\nclass X {}\n"
    edits = java_imports.import_edits("X.java", text, ["java.util.List", "java.nio.file.Path"])
    assert apply_to_text(text, edits).splitlines()[2:6] == [
        "import java.io.File;",
        "import java.nio.file.Path;",
        "import java.util.List;",
        "import java.util.Map;",
    ]
    assert java_imports.import_edits("X.java", text, ["java.awt.Map"]) == []  # Map is imported


def test_unbound_names_are_none_under_an_on_demand_import():
    assert (
        java_imports.unresolved_classes("import java.util.*;\nclass X { List a; }\n", set()) is None
    )
    got = java_imports.unresolved_classes(
        'class X<T extends Comparable<T>> { List<T> a; Settings s; String n = "Path"; }\n',
        {"Settings"},
    )
    assert got == ["Comparable", "List", "String"]  # java.lang's are the index's to drop


@pytest.mark.real_tool
def test_missing_jdk_classes_are_imported_in_one_edit(tmp_path, jdk):
    proj, plans = _planned(
        "javac-cannot-find-symbol-jdk-classes", tmp_path, "src/com/example/Config.java"
    )
    assert plans and all(isinstance(p, Plan) for p in plans), plans
    edits = [e for p in plans if isinstance(p, Plan) for e in p.edits]
    assert len(edits) == len(plans) == 3 and all(e == edits[0] for e in edits)
    edits = edits[:1]  # every record of the file plans the same one edit, made once
    text = (proj / "src" / "com" / "example" / "Config.java").read_text()
    fixed = apply_to_text(text, edits)
    assert fixed.splitlines()[2:6] == [
        "import java.io.IOException;",
        "import java.nio.file.Files;",
        "import java.nio.file.Path;",
        "import java.util.Map;",
    ]
    assert "Settings;" not in fixed  # its own package's class


@pytest.mark.real_tool
def test_a_class_of_several_jdk_packages_is_refused_with_the_candidates(tmp_path, jdk):
    _, plans = _planned(
        "javac-cannot-find-symbol-jdk-classes", tmp_path, "src/com/example/Markup.java"
    )
    (refusal,) = plans
    assert isinstance(refusal, Refusal)
    assert refusal.suggestions == [
        "import javax.swing.text.Document;",
        "import org.w3c.dom.Document;",
    ]


@pytest.mark.real_tool
def test_java_base_comes_first_and_a_package_private_class_is_no_candidate(jdk):
    assert java_index.providers(jdk, "List") == ["java.util.List"]  # not java.awt.List
    assert java_index.providers(jdk, "Node") == [
        "org.w3c.dom.Node"
    ]  # java.util.stream's is not public
    assert java_index.providers(jdk, "String") == []  # java.lang: no import


@pytest.mark.real_tool
def test_removed_java_util_imports_are_restored_and_verified_by_javac(tmp_path, jdk):
    """The captured javac-cannot-find-symbol project, its two variables fixed by
    hand: List and ArrayList come back in one attempt, verified by javac."""
    shutil.copytree(SAMPLES / "java" / "javac-cannot-find-symbol" / "src", tmp_path / "src")
    (tmp_path / ".git").mkdir()
    src = tmp_path / "src" / "com" / "example" / "Inventory.java"
    src.write_text(
        src.read_text()
        .replace("return itemCount;", "return items.size();")
        .replace('        logger.info("added " + item);\n', "")
    )
    cmd = [str(Path(jdk) / "bin" / "javac"), "-d", "out", "src/com/example/Inventory.java"]
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    assert report.outcomes and all(o.result == "recovered" for o in report.outcomes), [
        o.reason for o in report.outcomes
    ]
    assert src.read_text().startswith(
        "package com.example;\n\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic"
    )


def test_a_lost_static_import_is_the_one_the_workspace_writes_with_the_files_others():
    """Pad.java lost `import static java.lang.Math.max;` and `requireNonNull`'s:
    javac names the methods, no class; Sizes.java imports both statically,
    and both come back in one edit, after the file's plain imports
    (tests/samples/java/javac-static-import-lost, javac 17)."""
    proj = SAMPLES / "java" / "javac-static-import-lost"
    recs = classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))
    ws = Workspace.at(proj)
    plans = [plan(r, ws, command=["javac"]) for r in recs]
    assert [p.title for p in plans if isinstance(p, Plan)] == [
        "Import static java.util.Objects.requireNonNull (and 1 more)",
        "Import static java.lang.Math.max (and 1 more)",
    ]
    fixed = apply_to_text((proj / "src" / "demo" / "Pad.java").read_text(), plans[0].edits)
    assert fixed.startswith(
        "package demo;\n\nimport java.util.Locale;\n\nimport static java.lang.Math.max;\n"
        "import static java.util.Objects.requireNonNull;\n\npublic class Pad {\n"
    )
    assert apply_to_text((proj / "src" / "demo" / "Pad.java").read_text(), plans[1].edits) == fixed


def test_a_member_the_file_declares_is_not_imported_statically():
    text = "class X {\n    static int max(int a, int b) { return a; }\n    int f() { return max(1, 2); }\n}\n"
    assert java_imports.declares_member(text, "max")
    assert not java_imports.declares_member("class X { int f() { return max(1, 2); } }", "max")
