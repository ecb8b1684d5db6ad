"""What a re-run and a box need from a test record (issue 12 items 3 and 6,
classifier side), on real captured output: the runner, the complete raw
test id, its levels, its file; expected vs actual, the line that says
why, the tool's own suggestion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.classifier.record import FailureRecord

SAMPLES = Path(__file__).parent / "samples"


def classify(case: str) -> list[FailureRecord]:
    d = SAMPLES / case
    return classify_bytes((d / "output.txt").read_bytes(), Options(cwd=str(d)))


def ids(case: str, key: str = "test_id") -> list[object]:
    return [r.hint.get(key) for r in classify(case)]


def test_pytest_node_ids_come_from_the_summary_line_exactly():
    (r,) = classify("python_test/pytest-name-error-in-module")
    assert "tests/test_cart.py::test_lazy[<lambda>0]" in [x.test for x in r.related]
    assert r.hint["runner"] == "pytest"


def test_pytest_node_ids_under_tb_native_are_taken_from_the_summary():
    assert ids("python_test/pytest-ci-runner-absolute") == [
        "tests/test_calc.py::test_total",
        "tests/test_calc.py::TestRatio::test_zero",
        "tests/test_calc.py::TestRatio::test_values[1-4-0.5]",
        "tests/test_calc.py::test_message",
    ]


def test_vitest_titles_keep_quotes_brackets_and_the_printed_heading():
    (r,) = classify("js_test/vitest-reference-error-in-module")
    assert [x.test for x in r.related if x.test] == [
        "cart totals nothing",
        "cart totals one item",
        'cart totals "special" (quoted) prices',
        "cart nested level totals big [1e6] numbers",
    ]
    # the first test's heading exactly as printed: "nested > level" is ONE
    # describe, which only the printed heading (with " > ") can tell a re-run
    assert r.hint["test_title"] == "cart > totals nothing"


def test_jest_and_mocha_titles_are_joined_by_one_space_with_the_path_as_a_list():
    (j,) = classify("js_test/jest-reference-error-in-module")
    (m,) = classify("js_test/mocha-reference-error-in-module")
    assert j.hint["test_path"] == ["cart", "totals nothing"]
    assert j.hint["test_title"] == "cart › totals nothing"
    assert [x.test for x in j.related if x.test] == [x.test for x in m.related if x.test]
    assert [x.test for x in m.related if x.test][2] == 'cart totals "special" (quoted) prices'
    assert (j.hint["runner"], m.hint["runner"]) == ("jest", "mocha")


def test_go_subtest_ids_keep_parentheses_and_slashes_as_printed():
    records = classify("go/test-service-env-subtests")
    assert [r.hint["test_id"] for r in records] == [
        "TestPing",
        "TestToken",
        "TestSlug/simple",
        "TestSlug/with_(parens)_/_slash",
    ]
    assert records[3].hint["test_path"] == ["TestSlug", "with_(parens)_", "_slash"]
    assert {r.hint["runner"] for r in records} == {"go"}
    assert {r.hint["package"] for r in records} == {"example.com/shop/store"}


def test_cargo_test_paths_and_doc_test_names():
    records = classify("rust/cargo-test-doc-service-env")
    assert [r.hint["test_id"] for r in records] == [
        "tests::cache_is_up",
        "tests::vat_of_zero",
        "tests::database_is_postgres",
        "src/lib.rs - with_vat (line 7)",
    ]
    assert {r.hint["runner"] for r in records} == {"cargo"}


def test_unittest_ids_are_dotted_with_their_test_file_and_line():
    records = classify("python_test/unittest-failures")
    total = next(r for r in records if r.hint["test_id"].endswith("test_total"))
    assert (total.hint["test_file"], total.hint["runner"]) == ("test_cart.py", "unittest")
    assert isinstance(total.hint["test_line"], int)


@pytest.mark.parametrize(
    ("case", "index", "expected", "actual"),
    [
        ("js_test/vitest-assertions", 0, "10", "11"),  # AssertionError: expected 11 to be 10
        ("js_test/jest-assertions", 0, "10", "11"),  # Expected: 10 / Received: 11
        ("js_test/mocha-assertions", 0, "10", "11"),  # + expected - actual
        ("js_test/node-test-spec", 0, "10", "11"),  # actual: 11, expected: 10
        ("go/test-fail", 0, "4", "5"),  # Add(2, 2) = 5, want 4
        ("rust/cargo-test-assert-eq", 1, "4", "5"),  # left: 5 / right: 4
        ("python_test/unittest-failures", 3, "5", "4"),  # AssertionError: 4 != 5
        ("python_test/pytest-long-failures", 0, "5", "4"),  # assert 4 == 5
    ],
)
def test_expected_and_actual_from_every_runner_that_prints_them(case, index, expected, actual):
    r = classify(case)[index]
    assert (r.hint["expected"], r.hint["actual"]) == (expected, actual)
    assert r.hint["why"]


def test_the_line_that_says_why_a_go_test_failed():
    records = classify("go/test-fail")
    assert [r.hint["why"] for r in records] == [
        "Add(2, 2) = 5, want 4",
        'Split("") returned 0 parts, want 1',
    ]


def test_node_assert_says_why_on_the_line_under_its_message():
    r = classify("js_test/mocha-assertions")[0]
    assert r.hint["why"] == (
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 11 !== 10"
    )


def test_pytest_where_lines_are_the_explanation():
    (r,) = classify("python_test/pytest-captured-traceback")
    assert (r.hint["why"], r.hint["explanation"]) == ("assert 3 == 4", ["+  where 3 = risky()"])


@pytest.mark.parametrize(
    ("case", "advice"),
    [
        ("rust/cargo-build-e0425", "help: a local variable with a similar name exists"),
        (
            "go/build-but-does-have",
            "type English has no field or method greet, but does have Greet",
        ),
        ("typescript/tsc-did-you-mean", "Did you mean 'total'?"),
        ("python/attribute-error-did-you-mean", "Did you mean: 'amount'?"),
    ],
)
def test_the_tools_own_suggestion_is_kept_verbatim(case, advice):
    r = classify(case)[0]
    assert r.hint["advice"][0] == advice
    assert r.hint.get("suggestion")


def test_a_test_title_holding_a_url_password_is_masked_in_the_record_but_kept_raw_for_a_rerun():
    """unjs/ufo's normalizeURL tests are named by fixture URLs
    (`http://userid:password@example.com`): the record masks them like any
    secret, and the raw id a re-run needs is kept in memory only."""
    (r,) = classify("projects/vitest-ufo-removed-import")
    masked = [t.test for t in r.related if t.test and "(8 chars)" in t.test]
    assert len(masked) == 5
    assert [r.raw_test(t) for t in masked] == [
        "normalizeURL http://my_email%40gmail.com:password@www.my_site.com",
        "normalizeURL http://userid:password@example.com:8080",
        "normalizeURL http://userid:password@example.com:8080/",
        "normalizeURL http://userid:password@example.com",
        "normalizeURL http://userid:password@example.com/",
    ]
    assert "password@" not in json.dumps(r.to_json())
    assert r.raw_test("normalizeURL http://foo.com") == "normalizeURL http://foo.com"


def test_each_cargo_test_knows_the_target_to_re_run_it_in():
    """cargo closes each failing target with `error: test failed, to rerun
    pass `--test test`` (`--lib`, `--doc`): the tests above it are in it."""
    group, doc = classify("projects/cargo-itoa-wrong-return")
    assert (group.hint["target"], doc.hint["target"]) == ("--test test", "--doc")
    assert {r.hint["target"] for r in classify("rust/cargo-test-doc-service-env")} == {
        "--lib",
        "--doc",
    }
