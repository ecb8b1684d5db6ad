"""eval.peers: the measurement against a peer registry's outputs (here a folder
made in the registry's layout from this repository's own captured samples)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eval import peers

SAMPLES = Path(__file__).parent / "samples"


def _registry(tmp_path: Path) -> Path:
    td = tmp_path / "testdata"
    td.mkdir()
    shutil.copy(SAMPLES / "typescript/tsc-plain-ts2304/output.txt", td / "tsc.in")
    (td / "tsc.ok").write_text(
        "src/auth/middleware.ts|42 col 15 error 2304| Cannot find name 'UserProfile'.\n"
        "src/auth/other.ts|7 col 1 error 2304| an entry faultlens is not given\n"
    )
    (td / "quiet.in").write_text("all good\n")
    (td / "quiet.ok").write_text("")
    return td


def test_ok_lines_give_the_file_and_line_of_each_entry() -> None:
    text = "a.py|3 col 1 E 1| m\nb\\c.cs|10 col 2| w\n|5| no file\nd.go|x| no line\n"
    assert peers.parse_ok(text) == [peers.Entry("a.py", 3), peers.Entry("b/c.cs", 10)]


def test_an_entry_is_located_only_by_a_record_at_its_file_and_line(tmp_path: Path) -> None:
    results = {r.name: r for r in peers.run(_registry(tmp_path))}
    assert (results["tsc"].entries, results["tsc"].located) == (2, 1)
    assert "tsc.plain" in results["tsc"].rules
    text = peers.report(list(results.values()))
    assert text.splitlines()[0] == "1 of 1 formats: at least one entry at the peer's file and line"
    assert "1 of 2 entries located (50 %)" in text


def test_a_folder_without_outputs_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert peers.main([str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
