"""Cause over symptom (issue 12 item 1), on real captured test-runner output.

A test that fails because of a missing name or module is a compile failure
at the line that threw; one that fails because a service refused a
connection or a variable is not set is infra. The test stays in the hint,
so it can be re-run once the cause is fixed. Each case is a sample folder
(tests/samples/<family>/<case>: the broken project, cmd.txt, output.txt).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Plan, Workspace, plan
from faultlens.recipes.fixes.infra_needs import is_transient

SAMPLES = Path(__file__).parent / "samples"


def classify(case: str, cwd: Path | None = None) -> list[FailureRecord]:
    d = SAMPLES / case
    return classify_bytes((d / "output.txt").read_bytes(), Options(cwd=str(cwd or d)))


def affected_ids(r: FailureRecord) -> list[str]:
    return [loc.test for loc in r.related if loc.test]


# -- a missing name raised inside tests --------------------------------------------------------
PYTEST_IDS = [
    "tests/test_cart.py::test_empty_total",
    "tests/test_cart.py::test_one_item",
    "tests/test_cart.py::test_totals[prices0]",
    "tests/test_cart.py::test_totals[prices1]",
    "tests/test_cart.py::test_totals[prices2]",
    "tests/test_cart.py::test_lazy[<lambda>0]",
    "tests/test_cart.py::test_lazy[<lambda>1]",
    "tests/test_cart.py::TestCart::test_big",
]


def test_a_name_error_failing_eight_pytest_tests_is_one_compile_record_at_the_line_that_raised():
    (r,) = classify("python_test/pytest-name-error-in-module")
    assert (r.failure_type.value, r.source_file, r.source_line) == ("compile", "shop/cart.py", 5)
    assert (r.hint["name"], r.hint["cause"], r.affected) == ("Money", "name", 8)
    assert affected_ids(r) == PYTEST_IDS  # exact node ids, `[<lambda>0]` included
    assert r.message == "NameError: name 'Money' is not defined"


def test_the_same_name_error_under_unittest_is_the_same_cause_with_dotted_test_ids():
    (r,) = classify("python_test/unittest-name-error-in-module")
    assert (r.failure_type.value, r.source_file, r.source_line) == ("compile", "shop/cart.py", 5)
    assert r.affected == 4  # test_many's two subtests are one test to re-run
    assert affected_ids(r) == [
        "tests.test_cart.BigTest.test_big",
        "tests.test_cart.CartTest.test_empty_total",
        "tests.test_cart.CartTest.test_many",
        "tests.test_cart.CartTest.test_one_item",
    ]
    (py,) = classify("python_test/pytest-name-error-in-module")
    assert r.id == py.id  # the cause's id: no test in it


@pytest.mark.parametrize(
    "case",
    [
        "js_test/vitest-reference-error-in-module",
        "js_test/mocha-reference-error-in-module",
        "js_test/jest-reference-error-in-module",
        "js_test/node-test-reference-error-in-module",
    ],
)
def test_a_reference_error_failing_js_tests_is_one_compile_record_at_the_throwing_frame(case):
    (r,) = classify(case)
    assert (r.failure_type.value, r.source_file, r.source_line) == ("compile", "src/cart.js", 4)
    assert (r.hint["name"], r.affected) == ("Money", 4)
    assert all(loc.file == "test/cart.test.js" for loc in r.related if loc.test)


@pytest.mark.parametrize(
    ("case", "title", "edited"),
    [
        ("python_test/pytest-name-error-in-module", "Import Money from shop.money", "shop/cart.py"),
        (  # the test's `from intro._sigs import builtins` is no way to import it into _sigs
            "python_test/pytest-name-error-imported-from-itself",
            "Import builtins from the standard library",
            "intro/_sigs.py",
        ),
        (  # `from kit import frequencies` (bench/) would import kit/recipes.py's own package
            "python_test/pytest-name-error-imported-from-own-package",
            "Import frequencies from kit.seqs",
            "kit/recipes.py",
        ),
        (
            "python_test/unittest-name-error-in-module",
            "Import Money from shop.money",
            "shop/cart.py",
        ),
        (
            "js_test/vitest-reference-error-in-module",
            "Import Money from './money.js'",
            "src/cart.js",
        ),
        (  # `path` used only as `path.join`, `path.extname`: the built-in module, whole
            "js_test/node-test-reference-error-builtin-module",
            "Import path from 'node:path' (the module)",
            "src/paths.mjs",
        ),
    ],
)
def test_the_compile_recipe_plans_the_missing_import_from_the_cause_record(
    case, title, edited, tmp_path
):
    proj = SAMPLES / case  # planning reads the workspace, writes nothing (state: tmp_path)
    (r,) = classify(case)
    got = plan(r, Workspace(roots=[proj], state_dir=tmp_path / "state"))
    assert isinstance(got, Plan), got
    assert (got.title, [e.path for e in got.edits]) == (title, [edited])


@pytest.mark.parametrize(
    ("case", "module"),
    [
        ("js_test/mocha-cannot-find-module-at-run-time", "./formatter"),
        ("js_test/jest-cannot-find-module-at-run-time", "./formatter"),
        ("js_test/vitest-cannot-find-module-at-run-time", "/src/formatter.js"),  # vite's id
    ],
)
def test_a_module_required_at_run_time_that_does_not_exist_is_compile_at_the_require(case, module):
    (r,) = classify(case)
    assert (r.failure_type.value, r.source_file, r.source_line) == ("compile", "src/report.js", 3)
    assert (r.hint["module"], r.hint["cause"], r.affected) == (module, "import", 2)


def test_import_errors_raised_in_code_under_pytest_are_compile_where_the_import_is():
    wrong_name, missing = classify("python_test/pytest-import-error-in-module")
    assert (wrong_name.source_file, wrong_name.source_line, wrong_name.affected) == (
        "shop/report.py",
        3,
        2,
    )
    assert (wrong_name.hint["name"], wrong_name.hint["module"]) == ("Mony", "shop.money")
    assert (missing.source_line, missing.hint["module"]) == (9, "reportlab_missing")
    assert "package" not in missing.hint  # not on the curated list: never installed by guess


# -- a service that does not answer -------------------------------------------------------------
def test_refused_connections_in_pytest_are_transient_infra_with_the_address_when_printed():
    records = classify("python_test/pytest-connection-refused")
    assert [r.failure_type.value for r in records] == ["infra"] * 4
    assert all(r.hint["kind"] == "refused" and is_transient(r) for r in records)
    assert [r.hint.get("host") for r in records] == [
        None,  # urllib: the URL is built from a constant the report does not show
        "localhost:59232",  # requests: HTTPConnectionPool(host=..., port=...)
        "127.0.0.1:59233",  # httpx: the URL literal in the code line shown
        "127.0.0.1:59234",  # socket: the ("host", port) pair in the code line
    ]
    # the chained ConnectionRefusedError is context, not a failure of its own
    assert records[0].hint["context"] == ["ConnectionRefusedError: [Errno 111] Connection refused"]


@pytest.mark.parametrize(
    ("case", "host"),
    [
        ("js_test/vitest-service-and-env", "127.0.0.1:59241"),  # fetch failed, caused by ...
        ("js_test/mocha-service-and-env", "127.0.0.1:59242"),
        ("go/test-service-env-subtests", "127.0.0.1:59251"),  # dial tcp ...: connection refused
    ],
)
def test_econnrefused_in_js_and_go_tests_is_transient_infra_never_permanent(case, host):
    refused = [r for r in classify(case) if r.hint.get("kind") == "refused"]
    assert [r.hint["host"] for r in refused] == [host]
    assert refused[0].failure_type.value == "infra"
    assert refused[0].hint["transient"] is True and is_transient(refused[0])


def test_a_rust_connection_refused_panic_is_transient_infra():
    r = next(r for r in classify("rust/cargo-test-doc-service-env") if r.hint.get("kind"))
    assert (r.failure_type.value, r.hint["kind"], r.hint["test_id"]) == (
        "infra",
        "refused",
        "tests::cache_is_up",
    )
    assert is_transient(r)


def test_junit_tests_under_surefire_failing_on_the_network_are_infra_where_the_code_connects():
    refused, dns, _env = classify("java/maven-surefire-infra-causes")
    assert (refused.failure_type.value, refused.hint["kind"], refused.hint["transient"]) == (
        "infra",
        "refused",
        True,
    )
    # java.net.ConnectException names no address; the frame in the project's code that connected
    assert (refused.source_file, refused.source_line) == (
        "src/main/java/com/example/ledger/LedgerClient.java",
        29,
    )
    assert (refused.hint["test_id"], refused.hint["test_line"]) == (
        "LedgerClientTest#pingsTheLocalLedger",
        11,
    )
    assert (dns.hint["kind"], dns.hint["host"], dns.source_line) == (
        "dns",
        "ledger-db.internal",
        27,
    )
    assert is_transient(refused) and is_transient(dns)


def test_exunit_tests_failing_on_inet_errors_are_infra_with_the_address_the_code_used():
    # {:error, :econnrefused} / :nxdomain name no address: the test's `code:` line does
    refused, dns, httpc, _env = classify("elixir/exunit-infra-causes")
    assert [
        (r.failure_type.value, r.hint["kind"], r.hint.get("host")) for r in (refused, dns, httpc)
    ] == [
        ("infra", "refused", "127.0.0.1:54331"),
        ("infra", "dns", "ledger-db.internal:5432"),
        ("infra", "refused", "localhost:54332"),  # httpc's {:to_address, {'localhost', 54332}}
    ]
    assert (refused.source_file, refused.source_line) == ("lib/ledger/client.ex", 5)
    assert refused.hint["test_id"] == "test/client_test.exs:4"
    assert all(is_transient(r) for r in (refused, dns, httpc))


# -- a variable that is not set -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("case", "variables"),
    [
        # KeyError on os.environ (twice: one cause), and a ConfigError raised from one
        ("python_test/pytest-env-var-missing", ["SHOP_API_KEY", "SHOP_DATABASE_URL"]),
        ("js_test/vitest-service-and-env", ["SHOP_API_KEY"]),  # a process.env guard
        ("js_test/mocha-service-and-env", ["SHOP_DATABASE_URL"]),
        ("go/test-service-env-subtests", ["SHOP_TOKEN"]),  # t.Fatal("SHOP_TOKEN must be set")
        ("rust/cargo-test-doc-service-env", ["SHOP_DATABASE_URL"]),  # must be set: NotPresent
        # surefire: java.lang.IllegalStateException: LEDGER_DB_URL is not set
        ("java/maven-surefire-infra-causes", ["LEDGER_DB_URL"]),
        # ExUnit: ** (System.EnvError) could not fetch environment variable "LEDGER_DB_URL" ...
        ("elixir/exunit-infra-causes", ["LEDGER_DB_URL"]),
    ],
)
def test_a_missing_environment_variable_inside_tests_is_permanent_infra_naming_it(case, variables):
    env = [r for r in classify(case) if r.hint.get("kind") == "env"]
    assert [r.hint["variable"] for r in env] == variables
    assert all(r.failure_type.value == "infra" and not is_transient(r) for r in env)


def test_two_tests_failing_on_the_same_variable_are_one_record_and_an_assertion_stays_a_test():
    api, db, region = classify("python_test/pytest-env-var-missing")
    assert (api.affected, api.source_file, api.source_line) == (2, "app/settings.py", 9)
    assert db.hint["context"] == ["KeyError: 'SHOP_DATABASE_URL'"]  # the chained cause
    assert (region.failure_type.value, region.hint["expected"], region.hint["actual"]) == (
        "test",
        "'us'",
        "'eu'",
    )


def test_the_infra_rule_reading_the_same_line_as_a_test_is_folded_into_the_test_record():
    records = classify("js_test/mocha-service-and-env")
    assert [r.rule for r in records] == ["mocha.failure", "mocha.failure"]
    env = records[1]
    assert env.hint["also_seen_as"][0]["rule"] == "infra.env_not_set"
    assert env.affected == 1


# -- a file that does not parse --------------------------------------------------------------------
@pytest.mark.parametrize(
    "case", ["js_test/mocha-syntax-error-in-module", "js_test/node-test-syntax-error-in-module"]
)
def test_a_node_syntax_error_under_a_test_runner_keeps_its_file_and_line(case):
    (r,) = classify(case)
    assert (r.rule, r.source_file, r.source_line, r.source_column) == (
        "node.syntax_error",
        "lib/utils.js",
        27,
        45,
    )


def test_node_tests_failing_only_because_their_file_did_not_load_are_folded_into_the_cause():
    (r,) = classify("js_test/node-test-syntax-error-in-module")
    assert r.hint["test_file"] == "test/utils.test.js"
    assert r.hint["also_seen_as"][0]["rule"] == "node_test.spec"
    assert "file_failed" not in r.hint


# -- doc tests and tests known by their id only -----------------------------------------------------
def test_a_failing_cargo_doc_test_is_a_test_record_at_the_doc_examples_line():
    doc = next(r for r in classify("rust/cargo-test-doc-service-env") if r.rule == "rust.doc_test")
    assert (doc.failure_type.value, doc.source_file, doc.source_line) == ("test", "src/lib.rs", 7)
    assert (doc.hint["test_id"], doc.hint["target"]) == ("src/lib.rs - with_vat (line 7)", "--doc")
    assert (doc.hint["expected"], doc.hint["actual"]) == ("120", "121")


def test_python_doctest_failures_are_test_records_at_each_examples_line():
    records = classify("python_test/doctest-module")
    assert [(r.source_line, r.hint["test_id"]) for r in records] == [
        (3, "prices"),
        (11, "prices.with_tax"),
        (13, "prices.with_tax"),
        (15, "prices.with_tax"),
    ]
    assert all(r.failure_type.value == "test" for r in records)
    assert records[3].hint["why"] == "NameError: name 'discount' is not defined"


def test_a_pytest_summary_line_alone_lands_on_the_test_functions_definition():
    records = classify("python_test/pytest-quiet-no-tb")
    assert [(r.source_file, r.source_line) for r in records] == [
        ("tests/test_calc.py", 6),  # def test_total
        ("tests/test_calc.py", 11),  # TestRatio.test_zero
        ("tests/test_calc.py", 15),  # TestRatio.test_values[1-4-0.5]
        ("tests/test_calc.py", 19),  # def test_message
    ]


def test_a_test_id_is_never_placed_on_line_1_when_its_file_cannot_be_read(tmp_path):
    records = classify("python_test/pytest-quiet-no-tb", cwd=tmp_path)  # no test files there
    assert all(r.source_line is None for r in records)


def test_a_rust_test_returning_an_io_error_is_infra_and_a_notpresent_panic_names_its_variable():
    """`fn t() -> Result<..>` returning `Err(Os { kind: ConnectionRefused })`
    prints no panic, only `Error: ...` under its header; a bare
    `env::var("SVC_TOKEN").unwrap()` panics with `NotPresent`: the variable is
    read from the line the panic points at."""
    refused, token = classify("rust/cargo-test-result-error-and-env")
    assert (refused.rule, refused.hint["test_id"], refused.hint["kind"]) == (
        "rust.test_error",
        "tests::cache_answers",
        "refused",
    )
    assert (token.hint["kind"], token.hint["variable"]) == ("env", "SVC_TOKEN")


def test_a_go_test_binary_that_log_fatals_on_an_unset_variable_is_infra():
    (r,) = classify("go/test-log-fatal")
    assert (r.failure_type.value, r.hint["variable"]) == ("infra", "SVC_CONFIG")


def test_a_variable_read_at_import_time_makes_the_collection_error_infra():
    (r,) = classify("python_test/pytest-collection-env-var")
    assert (r.rule, r.failure_type.value, r.source_file, r.source_line) == (
        "pytest.collection_error",
        "infra",
        "app/config.py",
        4,
    )
    assert r.hint["variable"] == "APP_DATABASE_URL"


def test_a_mocha_failure_printed_without_its_file_is_placed_on_the_one_test_that_has_its_title():
    """An ECONNREFUSED from a socket callback has no frame in the test file:
    the test file is the one test file defining `it("is healthy"` under
    `describe("client"`."""
    refused = classify("js_test/mocha-service-and-env")[0]
    assert (refused.source_file, refused.source_line) == ("test/client.test.js", 5)
    assert refused.hint["test_file"] == "test/client.test.js"


# -- what names no cause ------------------------------------------------------------------
@pytest.mark.parametrize(
    "message",
    [
        'Error: Timeout of 50ms exceeded. For async tests and hooks, ensure "done()" is called',
        'thrown: "Exceeded timeout of 5000 ms for a test."',
        'Error: Failed to resolve import "./missing-format" from "src/index.js". Does the file exist?',
        "Error: cannot connect to db",  # a test's own fixture message, no errno or code
        "RuntimeError: database unreachable",
        "AssertionError: expected 'ECONNREFUSED' to equal 'ok'",
    ],
)
def test_test_runner_timeouts_vite_resolution_and_assertions_name_no_network_cause(message):
    from faultlens.classifier.rules.js_causes import js_cause

    assert js_cause(message) is None


def test_a_guard_whose_message_says_nothing_of_the_environment_is_not_read_as_a_variable():
    from faultlens.classifier.rules.js_causes import js_cause

    code = ['if (process.env.NODE_ENV === "test") {', 'throw new Error("fixture missing");']
    assert js_cause("Error: fixture missing", (), code) is None
    assert js_cause("Error: API key not set", (), code) is not None  # says "not set"


def test_an_assertion_under_pytest_is_a_test_failure_even_when_its_values_mention_a_cause():
    from faultlens.classifier.rules.python_causes import cause_of
    from faultlens.classifier.rules.python_traceback import Raised

    assert cause_of([Raised("AssertionError", "assert 'Connection refused' == 'ok'")]) is None
    # raised while handling a NameError ("DID NOT WARN" over it): the NameError's cause
    chained = cause_of(
        [Raised("NameError", "name 'warnings' is not defined"), Raised("Failed", "DID NOT WARN")]
    )
    assert chained is not None and chained.hint["name"] == "warnings"
