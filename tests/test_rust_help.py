"""rustc's helps taken from its text output: `add `;` here` applied (it is
MachineApplicable in rustc's JSON); the import help wins over the "similar
name" one (MaybeIncorrect), which never turns `encode(` into `decode(`."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from faultlens.recipes.model import Outcome

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool
CARGO = ["cargo", "build", "--offline"]
CARGO_TOML = '[package]\nname = "semi"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n'


@pytest.fixture
def project(tmp_path: Path) -> Callable[..., str]:
    """Writes a project's files into tmp_path (a git root) and gives the
    path of the tool that builds it; skips the test when it is missing."""
    (tmp_path / ".git").mkdir()

    def make(tool: str, files: dict[str, str]) -> str:
        found = shutil.which(tool)
        if found is None:
            pytest.skip(f"{tool} not installed")
        for name, text in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text)
        return found

    return make


@pytest.fixture
def crate(project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """A one-file library crate of `lib`, built into tmp_path/target."""

    def make(lib: str) -> None:
        project("cargo", {"Cargo.toml": CARGO_TOML, "src/lib.rs": lib})
        monkeypatch.setenv("CARGO_TARGET_DIR", str(tmp_path / "target"))

    return make


def _recovered(cmd: list[str], root: Path) -> Outcome:
    report, _ = run_recover_in_process(cmd, root, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    return outcome


def test_rustc_add_semicolon_here_is_applied_from_its_text_output(tmp_path, crate):
    crate("pub fn f(x: u32) -> u32 {\n    let y = x + 1\n    y * 2\n}\n")
    assert _recovered(CARGO, tmp_path).tried == "Add `;` (rustc's help)"
    assert "    let y = x + 1;\n" in (tmp_path / "src" / "lib.rs").read_text()


def test_rustc_add_semicolon_before_a_keyword_is_applied(tmp_path, crate):
    # itoa's `let (pair1, pair2) = divmod100(quad as u32)` before `unsafe {`: "expected `;`,
    # found keyword `unsafe`"
    crate(
        "pub fn first(xs: &[u32]) -> u32 {\n    let n = xs.len()\n"
        "    unsafe { *xs.get_unchecked(n - 1) }\n}\n"
    )
    _recovered(CARGO, tmp_path)
    assert "    let n = xs.len();\n" in (tmp_path / "src" / "lib.rs").read_text()


CODEC = """\
pub mod codec {
    pub fn encode(x: u32) -> u32 {
        x + 1
    }
}

pub fn decode(x: u32) -> u32 {
    x - 1
}

pub fn roundtrip(x: u32) -> u32 {
    decode(encode(x))
}
"""


def test_the_import_help_wins_over_the_similar_name_help(tmp_path, crate):
    crate(CODEC)
    _recovered(CARGO, tmp_path)
    text = (tmp_path / "src" / "lib.rs").read_text()
    assert text.startswith("use crate::codec::encode;\n")
    assert "decode(encode(x))" in text


def test_a_similar_name_for_a_name_used_in_several_places_is_a_hint(tmp_path, crate):
    lib = (
        "pub fn decode(x: u32) -> u32 {\n    x - 1\n}\n\npub fn code(x: u32) -> u32 {\n    x\n}\n\n"
    )
    lib += "pub fn roundtrip(x: u32) -> u32 {\n    decode(encode(x))\n}\n\n"
    lib += "pub fn twice(x: u32) -> u32 {\n    encode(encode(x))\n}\n"
    crate(lib)
    report, _ = run_recover_in_process(CARGO, tmp_path, "T")
    assert report.outcomes and all(o.result == "escalated" for o in report.outcomes)
    text = (tmp_path / "src" / "lib.rs").read_text()
    assert "decode(encode(x))" in text and "encode(encode(x))" in text


def test_a_use_goes_after_the_inner_attributes_and_mod_lines(tmp_path, crate):
    crate(
        "//! A crate.\n\n#![no_std]\n#![allow(\n    clippy::identity_op\n)]\n\nmod inner {\n"
        "    pub fn two() -> u32 {\n        2\n    }\n}\n\nuse core::mem;\n\n"
        "pub fn f() -> u32 {\n    two() + mem::size_of::<u8>() as u32\n}\n"
    )
    _recovered(CARGO, tmp_path)
    assert "use core::mem;\nuse crate::inner::two;\n" in (tmp_path / "src" / "lib.rs").read_text()


def test_gccs_expected_semicolon_before_is_applied_at_its_caret(tmp_path, project):
    gcc = project("gcc", {"m.c": "int f(int x) {\n    int y;\n    y = x + 1\n    return y;\n}\n"})
    _recovered([gcc, "-c", "m.c", "-o", os.devnull], tmp_path)
    assert "    y = x + 1;\n" in (tmp_path / "m.c").read_text()


def test_a_lost_workspace_header_is_included_again_outside_conditionals(tmp_path, project):
    header = (
        "#ifndef BOX_H\n#define BOX_H\n#define BOX_API extern\ntypedef struct box { int w; } box;\n"
        "BOX_API int width(const box *b);\n#endif\n"
    )
    source = (
        "#include <stdio.h>\n\n#ifdef USE_LOCALE\n#include <locale.h>\n#endif\n\n"
        "int width(const box *b)\n{\n    return b->w;\n}\n"
    )
    gcc = project("gcc", {"box.h": header, "box.c": source})
    report, _ = run_recover_in_process([gcc, "-c", "box.c", "-o", os.devnull], tmp_path, "T")
    assert report.outcomes and all(o.result == "recovered" for o in report.outcomes)
    text = (tmp_path / "box.c").read_text()
    assert text.startswith('#include <stdio.h>\n#include "box.h"\n\n#ifdef USE_LOCALE\n')


def test_javacs_semicolon_expected_is_applied_at_its_caret(tmp_path, project):
    source = (
        "public class Csv {\n    static String[] split(String line) {\n"
        '        return line.split(",")\n    }\n}\n'
    )
    javac = project("javac", {"Csv.java": source})
    _recovered([javac, "-d", "out", "Csv.java"], tmp_path)
    assert '        return line.split(",");\n' in (tmp_path / "Csv.java").read_text()


def test_mcs_semicolon_expected_on_the_next_line_is_applied_on_the_line_before(tmp_path, project):
    source = (
        "public class Store {\n    int value;\n    public void Set(int v) {\n"
        "        value = v\n    }\n}\n"
    )
    mcs = project("mcs", {"Store.cs": source})
    _recovered([mcs, "-target:library", f"-out:{tmp_path / 's.dll'}", "Store.cs"], tmp_path)
    assert "        value = v;\n" in (tmp_path / "Store.cs").read_text()


def test_gccs_bare_return_without_its_semicolon_gets_it(tmp_path, project):
    source = (
        "static int n;\n\nvoid reset(int hard)\n{\n    if (hard)\n    {\n        n = 0;\n"
        "        return\n    }\n    n = 1;\n}\n"
    )
    gcc = project("gcc", {"h.c": source})
    _recovered([gcc, "-c", "h.c", "-o", os.devnull], tmp_path)
    assert "        return;\n    }\n" in (tmp_path / "h.c").read_text()
