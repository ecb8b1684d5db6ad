"""A "did you mean" that names the same constant under a namespace is a hint
(the name is right, its definition is not loaded: Ruby's
`Erubi::CaptureBlockEngine` for `CaptureBlockEngine`); a respelling under a
namespace is an edit that never doubles the namespace the code writes."""

from __future__ import annotations

import shutil
from pathlib import Path

from faultlens.classifier.engine import Options, classify_text
from faultlens.recipes import Workspace
from faultlens.recipes.model import Plan
from faultlens.recipes.planners.compile_names import (
    names_another_thing,
    unqualified_where_written,
)
from faultlens.recipes.single_attempt import plan

SAMPLE = Path(__file__).parent / "samples" / "ruby" / "name-error"


def test_the_same_constant_in_a_namespace_is_a_hint_not_an_edit():
    assert names_another_thing("Erubi::CaptureBlockEngine", "CaptureBlockEngine")
    assert names_another_thing("app.models.User", "User")
    assert not names_another_thing("Shop::Price", "Prise")
    assert not names_another_thing("price", "prise")


def test_the_namespace_already_written_is_not_written_twice():
    assert unqualified_where_written("Erubi::CaptureEngine", "  Erubi::") == "CaptureEngine"
    assert unqualified_where_written("Shop::Price", "  .reduce(") == "Shop::Price"


def test_rubys_respelling_under_a_namespace_is_planned_from_real_output(tmp_path):
    proj = tmp_path / "p"
    shutil.copytree(SAMPLE, proj)
    (rec,) = classify_text((SAMPLE / "output.txt").read_text(), Options(cwd=str(proj)))
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == "Change 'Prise' to 'Shop::Price'"
    (edit,) = result.edits
    line = (proj / "lib" / "shop" / "cart.rb").read_text().splitlines()[edit.start_line]
    assert line[edit.start_col : edit.end_col] == "Prise"
