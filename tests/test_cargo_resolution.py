"""cargo's "no matching package" errors, decided by cargo's own words
(classifier/rules/rust_resolve.py): a crate the offline registry cache does
not hold is infra (nothing in the project is wrong), a name cargo answers
with "perhaps you meant" is a typo in the manifest (compile), both on the
dependency's line of Cargo.toml.  Samples: tests/samples/rust/
cargo-offline-unknown-crate (`serde` with no registry cache, `cargo test
--offline`), cargo-dependency-typo (`sered` against a vendored `serde`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace
from faultlens.recipes.model import Refusal
from faultlens.recipes.planning import plan

from .helpers import run_recover_in_process

SAMPLES = Path(__file__).parent / "samples" / "rust"


def _records(case: str, where: Path | None = None):
    d = where or SAMPLES / case
    return classify_bytes(
        (d / "output.txt").read_bytes(),
        Options(cwd=str(d), command=["cargo", "test", "--offline"], exit_code=101),
    )


def test_a_crate_missing_from_the_offline_cache_is_infra_and_never_retried():
    (rec,) = _records("cargo-offline-unknown-crate")
    assert rec.failure_type.value == "infra"
    assert (rec.source_file, rec.source_line) == ("Cargo.toml", 7)
    assert rec.hint["kind"] == "offline" and rec.hint["transient"] is False
    assert rec.hint["package"] == "serde"
    assert rec.signal == "error: no matching package named `serde` found"
    assert "runner" not in rec.hint  # not a test failure


def test_a_typo_cargo_corrects_is_a_compile_failure_with_its_suggestion():
    (rec,) = _records("cargo-dependency-typo")
    assert rec.failure_type.value == "compile"
    assert (rec.source_file, rec.source_line) == ("Cargo.toml", 7)
    assert rec.hint["advice"] == ["perhaps you meant: serde"]
    assert rec.signal == "error: no matching package named `sered` found"


def test_the_compile_recipe_never_renames_a_dependency(tmp_path):
    proj = tmp_path / "cargo-dependency-typo"
    shutil.copytree(SAMPLES / "cargo-dependency-typo", proj)
    (rec,) = _records("cargo-dependency-typo", proj)
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Refusal)
    assert "never renamed or added automatically" in result.reason


@pytest.mark.real_tool
def test_run_recover_on_an_offline_build_escalates_once_and_keeps_cargos_status(tmp_path):
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo not installed (scripts/install-tools.sh test)")
    proj = tmp_path / "cargo-offline-unknown-crate"
    shutil.copytree(
        SAMPLES / "cargo-offline-unknown-crate",
        proj,
        ignore=shutil.ignore_patterns("*.txt", "*.json"),
    )
    (proj / ".git").mkdir()
    report, _ = run_recover_in_process([cargo, "test", "--offline"], proj, "T")
    (outcome,) = report.outcomes
    assert outcome.record.failure_type.value == "infra"
    assert outcome.result == "escalated"
    assert "permanent" in outcome.reason
    assert report.exit_code == 101 and report.reruns == 0  # nothing retried, nothing re-run
