"""Edge cases of the native and JVM rules (rust, c, go, java) that the
stored samples do not show on their own: reports split across chunks,
failures printed twice, context lines, summaries standing in for details.

The inputs are the real captured outputs under tests/samples/, cut and
recombined; the few lines written here follow those outputs exactly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier.engine import Classifier, Options, classify_bytes
from faultlens.classifier.record import FailureRecord

SAMPLES = Path(__file__).parent / "samples"


def sample(case: str) -> tuple[bytes, Path]:
    d = SAMPLES / case
    return (d / "output.txt").read_bytes(), d


def classify(data: bytes, cwd: Path, pieces: int = 1) -> list[FailureRecord]:
    c = Classifier(Options(cwd=str(cwd)))
    step = max(1, len(data) // pieces)
    for i in range(0, len(data), step):
        c.feed(data[i : i + step])
    return c.close()


def summary(records: list[FailureRecord]) -> list[tuple[str, str | None, int | None, str]]:
    return [(r.rule, r.source_file, r.source_line, r.failure_type.value) for r in records]


# -- rust ----------------------------------------------------------------------


@pytest.mark.parametrize("pieces", [2, 3, 7, 50])
def test_rustc_block_split_across_chunks_gives_the_same_records(pieces):
    data, cwd = sample("rust/cargo-build-e0425")
    whole = classify(data, cwd)
    split = classify(data, cwd, pieces)
    assert split == whole
    assert whole[0].hint["suggestion"] == "subtotal"
    assert whole[1].hint["suggestions"][0]["edits"] == [
        {"line": 1, "op": "+", "text": "use std::collections::HashMap;"}
    ]


def test_rustc_block_split_at_every_line_boundary_keeps_its_suggestions():
    data, cwd = sample("rust/cargo-build-e0425")
    c = Classifier(Options(cwd=str(cwd)))
    for line in data.splitlines(keepends=True):
        c.feed(line)
    records = c.close()
    assert [r.code for r in records] == ["E0425", "E0433"]
    assert records[0].end_column == 12


def test_the_same_rustc_error_printed_twice_is_one_record():
    data, cwd = sample("rust/cargo-build-e0425")
    records = classify(data + data, cwd)
    assert [r.code for r in records] == ["E0425", "E0433"]


def test_cargo_summary_is_dropped_when_details_were_read():
    data, cwd = sample("rust/cargo-build-e0425")
    assert all(r.rule != "rust.cargo_failed" for r in classify(data, cwd))


def test_cargo_summary_is_the_record_when_nothing_else_matched():
    data, cwd = sample("rust/cargo-build-e0425")
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1] + b"\n"
    records = classify(last, cwd)
    assert summary(records) == [("rust.cargo_failed", None, None, "compile")]
    assert records[0].confidence == 0.5
    assert records[0].hint == {"crate": "inventory"}


def test_cargo_test_failed_summary_alone_is_a_test_record():
    data, cwd = sample("rust/cargo-test-assert-eq")
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1] + b"\n"
    assert last.startswith(b"error: test failed")
    records = classify(last, cwd)
    assert summary(records) == [("rust.cargo_failed", None, None, "test")]
    assert records[0].hint["rerun_args"] == "--lib"


def test_cargo_test_panic_gives_test_id_and_expected_actual():
    data, cwd = sample("rust/cargo-test-assert-eq")
    records = {r.hint["test_id"]: r for r in classify(data, cwd)}
    assert set(records) == {"tests::it_works", "tests::parses_port"}
    it = records["tests::it_works"]
    assert (it.source_file, it.source_line, it.hint["expected"], it.hint["actual"]) == (
        "src/lib.rs",
        15,
        "4",
        "5",
    )
    # The test's own line is a related location of a panic inside the code.
    assert [(x.file, x.line) for x in records["tests::parses_port"].related] == [("src/lib.rs", 20)]


def test_old_style_panic_with_the_message_in_the_header_is_read(tmp_path):
    # rustc before 1.73: `thread 'x' panicked at 'message', file:line:col`.
    text = "thread 'tests::x' panicked at 'boom', src/lib.rs:3:5\n"
    records = classify_bytes(text.encode(), Options(cwd=str(tmp_path)))
    assert summary(records) == [("rust.test_panic", "src/lib.rs", 3, "test")]
    assert (records[0].message, records[0].hint["test_id"]) == ("boom", "tests::x")


def test_main_thread_panic_is_not_a_test_failure(tmp_path):
    """A program's own panic (`cargo run`) is rust.panic's compile record at
    the panic's line, not a failed test."""
    text = "thread 'main' (4242) panicked at src/main.rs:2:5:\nboom\n"
    recs = classify_bytes(text.encode(), Options(cwd=str(tmp_path)))
    assert [(r.rule, r.failure_type.value, r.source_file, r.source_line) for r in recs] == [
        ("rust.panic", "compile", "src/main.rs", 2)
    ]


