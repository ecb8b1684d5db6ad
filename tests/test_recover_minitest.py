"""Minitest's spec style (`describe "shopping cart" do ... it "..."`) through
`faultlens run --recover`: the failing spec is re-run alone by its method
name (`-n /^(?:test_0001_totals\\ the\\ prices)$/`), a flaky one recovered by
minitest's own summary, a real one escalated with expected and actual.
Real ruby (Debian's ruby, minitest 5)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .helpers import run_recover_in_process

pytestmark = [
    pytest.mark.real_tool,
    pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby not installed"),
]

SPEC = """\
require "minitest/autorun"

describe "shopping cart" do
  it "totals the prices" do
    calls = File.exist?("calls") ? File.read("calls").size : 0
    File.write("calls", "x" * (calls + 1))
    _(calls).must_be :>, 0
  end

  it "starts empty" do
    _([].sum).must_equal %s
  end
end
"""


def _project(tmp_path: Path, empty_total: str) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "cart_spec.rb").write_text(SPEC % empty_total)
    return tmp_path


def test_a_flaky_spec_is_re_run_alone_and_recovered(tmp_path: Path):
    root = _project(tmp_path, "0")
    report, _ = run_recover_in_process(["ruby", "cart_spec.rb", "--seed", "1"], root, "T")
    (o,) = report.outcomes
    assert o.result == "recovered" and o.reason.startswith("flaky test:"), o.reason
    assert "shopping cart#test_0001_totals the prices" in o.reason
    assert report.exit_code == 0


def test_a_real_spec_failure_is_escalated_with_how_to_run_it_alone(tmp_path: Path):
    root = _project(tmp_path, "1")
    (root / "calls").write_text("x")  # the first spec passes from the start
    report, _ = run_recover_in_process(["ruby", "cart_spec.rb", "--seed", "1"], root, "T")
    (o,) = report.outcomes
    assert o.result == "escalated" and o.reason.startswith("a real failure:"), o.reason
    alone = [d for d in o.details if d.startswith("Run it alone: ")]
    assert alone and alone[0].endswith("-n '/^(?:test_0002_starts\\ empty)$/'")
    assert o.record.hint.get("expected") == "1" and o.record.hint.get("actual") == "0"
