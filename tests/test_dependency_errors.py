"""Errors inside an installed dependency's files are one cause
(classifier/dependency_errors.py): TypeScript 4.9 reading the newest
@types/node prints 50 errors in node_modules/@types/node/ffi.d.ts
(tests/samples/typescript/tsc-installed-types-newer-than-compiler); the
user sees ONE compile record, with the count, on the package.json line that
chooses the version, and no recipe edits node_modules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.classifier.dependency_errors import installed_package
from faultlens.recipes import Workspace
from faultlens.recipes.model import Refusal
from faultlens.recipes.planning import plan

SAMPLE = Path(__file__).parent / "samples/typescript/tsc-installed-types-newer-than-compiler"


def _classify(d: Path):
    return classify_bytes((d / "output.txt").read_bytes(), Options(cwd=str(d)))


def test_fifty_errors_in_an_installed_package_are_one_record_on_its_manifest_line():
    (rec,) = _classify(SAMPLE)
    assert rec.failure_type.value == "compile"
    assert (rec.source_file, rec.source_line) == ("package.json", 5)  # "@types/node": "*"
    assert rec.hint["dependency"] == "@types/node"
    assert rec.hint["dependency_errors"] == 50  # as tsc printed them, repeats included
    assert rec.message.startswith("50 errors in the installed dependency @types/node")
    assert rec.hint["dependency_files"] == ["node_modules/@types/node/ffi.d.ts"]
    places = [(loc.file, loc.line, loc.column) for loc in rec.related]
    assert places[:2] == [
        ("node_modules/@types/node/ffi.d.ts", 94, 21),
        ("node_modules/@types/node/ffi.d.ts", 94, 29),
    ]
    assert len(places) == len(set(places)) == 42  # the 50 errors at their 42 places


def test_a_transitive_dependency_stays_at_the_first_error(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLE, proj)
    (proj / "package.json").write_text('{"name": "shop", "devDependencies": {"mitt": "3"}}\n')
    (rec,) = _classify(proj)
    assert (rec.source_file, rec.source_line) == ("node_modules/@types/node/ffi.d.ts", 94)
    assert "declared_in" not in rec.hint


def test_the_record_is_the_same_failure_whichever_lines_fail():
    text = (SAMPLE / "output.txt").read_bytes()
    fewer = b"".join(text.splitlines(keepends=True)[10:])
    (a,) = _classify(SAMPLE)
    (b,) = classify_bytes(fewer, Options(cwd=str(SAMPLE)))
    assert a.id == b.id and b.hint["dependency_errors"] == 40


def test_no_recipe_edits_an_installed_dependency(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLE, proj)
    (rec,) = _classify(proj)
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Refusal)
    assert "inside the installed dependency @types/node" in result.reason
    assert result.suggestions and "pin @types/node" in result.suggestions[0]


@pytest.mark.parametrize(
    ("path", "found"),
    [
        ("node_modules/@types/node/ffi.d.ts", ("npm", "@types/node")),
        ("web/node_modules/lodash/index.d.ts", ("npm", "lodash")),
        ("/usr/lib/python3/dist-packages/yaml/__init__.py", ("pypi", "yaml")),
        (".venv/lib/python3.11/site-packages/attr/_make.py", ("pypi", "attr")),
        ("/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde-1.0.200/src/de.rs",
         ("cargo", "serde")),
        ("/root/go/pkg/mod/github.com/gorilla/mux@v1.8.1/mux.go", ("go", "github.com/gorilla/mux")),
        ("src/node_modules_helper.ts", None),
        ("src/app.ts", None),
    ],
)  # fmt: skip
def test_what_lies_in_an_installed_dependency(path, found):
    assert installed_package(path) == found