def test_rust_warnings_only_give_no_record():
    data, cwd = sample("rust/cargo-build-warnings-only")
    assert classify(data, cwd) == []


def test_clippy_note_outside_its_block_adds_the_lint_to_the_same_record():
    data, cwd = sample("rust/clippy-deny-warnings")
    text = data.decode()
    # Cut the diagnostic so that the lint note arrives after a blank line.
    cut = text.replace("  |\n  = help: for further", "\n  = help: for further")
    cut = cut.replace("#needless_return\n  = note:", "#needless_return\n\n  = note:")
    records = classify(cut.encode(), cwd)
    ret = [r for r in records if r.message == "unneeded `return` statement"]
    assert len(ret) == 1
    assert ret[0].hint["lint"] == "clippy::needless_return"


# -- c ---------------------------------------------------------------------------


def test_gcc_error_preceded_by_in_function_context_names_the_function():
    data, cwd = sample("c/gcc-undeclared-in-function")
    records = classify(data, cwd)
    by_line = {r.source_line: r for r in records}
    assert by_line[8].hint["function"] == "sum"
    # After "report.c: At top level:" the next error is in no function.
    assert "function" not in by_line[11].hint


def test_gcc_context_survives_a_chunk_boundary_between_context_and_error():
    data, cwd = sample("c/gxx-missing-include")
    cut = data.index(b"app.cpp:6:10")
    c = Classifier(Options(cwd=str(cwd)))
    c.feed(data[:cut])
    c.feed(data[cut:])
    (record,) = c.close()
    assert record.hint["function"] == "int shop::price_of(const std::string&)"
    assert record.hint["include"] == "<iostream>"
    assert record.hint["fixits"] == [
        {"file": "app.cpp", "line": 2, "column": 1, "insert_line": "#include <iostream>"}
    ]


def test_gcc_notes_are_attached_not_records():
    data, cwd = sample("c/clang-fixits")
    records = classify(data, cwd)
    assert len(records) == 2
    assert records[0].hint["notes"] == ["'total' declared here"]
    assert [(x.file, x.line) for x in records[0].related] == [("report.c", 5)]


def test_the_same_gcc_error_printed_twice_is_one_record():
    data, cwd = sample("c/gcc-fatal-missing-header")
    assert len(classify(data + data, cwd)) == 1


def test_make_error_alone_is_a_low_confidence_record_at_the_makefile_line():
    data, cwd = sample("c/make-recipe-failed")
    (record,) = classify(data, cwd)
    assert (record.source_file, record.source_line, record.confidence) == ("Makefile", 2, 0.5)


def test_make_error_after_compiler_errors_is_not_a_record():
    data, cwd = sample("c/make-gcc-error")
    assert {r.rule for r in classify(data, cwd)} == {"c.compiler_error"}


def test_recursive_make_errors_are_one_fallback(tmp_path):
    data, _ = sample("c/make-recipe-failed")
    line = data.strip().splitlines()[-1]
    inner = line.replace(b"make:", b"make[1]:")
    records = classify(inner + b"\n" + line + b"\n", tmp_path)
    assert len(records) == 1


def test_linker_summary_alone_stands_and_is_dropped_after_the_linker_error():
    data, cwd = sample("c/make-ld-undefined-reference")
    assert [r.rule for r in classify(data, cwd)] == ["c.ld"]
    collect2 = next(x for x in data.splitlines() if x.startswith(b"collect2"))
    (alone,) = classify(collect2 + b"\n", cwd)
    assert (alone.rule, alone.confidence) == ("c.ld", 0.5)


def test_ninja_stop_alone_is_a_fallback_and_dropped_after_compiler_errors():
    data, cwd = sample("c/cmake-build-ninja")
    assert {r.rule for r in classify(data, cwd)} == {"c.compiler_error"}
    (alone,) = classify(data.strip().splitlines()[-1] + b"\n", cwd)
    assert (alone.rule, alone.tool, alone.confidence) == ("c.make", "ninja", 0.5)


def test_mypy_lines_are_not_taken_for_gcc_errors(tmp_path):
    text = 'app/main.py:3: error: Name "x" is not defined  [name-defined]\n'
    records = classify_bytes(text.encode(), Options(cwd=str(tmp_path)))
    assert all(r.rule != "c.compiler_error" for r in records)


