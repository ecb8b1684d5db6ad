"""The test recipe: re-run only the failing test once; flaky → recovered,
real → escalated with expected vs actual (end to end with real pytest)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from faultlens.recipes import Workspace
from faultlens.recipes.fixes.test_rerun import SingleTest, expected_actual, find_test
from faultlens.recipes.fixes.test_runners import Refused, select

from .helpers import run_recover_in_process

INSIDE = lambda path: ".." not in Path(path).parts and not Path(path).is_absolute()  # noqa: E731


@pytest.mark.parametrize(
    ("tool", "hint", "text", "command", "expected"),
    [
        (
            None,
            {"runner": "pytest", "test_id": "t.py::T::test_y"},
            "",
            [".venv/bin/pytest", "-x", "tests"],
            [".venv/bin/pytest", "-x", "-p", "no:cacheprovider", "-rA", "t.py::T::test_y"],
        ),
        (
            "python",
            {"runner": "unittest"},
            "FAIL: test_total (tests.test_cart.CartTests.test_total)",
            ["python3", "-m", "unittest"],
            ["python3", "-m", "unittest", "-v", "tests.test_cart.CartTests.test_total"],
        ),
        (
            "go",
            {"package": "./calc"},
            "--- FAIL: TestAdd (0.00s)",
            ["go", "test", "./..."],
            ["go", "test", "-v", "-count=1", "-run", "^TestAdd$", "./calc"],
        ),
        (
            "cargo",
            {},
            "---- tests::adds stdout ----",
            ["cargo", "test", "--offline"],
            ["cargo", "test", "--offline", "--", "--exact", "tests::adds"],
        ),
        (
            "jest",
            {"test_name": "adds (1 + 2)"},
            "",
            ["npx", "jest"],
            ["npx", "jest", "-t", "^(?:adds \\(1 \\+ 2\\))$"],
        ),
        (
            "vitest",
            {"test_name": "sums"},
            "",
            ["npx", "vitest"],
            ["npx", "vitest", "run", "-t", "^(?:sums)$"],
        ),
    ],
)
def test_only_the_failing_test_is_rerun(tool, hint, text, command, expected):
    ref = find_test(tool, hint, text, command)
    assert ref is not None
    (sel,) = select([ref], command, INSIDE)
    assert sel.argv == expected


@pytest.mark.parametrize(
    ("tool", "hint", "command"),
    [
        ("pytest", {"test_id": "--rootdir=/ ; rm -rf /"}, ["pytest"]),
        ("pytest", {"test_id": "-p evil"}, ["pytest"]),
        ("pytest", {"test_id": "../../x.py::t"}, ["pytest"]),
        ("pytest", {"test_id": "/etc/passwd.py::t"}, ["pytest"]),
        ("unittest", {"test_id": "os.system('x')"}, ["python", "-m", "unittest"]),
        ("go", {"test_id": "TestX", "package": "../../x"}, ["go", "test"]),
    ],
)
def test_a_hostile_test_id_is_refused(tool, hint, command):
    ref = find_test(tool, hint, "", command)
    if ref is None:
        return
    with pytest.raises(Refused):
        select([ref], command, INSIDE)


def test_ids_with_any_characters_are_one_argv_element_each():
    ref = find_test("go", {"test_id": "TestX$(id)/a b"}, "", ["go", "test"])
    (sel,) = select([ref], ["go", "test"], INSIDE)
    assert sel.argv[-2] == r"^TestX\$\(id\)$/^a b$"


@pytest.mark.parametrize(
    ("output", "pair"),
    [
        ("AssertionError: 1008 != 1080\n", ("1080", "1008")),
        ("E       assert 4 == 5\n", ("5", "4")),
        ("    Expected: 3\n    Received: 2\n", ("3", "2")),
        ("    calc_test.go:9: got 4, want 5\n", ("5", "4")),
        ("  left: 4\n right: 5\n", ("5", "4")),
    ],
)
def test_expected_and_actual_are_read_from_the_output(output, pair):
    assert expected_actual(output) == pair


def test_single_test_is_a_value():
    assert SingleTest("go", "TestX") == SingleTest("go", "TestX")


# -- end to end with the real pytest -------------------------------------------------------------
FLAKY = """
from pathlib import Path

def test_sometimes():
    marker = Path(__file__).with_name("ran-once")
    if not marker.exists():
        marker.write_text("x")
        assert False, "first run fails"
