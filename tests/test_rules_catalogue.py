"""docs/rules.md is generated from the rules' docstrings and kept current."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier.rules import all_rules
from faultlens.cli.rules import catalogue

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_rule_catalogue_page_is_current():
    expected = catalogue(all_rules())
    assert DOC.read_text() == expected, "run: faultlens rules --markdown > docs/rules.md"


def test_catalogue_names_every_rule():
    text = catalogue(all_rules())
    assert all(f"`{r.id}`" in text for r in all_rules())
