"""uvu (lukeed/uvu): its failure reports (rule uvu.failure), its summary and
its re-run, which selects test files (`uvu test '^(?:cart\\.js)$'`), never
tests.  Output: tests/samples/js_test/uvu-failures (uvu 0.5.6: an assertion
with its diff, a deep-equal diff, a suite's test, and a name used without
its import, which uvu prints by its message alone) and
tests/rerun_samples/uvu-mixed (a re-run of two files: one still fails, the
other's tests all pass)."""

from __future__ import annotations

import re
from pathlib import Path

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes.fixes.test_runners import SingleTest, select
from faultlens.recipes.rerun_proof import judge_rerun, proves_a_pass, tally

ROOT = Path(__file__).parent
SAMPLE = ROOT / "samples" / "js_test" / "uvu-failures"
RERUN = ROOT / "rerun_samples" / "uvu-mixed"
INSIDE = lambda path: not Path(path).is_absolute() and ".." not in Path(path).parts  # noqa: E731


def test_uvu_reports_are_records_with_their_tests_values_and_causes():
    recs = classify_bytes((SAMPLE / "output.txt").read_bytes(), Options(cwd=str(SAMPLE)))
    # the primary record (the compile cause) is listed first, the rest as printed
    assert recs[0].primary and recs[0].failure_type.value == "compile"
    recs = sorted(recs, key=lambda r: r.log_line or 0)
    got = [
        (r.failure_type.value, r.source_file, r.source_line, r.hint["test_id"], r.hint["runner"])
        for r in recs
    ]
    assert got == [
        ("test", "test/cart.js", 10, "totals three", "uvu"),
        ("compile", "src/cart.js", 7, "labels", "uvu"),  # `fmt is not defined`: the name's line
        ("test", "test/cart.js", 18, "deep", "uvu"),
        ("test", "test/cart.js", 28, "count counts wrong", "uvu"),  # suite `count`
    ]
    first, missing = recs[0], recs[1]
    assert (first.hint["expected"], first.hint["actual"]) == ("6", "7")
    assert first.hint["test_file"] == "test/cart.js"
    assert (missing.hint["cause"], missing.hint["name"]) == ("name", "fmt")
    assert recs[3].hint["test_path"] == ["count", "counts wrong"]


def test_uvu_reruns_the_failing_tests_files_with_the_commands_own_flags():
    tests = [
        SingleTest("uvu", "totals three", file="test/cart.js", path=("totals three",)),
        SingleTest(
            "uvu", "count counts wrong", file="test/cart.js", path=("count", "counts wrong")
        ),
        SingleTest("uvu", "x", file="test/unit/flaky.test.js", path=("x",)),
    ]
    (sel,) = select(tests, ["npx", "uvu", "-r", "esm", "test"], INSIDE)
    assert sel.argv == [
        "npx", "uvu", "-r", "esm", "test", r"^(?:cart\.js|unit\/flaky\.test\.js)$",
    ]  # fmt: skip
    (sel,) = select(tests[:1], ["npm", "test"], INSIDE, script="uvu test")
    assert sel.argv == ["npm", "test", "--", r"^(?:cart\.js)$"]


def test_a_uvu_rerun_proves_the_tests_of_a_listed_file_that_did_not_fail_passed():
    cmd = (RERUN / "cmd.txt").read_text()
    status = int(re.search(r"# exit status (\d+)", cmd).group(1))
    out = (RERUN / "output.txt").read_text()
    assert tally("uvu", out).line == "Total 8, Passed 4, Skipped 0"
    assert proves_a_pass("uvu", out, status)[0] is False  # some failed
    tests = [
        SingleTest("uvu", "totals three", file="test/cart.js", path=("totals three",)),
        SingleTest(
            "uvu",
            "passes on its second run",
            file="test/flaky.js",
            path=("passes on its second run",),
        ),
        SingleTest("uvu", "gone", file="test/other.js", path=("gone",)),  # its file did not run
    ]
    assert judge_rerun("uvu", tests, out, status).results == {
        "totals three": "failed",
        "passes on its second run": "passed",
        "gone": "not_run",
    }