"""
REAL = """
def add(a, b):
    return a + b

def test_add():
    assert add(2, 2) == 5

def test_fine():
    assert add(1, 1) == 2
"""


def _run(tmp_path: Path, task: str):
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "tests"]
    return run_recover_in_process(cmd, tmp_path, task)


def _events(ws: Workspace) -> list[dict]:
    return [json.loads(ln) for ln in (ws.state / "events.jsonl").read_text().splitlines()]


@pytest.mark.real_tool
def test_a_flaky_pytest_test_passes_on_its_single_rerun_and_is_recovered(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_flaky.py").write_text(FLAKY)
    report, ws = _run(tmp_path, "TASK-FLAKY")
    (rec,) = report.records
    assert rec.failure_type.value == "test"
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "tests/test_flaky.py::test_sometimes" in outcome.tried
    assert report.exit_code == 0
    succeeded = [e for e in _events(ws) if e["event"] == "recovery.succeeded"]
    assert succeeded and succeeded[0]["note"].startswith("flaky test")


@pytest.mark.real_tool
def test_a_real_pytest_failure_is_escalated_with_expected_and_actual(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_math.py").write_text(REAL)
    report, ws = _run(tmp_path, "TASK-REAL")
    tests = [o for o in report.outcomes if o.record.failure_type.value == "test"]
    assert tests, [r.signal for r in report.records]
    outcome = tests[0]
    assert outcome.result == "escalated"
    assert "Expected: 5" in outcome.details and "Actual: 4" in outcome.details
    assert outcome.box is not None
    flat = " ".join(line.strip("║ ") for line in outcome.box.splitlines())
    assert "Expected: 5" in flat and "Actual: 4" in flat
    assert [o.id for o in outcome.options] == ["retry", "skip", "stop"]
    assert report.exit_code == 1
    kinds = [e["event"] for e in _events(ws)]
    assert "recovery.attempted" in kinds and "recovery.escalated" in kinds


@pytest.mark.real_tool
def test_a_test_erroring_on_a_missing_import_gets_the_compile_fix_then_its_rerun(tmp_path):
    """unittest reports a NameError raised inside a test as that test's error: it
    takes the compile attempt (its cause), whose import is verified by re-running
    the original command."""
    (tmp_path / "shop").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "shop" / "money.py").write_text(
        "class Money:\n    def __init__(self, c):\n        self.c = c\n"
    )
    (tmp_path / "shop" / "cart.py").write_text("def empty():\n    return Money(0)\n")
    (tmp_path / "tests" / "test_cart.py").write_text(
        "import unittest\n\nfrom shop.cart import empty\n\n\n"
        "class CartTests(unittest.TestCase):\n    def test_empty(self):\n"
        "        self.assertEqual(empty().c, 0)\n"
    )
    report, _ = run_recover_in_process([sys.executable, "-m", "unittest"], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.record.failure_type.value == "compile"  # the cause, not the symptom
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Import Money from shop.money"
    assert (tmp_path / "shop" / "cart.py").read_text().startswith("from shop.money import Money\n")
    assert report.exit_code == 0


@pytest.mark.real_tool
def test_a_failing_go_test_is_rerun_alone_and_escalated_with_got_and_want(tmp_path):
    import shutil

    go = shutil.which("go")
    if go is None:
        pytest.skip("go not installed (scripts/install-tools.sh debian)")
    (tmp_path / "go.mod").write_text("module example.com/calc\n\ngo 1.19\n")
    (tmp_path / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a - b }\n")
    (tmp_path / "calc_test.go").write_text(
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n'
        '\tif got := Add(2, 2); got != 4 {\n\t\tt.Errorf("Add(2, 2) = %d, want %d", got, 4)\n\t}\n}\n'
        "\nfunc TestOther(t *testing.T) {}\n"
    )
    report, _ = run_recover_in_process([go, "test", "./..."], tmp_path, "T")
    tests = [o for o in report.outcomes if o.record.failure_type.value == "test"]
    assert tests, [r.signal for r in report.records]
    outcome = tests[0]
    assert outcome.result == "escalated"
    assert outcome.tried == "re-ran TestAdd once (go)"
    assert "go test" not in outcome.reason  # no internal command in "Why it failed"
    assert any(d.endswith("-run '^TestAdd$' .") for d in outcome.details), outcome.details
    assert "Expected: 4" in outcome.details and "Actual: 0" in outcome.details
