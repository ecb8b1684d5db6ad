"""C: the system header that defines a macro gcc names no header for
(`'DBL_EPSILON' undeclared`), from the compiler's own include folders
(recipes/names/c_std.py); a macro several headers define is no edit."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.model import Plan
from faultlens.recipes.names import c_std
from faultlens.recipes.planning import plan

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool
SAMPLES = Path(__file__).parent / "samples"


@pytest.fixture
def gcc() -> str:
    found = shutil.which("gcc")
    if found is None:
        pytest.skip("gcc not installed")
    return found


def test_a_macro_gcc_names_no_header_for_gets_the_one_header_defining_it(tmp_path, gcc):
    """Real gcc 12 output: no `note: ... is defined in header`; the index of
    gcc's include folders has DBL_EPSILON in float.h alone."""
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / "c" / "gcc-undeclared-macro-no-header", proj)
    opts = Options(cwd=str(proj), command=[gcc, "-std=c89", "-c", "near.c"])
    (rec,) = classify_bytes((proj / "output.txt").read_bytes(), opts)
    rec.hint["command"] = [gcc, "-std=c89", "-pedantic", "-Wall", "-c", "near.c"]
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == "Add #include <float.h>"
    fixed = apply_to_text((proj / "near.c").read_text(), result.edits)
    assert fixed.startswith("#include <math.h>\n#include <float.h>\n")


def test_a_macro_several_system_headers_define_is_no_header(gcc):
    header, notes = c_std.header_for(gcc, ["SEEK_SET"], "int f(void);\n")
    assert header is None
    assert notes and "stdio.h" in notes[0] and "unistd.h" in notes[0]


def test_a_header_already_included_is_not_added_again(gcc):
    assert c_std.header_for(gcc, ["DBL_EPSILON"], "#include <float.h>\n") == (None, [])


def test_a_removed_float_h_is_restored_and_verified_by_the_compile(tmp_path, gcc):
    (tmp_path / ".git").mkdir()
    (tmp_path / "near.c").write_text(
        "#include <math.h>\n\nint near_equal(double a, double b)\n{\n"
        "    return fabs(a - b) <= DBL_EPSILON;\n}\n"
    )
    cmd = [gcc, "-std=c89", "-pedantic", "-Wall", "-c", "near.c", "-o", os.devnull]
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Add #include <float.h>"
    assert (tmp_path / "near.c").read_text().startswith("#include <math.h>\n#include <float.h>\n")
