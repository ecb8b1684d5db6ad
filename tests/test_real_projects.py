"""Real open-source projects broken the way developers and agents break them
(tests/samples/projects/<case>: the output, cmd.txt naming the project, its
commit and the exact command, breakage.diff; the project's files are not
kept, only empty placeholders for the paths the output names).

One removed import fails dozens of tests; the user sees one failure, at the
line that needs the import, with the count."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes

PROJECTS = Path(__file__).parent / "samples" / "projects"


def classify(case: str):
    d = PROJECTS / case
    return classify_bytes((d / "output.txt").read_bytes(), Options(cwd=str(d)))


@pytest.mark.parametrize(
    ("case", "where", "name", "tests"),
    [
        # python-semver: `import warnings` removed; pytest with .rst doctests
        ("pytest-semver-removed-import", ("src/semver/_deprecated.py", 70), "warnings", 29),
        # the same under pytest.warns: "DID NOT WARN" raised over the NameError
        ("pytest-semver-did-not-warn", ("src/semver/_deprecated.py", 70), "warnings", 3),
        # more-itertools: `deque` dropped from an import; unittest + DocTestSuite
        ("unittest-more-itertools-removed-import", ("more_itertools/more.py", 1055), "deque", 25),
        # unjs/ufo: `parseURL` dropped from an import; vitest groups tests under one error
        ("vitest-ufo-removed-import", ("src/utils.ts", 596), "parseURL", 119),
        # jshttp/negotiator: a require removed; mocha
        ("mocha-negotiator-removed-require", ("lib/mediaType.js", 85), "contentType", 51),
        # fastify/fastify-plugin: a require removed; node --test, TAP and spec
        ("node-test-fastify-plugin-removed-require", ("index.js", 56), "toCamelCase", 30),
        ("node-test-spec-fastify-plugin-removed-require", ("index.js", 56), "toCamelCase", 30),
    ],
)
def test_one_removed_import_is_one_compile_record_for_all_the_tests_it_fails(
    case, where, name, tests
):
    compile_ = [r for r in classify(case) if r.failure_type.value == "compile"]
    assert len(compile_) == 1
    (r,) = compile_
    assert ((r.source_file, r.source_line), r.hint["name"], r.affected) == (where, name, tests)
    listed = [loc.test for loc in r.related if loc.test]
    assert len(listed) == min(tests, 100) and len(set(listed)) == len(listed)


def test_tests_that_swallow_the_error_stay_test_failures():
    """fastify-plugin's version tests catch whatever fp() throws and call
    t.assert.fail(): nothing in their report names the cause."""
    tests = [
        r
        for r in classify("node-test-spec-fastify-plugin-removed-require")
        if r.failure_type.value == "test"
    ]
    assert {r.hint["test_id"] for r in tests} == {
        'should support "default" function from babel module',
        "should check the fastify version",
    }


def test_a_wrong_return_value_is_one_test_record_per_failing_assertion():
    records = classify("pytest-semver-wrong-return")
    assert [r.failure_type.value for r in records] == ["test"] * 9
    assert records[-1].source_file == "docs/usage/raise-parts-of-a-version.rst"  # a .rst doctest
    assert records[0].hint["expected"] == "'3.4.6'" and records[0].hint["actual"] == "'3.4.7'"


def test_tests_generated_by_one_macro_failing_one_assertion_are_one_group_and_the_doc_test_its_own():
    """dtolnay/itoa with an off-by-one in the unsigned writer: five tests
    made by one macro fail at tests/test.rs:16 with different values (one
    cause), the module's doc example at its own line."""
    group, doc = classify("cargo-itoa-wrong-return")
    assert (group.source_file, group.source_line, group.affected) == ("tests/test.rs", 16, 5)
    assert {loc.test for loc in group.related if loc.test} == {
        "test_u128_0",
        "test_u128_max",
        "test_u64_0",
        "test_u64_half",
        "test_u64_max",
    }
    assert (doc.rule, doc.source_file, doc.source_line) == ("rust.doc_test", "src/lib.rs", 20)
    assert (doc.hint["test_id"], doc.hint["expected"], doc.hint["actual"]) == (
        "src/lib.rs - (line 20)",
        '"128"',
        '"28"',
    )


def test_go_subtests_failing_on_one_check_are_one_group_with_the_line_that_says_why():
    records = classify("go-uuid-wrong-return")
    group = next(r for r in records if r.affected > 1)
    assert (group.source_file, group.source_line, group.affected) == ("version6_test.go", 30, 6)
    assert group.hint["why"] == "got 12, want version 6"
    assert all(t.test.startswith("TestNewV6WithTime/") for t in group.related if t.test)


@pytest.mark.parametrize(
    ("case", "rule", "where"),
    [
        # a stray `+` in jshttp/negotiator: mocha's "Exception during run:" is Node's report
        ("mocha-negotiator-syntax-error", "node.syntax_error", ("lib/mediaType.js", 86)),
        # a missing `:` in python-semver: the conftest cannot import the package
        ("pytest-semver-syntax-error", "pytest.conftest_error", ("src/semver/version.py", 313)),
    ],
)
def test_a_syntax_error_is_one_compile_record_at_the_line_that_does_not_parse(case, rule, where):
    (r,) = classify(case)
    assert (r.failure_type.value, r.rule, (r.source_file, r.source_line)) == (
        "compile",
        rule,
        where,
    )
