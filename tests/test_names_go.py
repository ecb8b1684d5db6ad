"""Go: an undefined name is a missing standard package only when the package
exports what the file reads off it; else the one declared name one or two
edits away is what was meant (real `go build` runs, `faultlens run --recover`)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from faultlens.recipes.names import go_names

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool
GO = shutil.which("go")


def _module(root: Path, main: str) -> list[str]:
    if GO is None:
        pytest.skip("go not installed")
    (root / "go.mod").write_text("module example.com/demo\n\ngo 1.19\n")
    (root / "main.go").write_text(main)
    (root / ".git").mkdir()
    os.environ.setdefault("GOFLAGS", "-mod=mod")
    return [GO, "build", "-buildvcs=false", "-o", os.devnull, "./..."]


def test_a_misspelt_local_is_respelt_not_imported(tmp_path):
    cmd = _module(
        tmp_path,
        'package main\n\nimport "fmt"\n\nfunc count(items []string) int {\n\ttotal := 0\n'
        "\tfor range items {\n\t\ttotal++\n\t}\n\treturn totl\n}\n\n"
        "func main() {\n\tfmt.Println(count(nil))\n}\n",
    )
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Change 'totl' to 'total'"
    assert "\treturn total\n" in (tmp_path / "main.go").read_text()


def test_a_package_is_not_imported_for_a_name_whose_selectors_it_lacks(tmp_path):
    cmd = _module(
        tmp_path,
        'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n'
        '\tfsys := os.DirFS(".")\n\tf, err := fs.Open("go.mod")\n\tfmt.Println(fsys, f, err)\n}\n',
    )
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    assert all(o.result == "escalated" for o in report.outcomes)
    assert '"io/fs"' not in (tmp_path / "main.go").read_text()


def test_the_standard_packages_exports_come_from_go_doc():
    if GO is None:
        pytest.skip("go not installed")
    exports = go_names.package_exports("io/fs")
    assert exports is not None and {"ReadFile", "FS", "WalkDir"} <= exports
    assert "Open" not in exports
    text = 'func f(fss fs.FS) {\n\tx := fs.ReadFile // "fs.Nope"\n}\n'
    assert go_names.selectors(text, "fs") == {"FS", "ReadFile"}
    assert {"fss", "x", "f"} <= go_names.declared(text)


def test_a_misspelt_parameter_is_respelt_where_it_is_declared(tmp_path):
    cmd = _module(
        tmp_path,
        'package main\n\nimport "fmt"\n\nfunc show(valeu []int, name string) string {\n'
        "\treturn fmt.Sprint(name, value)\n}\n\nfunc other(value int) int {\n\treturn value\n}\n\n"
        'func main() {\n\tfmt.Println(show(nil, "x"), other(1))\n}\n',
    )
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Change 'valeu' to 'value'"
    text = (tmp_path / "main.go").read_text()
    assert "func show(value []int, name string) string {" in text
    assert "func other(value int) int {\n\treturn value\n}" in text


def test_an_import_in_the_package_doc_comment_is_not_the_files_import(tmp_path):
    cmd = _module(
        tmp_path,
        '/*\nUse it so:\n\n\timport flag "example.com/demo"\n*/\npackage main\n\nimport (\n\t"fmt"\n)\n\n'
        'func main() {\n\tfmt.Println(strings.ToUpper("ok"))\n}\n',
    )
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    text = (tmp_path / "main.go").read_text()
    assert '\timport flag "example.com/demo"\n*/' in text
    assert 'import (\n\t"fmt"\n\t"strings"\n)' in text


def test_a_dropped_parenthesis_is_put_back_where_the_file_then_parses(tmp_path):
    cmd = _module(
        tmp_path,
        'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(len("ok")\n}\n',
    )
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert '\tfmt.Println(len("ok"))\n' in (tmp_path / "main.go").read_text()
