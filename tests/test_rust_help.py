"""rustc's helps taken from its text output: `add `;` here` applied (it is
MachineApplicable in rustc's JSON); the import help wins over the "similar
name" one (MaybeIncorrect), which never turns `encode(` into `decode(`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool
CARGO = ["cargo", "build", "--offline"]


def _crate(root: Path, lib: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("cargo") is None:
        pytest.skip("cargo not installed")
    (root / "Cargo.toml").write_text(
        '[package]\nname = "semi"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n'
    )
    (root / "src").mkdir()
    (root / "src" / "lib.rs").write_text(lib)
    (root / ".git").mkdir()
    monkeypatch.setenv("CARGO_TARGET_DIR", str(root / "target"))


def test_rustc_add_semicolon_here_is_applied_from_its_text_output(tmp_path, monkeypatch):
    _crate(tmp_path, "pub fn f(x: u32) -> u32 {\n    let y = x + 1\n    y * 2\n}\n", monkeypatch)
    report, _ = run_recover_in_process(CARGO, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Add `;` (rustc's help)"
    assert "    let y = x + 1;\n" in (tmp_path / "src" / "lib.rs").read_text()


def test_rustc_add_semicolon_before_a_keyword_is_applied(tmp_path, monkeypatch):
    # itoa's `let (pair1, pair2) = divmod100(quad as u32)` before `unsafe {`: "expected `;`,
    # found keyword `unsafe`"
    lib = "pub fn first(xs: &[u32]) -> u32 {\n    let n = xs.len()\n    unsafe { *xs.get_unchecked(n - 1) }\n}\n"
    _crate(tmp_path, lib, monkeypatch)
    report, _ = run_recover_in_process(CARGO, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
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


def test_the_import_help_wins_over_the_similar_name_help(tmp_path, monkeypatch):
    _crate(tmp_path, CODEC, monkeypatch)
    report, _ = run_recover_in_process(CARGO, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    text = (tmp_path / "src" / "lib.rs").read_text()
    assert text.startswith("use crate::codec::encode;\n")
    assert "decode(encode(x))" in text


def test_a_similar_name_for_a_name_used_in_several_places_is_a_hint(tmp_path, monkeypatch):
    lib = (
        "pub fn decode(x: u32) -> u32 {\n    x - 1\n}\n\npub fn code(x: u32) -> u32 {\n    x\n}\n\n"
    )
    lib += "pub fn roundtrip(x: u32) -> u32 {\n    decode(encode(x))\n}\n\n"
    lib += "pub fn twice(x: u32) -> u32 {\n    encode(encode(x))\n}\n"
    _crate(tmp_path, lib, monkeypatch)
    report, _ = run_recover_in_process(CARGO, tmp_path, "T")
    assert report.outcomes and all(o.result == "escalated" for o in report.outcomes)
    text = (tmp_path / "src" / "lib.rs").read_text()
    assert "decode(encode(x))" in text and "encode(encode(x))" in text


def test_a_use_goes_after_the_inner_attributes_and_mod_lines(tmp_path, monkeypatch):
    lib = (
        "//! A crate.\n\n#![no_std]\n#![allow(\n    clippy::identity_op\n)]\n\nmod inner {\n"
        "    pub fn two() -> u32 {\n        2\n    }\n}\n\nuse core::mem;\n\n"
        "pub fn f() -> u32 {\n    two() + mem::size_of::<u8>() as u32\n}\n"
    )
    _crate(tmp_path, lib, monkeypatch)
    report, _ = run_recover_in_process(CARGO, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "use core::mem;\nuse crate::inner::two;\n" in (tmp_path / "src" / "lib.rs").read_text()


def test_gccs_expected_semicolon_before_is_applied_at_its_caret(tmp_path):
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "m.c").write_text("int f(int x) {\n    int y;\n    y = x + 1\n    return y;\n}\n")
    import os

    report, _ = run_recover_in_process([gcc, "-c", "m.c", "-o", os.devnull], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "    y = x + 1;\n" in (tmp_path / "m.c").read_text()


def test_a_lost_workspace_header_is_included_again_outside_conditionals(tmp_path):
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not installed")
    import os

    (tmp_path / ".git").mkdir()
    (tmp_path / "box.h").write_text(
        "#ifndef BOX_H\n#define BOX_H\n#define BOX_API extern\ntypedef struct box { int w; } box;\n"
        "BOX_API int width(const box *b);\n#endif\n"
    )
    (tmp_path / "box.c").write_text(
        "#include <stdio.h>\n\n#ifdef USE_LOCALE\n#include <locale.h>\n#endif\n\n"
        "int width(const box *b)\n{\n    return b->w;\n}\n"
    )
    report, _ = run_recover_in_process([gcc, "-c", "box.c", "-o", os.devnull], tmp_path, "T")
    assert report.outcomes and all(o.result == "recovered" for o in report.outcomes)
    text = (tmp_path / "box.c").read_text()
    assert text.startswith('#include <stdio.h>\n#include "box.h"\n\n#ifdef USE_LOCALE\n')


def test_javacs_semicolon_expected_is_applied_at_its_caret(tmp_path):
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "Csv.java").write_text(
        "public class Csv {\n    static String[] split(String line) {\n"
        '        return line.split(",")\n    }\n}\n'
    )
    report, _ = run_recover_in_process([javac, "-d", "out", "Csv.java"], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert '        return line.split(",");\n' in (tmp_path / "Csv.java").read_text()


def test_mcs_semicolon_expected_on_the_next_line_is_applied_on_the_line_before(tmp_path):
    mcs = shutil.which("mcs")
    if mcs is None:
        pytest.skip("mono's mcs not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "Store.cs").write_text(
        "public class Store {\n    int value;\n    public void Set(int v) {\n"
        "        value = v\n    }\n}\n"
    )
    cmd = [mcs, "-target:library", f"-out:{tmp_path / 's.dll'}", "Store.cs"]
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "        value = v;\n" in (tmp_path / "Store.cs").read_text()


def test_gccs_bare_return_without_its_semicolon_gets_it(tmp_path):
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not installed")
    import os

    (tmp_path / ".git").mkdir()
    (tmp_path / "h.c").write_text(
        "static int n;\n\nvoid reset(int hard)\n{\n    if (hard)\n    {\n        n = 0;\n"
        "        return\n    }\n    n = 1;\n}\n"
    )
    report, _ = run_recover_in_process([gcc, "-c", "h.c", "-o", os.devnull], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "        return;\n    }\n" in (tmp_path / "h.c").read_text()
