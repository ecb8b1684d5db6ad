"""A CI step's script is followed through its literal `cd`s: a tool's
relative paths in that step name files of the folder it ran in."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier.engine import Classifier, Options
from faultlens.classifier.stepdir import in_folder, script_folder

CASES = Path(__file__).resolve().parent.parent / "eval" / "cases" / "ci"


@pytest.mark.parametrize(
    ("script", "folder"),
    [
        (["make -s -j2"], "."),
        (["cd testes/libs && make -s && cd ..", "../lua -W all.lua"], "testes"),
        (["cd build && ctest --output-on-failure && cd .."], "build"),
        (["cd build; make", "cd ../docs", "make html"], "docs"),
        (["pushd web", "npm test"], "web"),
        (['cd "my dir" && pytest'], "my dir"),
        (["cd $GITHUB_WORKSPACE/sub && make"], None),
        (["cd ~/src && make"], None),
        (["cd /tmp && make"], None),
        (["cd .. && make"], None),
        (["cd - && make"], None),
        (["cd", "make"], None),
        (["popd", "make"], None),
    ],
)
def test_the_folder_a_script_s_last_command_ran_in(script: list[str], folder: str | None):
    assert script_folder(script) == folder


def test_a_cd_after_the_last_command_does_not_move_it():
    assert script_folder(["cd build && ctest && cd .."]) == "build"


@pytest.mark.parametrize(
    ("folder", "printed", "placed"),
    [
        ("testes", "strings.lua", "testes/strings.lua"),
        ("build/x", "../src/a.c", "build/src/a.c"),
        ("testes", "/home/runner/work/lua/lua/x.lua", "/home/runner/work/lua/lua/x.lua"),
        ("a", "../../etc/passwd", "../../etc/passwd"),
        (None, "strings.lua", "strings.lua"),
        (".", "strings.lua", "strings.lua"),
        ("src", "C:\\w\\a.c", "C:\\w\\a.c"),
    ],
)
def test_a_printed_path_is_placed_in_the_step_s_folder(folder, printed, placed):
    assert in_folder(folder, printed) == placed


def _classify(data: bytes, cwd: Path | str = ".") -> list:
    c = Classifier(Options(cwd=str(cwd)))
    c.feed(data)
    return c.close()


def test_a_lua_assertion_in_a_step_that_changed_folder_names_the_file_there(tmp_path: Path):
    # captured: lua/lua's own CI script run here, wrapped by eval/joblog.py
    log = (CASES / "gha-lua-upper-off-by-one" / "output.txt").read_bytes()
    (record,) = _classify(log, tmp_path)
    assert (record.source_file, record.source_line) == ("testes/strings.lua", 107)


def test_a_path_printed_from_the_workspace_root_stays_where_it_is(tmp_path: Path):
    # the same log, in a checkout where the file sits at the root and not
    # in the step's folder (a tool that prints from the repository's root)
    (tmp_path / "strings.lua").write_text("-- the file\n")
    log = (CASES / "gha-lua-upper-off-by-one" / "output.txt").read_bytes()
    (record,) = _classify(log, tmp_path)
    assert record.source_file == "strings.lua"
