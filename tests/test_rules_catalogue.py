"""docs/rules.md is generated from the rules' docstrings and kept current."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier.rules import all_rules
from faultlens.cli.catalogue import catalogue

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_rule_catalogue_page_is_current():
    expected = catalogue(all_rules())
    assert DOC.read_text() == expected, "run: faultlens rules --markdown > docs/rules.md"


def test_catalogue_names_every_rule():
    text = catalogue(all_rules())
    assert all(f"`{r.id}`" in text for r in all_rules())


README = DOC.parents[1] / "README.md"


def test_readme_states_the_rule_and_ecosystem_counts_of_the_catalogue():
    import re

    from faultlens.cli.catalogue import summary_counts

    text = README.read_text()
    rules = re.search(r"\*\*(\d+) detection rules\*\*", text)
    ecosystems = re.search(r"\*\*(\d+) ecosystems\*\*", text)
    assert rules and ecosystems, "README.md must state **N detection rules** and **E ecosystems**"
    assert (int(rules.group(1)), int(ecosystems.group(1))) == summary_counts(all_rules()), (
        "update the counts in README.md (faultlens rules --markdown prints them)"
    )


def test_catalogue_links_each_rule_to_a_sample_that_proves_it():
    from faultlens.cli.catalogue import load_samples

    samples = load_samples()
    assert samples.found
    text = catalogue(all_rules(), samples)
    for r in all_rules():
        case = samples.by_rule[r.id][0]
        assert f"(../tests/samples/{case}/)" in text, r.id
