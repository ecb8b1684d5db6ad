"""The honest verdict (recipes/rerun_proof.py) on real runner output, and the
re-run commands of every runner (recipes/fixes/test_runners.py): ids escaped
for the runner's own matching, the original flags kept, nothing outside the
workspace.

The outputs are in tests/rerun_samples/<case>/ (the small project, cmd.txt
with the command, its exit status and the tool's version, output.txt),
captured with scripts/capture-rerun.sh."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from faultlens.recipes.fixes.test_runners import (
    Refused,
    SingleTest,
    go_run_pattern,
    regex_escape,
    select,
)
from faultlens.recipes.rerun_proof import judge_rerun, proves_a_pass, tally

SAMPLES = Path(__file__).parent / "rerun_samples"


def _sample(case: str) -> tuple[str, int]:
    cmd = (SAMPLES / case / "cmd.txt").read_text()
    status = int(re.search(r"# exit status (\d+)", cmd).group(1))
    return (SAMPLES / case / "output.txt").read_text(), status


RUNNER = {
    "pytest": "pytest",
    "unittest": "unittest",
    "go": "go",
    "cargo": "cargo",
    "mocha": "mocha",
    "vitest": "vitest",
    "node": "node",
}


@pytest.mark.parametrize(
    "case",
    [
        "pytest-none",
        "pytest-deselected",
        "unittest-none",
        "unittest-zero",
        "go-none",
        "cargo-none",
        "mocha-none",
        "vitest-none",
        "node-none",
    ],
)
def test_a_rerun_that_selects_no_test_is_never_a_pass(case):
    output, status = _sample(case)
    runner = RUNNER[case.split("-")[0]]
    passed, why = proves_a_pass(runner, output, status)
    assert not passed
    assert why


@pytest.mark.parametrize(
    "case",
    ["pytest-one", "unittest-one", "go-one", "cargo-one", "mocha-one", "vitest-one", "node-one"],
)
def test_a_rerun_whose_summary_counts_a_passed_test_is_a_pass(case):
    output, status = _sample(case)
    runner = RUNNER[case.split("-")[0]]
    assert status == 0
    assert proves_a_pass(runner, output, status) == (True, tally(runner, output).line)


@pytest.mark.parametrize(
    "case",
    ["pytest-one", "unittest-one", "go-one", "cargo-one", "mocha-one", "vitest-one", "node-one"],
)
def test_the_summary_a_verdict_quotes_is_one_line_without_its_frame(case):
    output, _ = _sample(case)
    line = tally(RUNNER[case.split("-")[0]], output).line
    assert line and "\n" not in line and line == line.strip(" =")


def test_the_runners_name_the_tests_that_passed():
    out, status = _sample("pytest-one")
    (res,) = [judge_rerun("pytest", [SingleTest("pytest", "test_a.py::test_ok")], out, status)]
    assert res.results == {"test_a.py::test_ok": "passed"}
    out, status = _sample("go-one")
    res = judge_rerun("go", [SingleTest("go", "TestAdd/two_(small)")], out, status)
    assert res.results == {"TestAdd/two_(small)": "passed"}
    out, status = _sample("vitest-none")
    res = judge_rerun("vitest", [SingleTest("vitest", "calc (basic) adds", path=("x",))], out, 0)
    assert res.results == {"calc (basic) adds": "not_run"}


@pytest.mark.parametrize(
    ("case", "runner"),
    [
        ("node-mixed", "node"),  # node --test: TAP when stdout is not a terminal
        ("node-spec-mixed", "node"),
        ("mocha-mixed", "mocha"),
        ("jest-mixed", "jest"),
        ("vitest-mixed", "vitest"),  # vitest lists each test's own name at its depth
    ],
)
def test_a_rerun_with_one_real_failure_still_proves_the_other_test_passed(case, runner):
    """Two failing tests re-run in one command: one fails again, the other
    passes.  The run exits 1 and its summary counts a failure, so only the
    runner's own line for each test says which passed; a selected test the
    runner skipped is not a pass."""
    out, status = _sample(case)
    assert status == 1
    tests = [
        SingleTest(runner, "math add adds 2 + 2", path=("math", "add", "adds 2 + 2")),
        SingleTest(runner, "passes on its re-run", path=("passes on its re-run",)),
        SingleTest(runner, "math add adds 1 + 1", path=("math", "add", "adds 1 + 1")),
    ]
    res = judge_rerun(runner, tests, out, status)
    assert res.results == {
        "math add adds 2 + 2": "failed",
        "passes on its re-run": "passed",
        "math add adds 1 + 1": "not_run",  # listed as skipped (mocha: not listed)
    }


def test_vitest_names_alone_are_not_evidence_when_two_selected_tests_share_them():
    out, status = _sample("vitest-mixed")
    tests = [
        SingleTest("vitest", "math add adds 2 + 2", path=("math", "add", "adds 2 + 2")),
        SingleTest("vitest", "calc sum adds 2 + 2", path=("calc", "sum", "adds 2 + 2")),
    ]
    # `× adds 2 + 2` at depth 2 could be either of them.
    assert set(judge_rerun("vitest", tests, out, status).results.values()) == {"not_run"}


INSIDE = lambda path: not Path(path).is_absolute() and ".." not in Path(path).parts  # noqa: E731


def test_pytest_ids_with_any_characters_are_one_argv_element_each_and_flags_are_kept():
    tests = [
        SingleTest("pytest", "tests/test_x.py::test_f[<lambda>0]"),
        SingleTest("pytest", 'tests/test_x.py::test_g[a b-"c"]'),
    ]
    (sel,) = select(tests, ["python", "-m", "pytest", "-c", "ci.ini", "-q", "tests/"], INSIDE)
    assert sel.argv == [
        "python", "-m", "pytest", "-c", "ci.ini", "-q", "-p", "no:cacheprovider", "-rA",
        "tests/test_x.py::test_f[<lambda>0]", "tests/test_x.py::test_g[a b-\"c\"]",
    ]  # fmt: skip


@pytest.mark.parametrize("flag", [["-p", "no:cacheprovider"], ["-pno:cacheprovider"]])
def test_a_pytest_command_that_already_leaves_the_cache_alone_does_not_get_it_twice(flag):
    argv = ["python", "-m", "pytest", "-q", *flag, "tests"]
    (sel,) = select([SingleTest("pytest", "tests/test_x.py::test_f")], argv, INSIDE)
    assert sel.argv == ["python", "-m", "pytest", "-q", *flag, "-rA", "tests/test_x.py::test_f"]


@pytest.mark.parametrize(
    "test, command",
    [
        (SingleTest("pytest", "tests/../../../x/test_evil.py::test_pwn"), ["pytest"]),
        (SingleTest("go", "TestX", package="../../x"), ["go", "test", "./..."]),
        (SingleTest("mocha", "a b", file="../outside/evil.test.js"), ["mocha"]),
        (SingleTest("pytest", "/etc/test_evil.py::test_pwn"), ["pytest"]),
        (SingleTest("pytest", "--rootdir=/::x"), ["pytest"]),
        (SingleTest("unittest", "../x"), ["python", "-m", "unittest"]),
    ],
)
def test_a_path_in_a_test_id_that_leaves_the_workspace_is_refused(test, command):
    with pytest.raises(Refused):
        select([test], command, INSIDE)


def test_js_titles_are_regex_escaped_and_anchored_for_the_runners_own_matching():
    t = SingleTest("vitest", 'calc (basic) adds "1+1"', file="src/calc.test.js",
                   path=("calc (basic)", 'adds "1+1"'))  # fmt: skip
    (sel,) = select([t], ["npx", "vitest", "--config", "vite.ci.ts"], INSIDE)
    assert sel.argv == [
        "npx", "vitest", "run", "--config", "vite.ci.ts", "src/calc.test.js",
        "-t", r'^(?:calc \(basic\) adds "1\+1")$',
    ]  # fmt: skip
    (sel,) = select(
        [replace(t, framework="mocha")], ["mocha", "--reporter", "dot", "test/"], INSIDE
    )
    assert sel.argv[-2:] == ["--grep", r'^(?:calc \(basic\) adds "1\+1")$']
    assert sel.argv[:3] == ["mocha", "--reporter", "dot"] and "test/" not in sel.argv
    (sel,) = select(
        [replace(t, framework="node")], ["node", "--test", "--test-reporter", "tap"], INSIDE
    )
    assert r'--test-name-pattern=^(?:adds "1\+1"|calc \(basic\) adds "1\+1")$' in sel.argv
    assert regex_escape("a.b*c/d") == r"a\.b\*c\/d"


def test_an_npm_test_script_gets_the_selection_after_its_separator():
    t = SingleTest("vitest", "calc adds", file="src/calc.test.js", path=("calc", "adds"))
    (sel,) = select([t], ["npm", "test"], INSIDE, script="vitest run")
    assert sel.argv == ["npm", "test", "--", "src/calc.test.js", "-t", "^(?:calc adds)$"]


def test_go_subtests_are_quoted_level_by_level_and_flags_are_kept():
    assert go_run_pattern(["TestAdd/two_(small)"]) == r"^TestAdd$/^two_\(small\)$"
    assert go_run_pattern(["TestA", "TestB"]) == "^(?:TestA|TestB)$"
    tests = [SingleTest("go", "TestAdd/two_(small)", package="./calc")]
    (sel,) = select(tests, ["go", "test", "-tags", "integration", "./..."], INSIDE)
    assert sel.argv == [
        "go", "test", "-tags", "integration", "-v", "-count=1",
        "-run", r"^TestAdd$/^two_\(small\)$", "./calc",
    ]  # fmt: skip


def test_cargo_keeps_offline_release_features_and_packages_and_matches_exactly():
    tests = [SingleTest("cargo", "tests::adds"), SingleTest("cargo", "src/lib.rs - add (line 5)")]
    cmd = ["cargo", "test", "--offline", "--release", "--features", "x", "-p", "calc",
           "--", "--test-threads=1"]  # fmt: skip
    (sel,) = select(tests, cmd, INSIDE)
    assert sel.argv == [
        "cargo", "test", "--offline", "--release", "--features", "x", "-p", "calc",
        "--", "--test-threads=1", "--exact", "tests::adds", "src/lib.rs - add (line 5)",
    ]  # fmt: skip


def test_cargo_reruns_each_test_binary_it_named_alone():
    tests = [
        SingleTest("cargo", "tests::adds", package="--lib"),
        SingleTest("cargo", "src/lib.rs - add (line 5)", package="--doc"),
        SingleTest("cargo", "formats", package="--test integration"),
    ]
    argvs = [s.argv for s in select(tests, ["cargo", "test", "--offline"], INSIDE)]
    assert argvs == [
        ["cargo", "test", "--offline", "--lib", "--", "--exact", "tests::adds"],
        ["cargo", "test", "--offline", "--doc", "--", "--exact", "src/lib.rs - add (line 5)"],
        ["cargo", "test", "--offline", "--test", "integration", "--", "--exact", "formats"],
    ]
    (own,) = select(tests[:1], ["cargo", "test", "--lib"], INSIDE)  # the command's own target
    assert own.argv == ["cargo", "test", "--lib", "--", "--exact", "tests::adds"]


def test_unittest_discover_reruns_from_the_start_directory():
    tests = [SingleTest("unittest", "test_cart.CartTest.test_total_0")]
    (sel,) = select(tests, ["python3", "-m", "unittest", "discover", "-s", "tests"], INSIDE)
    assert sel.argv == ["python3", "-m", "unittest", "-v", "test_cart.CartTest.test_total_0"]
    assert sel.cwd == "tests"


def test_a_command_that_is_no_known_runner_is_refused():
    with pytest.raises(Refused):
        select([SingleTest("pytest", "t.py::x")], ["make", "check"], INSIDE)


def test_jvm_ruby_and_php_runners_get_their_own_selection_flags():
    (sel,) = select(
        [SingleTest("maven", "com.acme.CartTest#adds")], ["mvn", "-o", "-q", "test"], INSIDE
    )
    assert sel.argv == [
        "mvn", "-o", "-q", "test", "-Dtest=com.acme.CartTest#adds",
        "-Dsurefire.failIfNoSpecifiedTests=true",
    ]  # fmt: skip
    (sel,) = select([SingleTest("gradle", "com.acme.CartTest.adds")], ["./gradlew", "test"], INSIDE)
    assert sel.argv == ["./gradlew", "test", "--tests", "com.acme.CartTest.adds"]
    (sel,) = select(
        [SingleTest("rspec", "spec/cart_spec.rb:12")], ["bundle", "exec", "rspec"], INSIDE
    )
    assert sel.argv == ["bundle", "exec", "rspec", "spec/cart_spec.rb:12"]
    with pytest.raises(Refused):
        select([SingleTest("rspec", "../x_spec.rb:1")], ["rspec"], INSIDE)
    (sel,) = select([SingleTest("phpunit", "CartTest::testAdds")], ["vendor/bin/phpunit"], INSIDE)
    assert sel.argv == ["vendor/bin/phpunit", "--filter", r"/^(?:testAdds)(?:\s|$)/"]


def test_minitest_re_runs_its_tests_by_name_after_the_file_spec_names_too():
    tests = [
        SingleTest("minitest", "shopping cart#test_0001_totals the prices"),
        SingleTest("minitest", "TestCart#test_count"),
    ]
    (sel,) = select(
        tests, ["ruby", "-Itest", "test/cart_test.rb", "-n", "old", "--seed", "1"], INSIDE
    )
    assert sel.argv == [
        "ruby", "-Itest", "test/cart_test.rb", "--seed", "1",
        "-n", r"/^(?:test_0001_totals\ the\ prices|test_count)$/",
    ]  # fmt: skip
    with pytest.raises(Refused):
        select([SingleTest("minitest", "Cart#count")], ["ruby", "t.rb"], INSIDE)


@pytest.mark.parametrize(
    ("runner", "output", "code", "passed"),
    [
        # The runners' documented summary lines (no toolchain for them here).
        ("maven", "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0\n", 0, True),
        ("maven", "Tests run: 0, Failures: 0, Errors: 0, Skipped: 0\n", 0, False),
        (
            "gradle",
            "> No tests found for given includes: [x](filter.includeTestsMatching)\n",
            1,
            False,
        ),
        ("rspec", "1 example, 0 failures\n", 0, True),
        ("rspec", "0 examples, 0 failures\n", 0, False),
        ("phpunit", "OK (1 test, 2 assertions)\n", 0, True),
        ("phpunit", "No tests executed!\n", 0, False),
        ("minitest", "1 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n", 0, True),
        ("minitest", "0 runs, 0 assertions, 0 failures, 0 errors, 0 skips\n", 0, False),
        ("minitest", "2 runs, 2 assertions, 0 failures, 1 errors, 0 skips\n", 1, False),
    ],
)
def test_other_runners_summaries_decide_a_pass_the_same_way(runner, output, code, passed):
    assert proves_a_pass(runner, output, code)[0] is passed


def test_a_title_holding_a_nul_or_a_newline_still_becomes_one_argv_element():
    t = SingleTest("vitest", "parses a\x00b\nc", file="src/p.test.ts")
    (sel,) = select([t], ["vitest", "run"], INSIDE)
    assert sel.argv[-1] == r"^(?:parses a\x00b\x0ac)$"
    assert all("\x00" not in a for a in sel.argv)
    with pytest.raises(Refused):  # a pytest node id is a path: no NUL there
        select([SingleTest("pytest", "t.py::x\x00")], ["pytest"], INSIDE)
