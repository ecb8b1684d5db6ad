"""An installed copy of the project's own file is reported at its source."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier.locate import Locator

COPY = ".tox/py/lib/python3.11/site-packages/tally/counts.py"


def _tree(root: Path, source: str, copy: str | None) -> None:
    (root / "src/tally").mkdir(parents=True)
    (root / "src/tally/counts.py").write_text(source)
    if copy is not None:
        (root / COPY).parent.mkdir(parents=True)
        (root / COPY).write_text(copy)


def test_an_installed_copy_of_the_same_size_is_the_source_file(tmp_path):
    _tree(tmp_path, "x = 1\n", "x = 1\n")
    loc = Locator(tmp_path)
    assert loc.resolve(COPY) == "src/tally/counts.py"
    assert loc.resolve(str(tmp_path / COPY)) == "src/tally/counts.py"
    assert loc.in_project(COPY)


def test_an_installed_copy_that_differs_from_the_source_stays_where_it_is(tmp_path):
    _tree(tmp_path, "x = 1\n", "x = 1  # an older release\n")
    assert Locator(tmp_path).resolve(COPY) == COPY


def test_a_copy_that_is_gone_maps_onto_the_source_of_the_same_name(tmp_path):
    _tree(tmp_path, "x = 1\n", None)
    assert Locator(tmp_path).resolve(COPY) == "src/tally/counts.py"


def test_an_installed_dependency_is_not_mapped(tmp_path):
    _tree(tmp_path, "x = 1\n", None)
    other = ".venv/lib/python3.11/site-packages/requests/api.py"
    assert Locator(tmp_path).resolve(other) == other
    assert not Locator(tmp_path).in_project(other)