# -- go ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["go/test-fail", "go/test-fail-verbose"])
def test_go_test_messages_attach_to_their_test_with_or_without_v(case):
    data, cwd = sample(case)
    records = classify(data, cwd, pieces=5)
    assert [(r.hint["test_id"], r.source_line) for r in records] == [
        ("TestAdd", 7),
        ("TestSplit/empty", 14),
    ]
    assert all(r.hint["package"] == "example.com/shop/calc" for r in records)


def test_go_test_panic_is_located_at_its_first_frame_in_the_project():
    data, cwd = sample("go/test-panic")
    (record,) = classify(data, cwd, pieces=4)
    assert (record.hint["test_id"], record.source_file, record.source_line) == (
        "TestFieldOutOfRange",
        "parse/parse.go",
        7,
    )
    assert [(x.file, x.line) for x in record.related] == [("parse/parse_test.go", 12)]


def test_go_fail_summary_is_not_a_separate_record():
    data, cwd = sample("go/test-fail")
    assert {r.rule for r in classify(data, cwd)} == {"go.test"}


def test_go_build_failure_inside_go_test_is_compile_only():
    data, cwd = sample("go/test-build-failed")
    assert summary(classify(data, cwd)) == [("go.compile", "calc/calc_test.go", 7, "compile")]


def test_go_build_failed_summary_alone_is_compile(tmp_path):
    data, _ = sample("go/test-build-failed")
    line = next(x for x in data.splitlines() if b"[build failed]" in x)
    (record,) = classify(line + b"\n", tmp_path)
    assert (record.rule, record.failure_type.value) == ("go.test_failed", "compile")


def test_passing_test_named_error_handling_gives_nothing():
    data, cwd = sample("go/test-ok")
    assert classify(data, cwd) == []


# -- java --------------------------------------------------------------------------


def test_two_missing_symbols_on_one_javac_line_are_two_records():
    data, cwd = sample("java/javac-cannot-find-symbol")
    records = classify(data, cwd)
    assert [(r.source_line, r.hint["name"]) for r in records] == [
        (4, "List"),
        (4, "ArrayList"),
        (7, "itemCount"),
        (12, "logger"),
    ]


def test_maven_prints_each_compile_error_twice_and_it_is_one_record():
    data, cwd = sample("java/maven-compile-error")
    assert data.count(b"App.java:[6,16] cannot find symbol") == 2
    assert [r.source_line for r in classify(data, cwd)] == [6, 10]


def test_surefire_summary_line_alone_is_a_test_record(tmp_path):
    data, _ = sample("java/maven-surefire-failure")
    line = next(x for x in data.splitlines() if x.startswith(b"[ERROR]   AppTest.testAdd:"))
    (record,) = classify(line + b"\n", tmp_path)
    assert record.failure_type.value == "test"
    assert record.hint == {"test_id": "AppTest#testAdd", "expected": "3", "actual": "4"}


def test_surefire_counts_are_not_records(tmp_path):
    data, _ = sample("java/maven-surefire-failure")
    counts = b"\n".join(x for x in data.splitlines() if b"Tests run:" in x) + b"\n"
    assert classify(counts, tmp_path) == []


def test_junit4_style_expected_but_was_is_read(tmp_path):
    text = "[ERROR]   AppTest.testAdd:12 expected:<3> but was:<4>\n"
    (record,) = classify(text.encode(), tmp_path)
    assert (record.hint["expected"], record.hint["actual"]) == ("3", "4")


def test_gradle_junit5_display_name_parentheses_are_not_part_of_the_test_id(tmp_path):
    # Gradle 5+ with JUnit 5 prints the display name `testAdd()`.
    text = (
        "AppTest > testAdd() FAILED\n    org.opentest4j.AssertionFailedError at AppTest.java:10\n"
    )
    (record,) = classify(text.encode(), tmp_path)
    assert record.hint["test_id"] == "AppTest.testAdd"
    assert (record.source_file, record.source_line) == ("AppTest.java", 10)


def test_older_rustc_inline_help_suggestion_carries_the_primary_span(tmp_path):
    # rustc before the diff-style suggestions printed the name inline.
    text = (
        "error[E0425]: cannot find value `subtotl` in this scope\n"
        " --> src/main.rs:3:5\n"
        "  |\n"
        "3 |     subtotl + 1\n"
        "  |     ^^^^^^^\n"
        "  |\n"
        "help: a local variable with a similar name exists: `subtotal`\n"
        "\n"
    )
    (record,) = classify(text.encode(), tmp_path)
    assert record.hint["suggestion"] == "subtotal"
    assert record.hint["suggestions"] == [
        {
            "message": "a local variable with a similar name exists",
            "replacement": "subtotal",
            "file": "src/main.rs",
            "line": 3,
            "column": 5,
        }
    ]
