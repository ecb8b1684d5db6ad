"""Root-cause groups (issue 12 item 2): the failing tests of one cause are one
record, with the exact count and the tests listed, wherever records are
shown (the classify table, the LSP diagnostic and hover)."""

from __future__ import annotations

import json
from pathlib import Path

from pygls.workspace import PositionCodec

from faultlens.classifier import Classifier, Options, classify_bytes
from faultlens.classifier.grouping import MAX_TESTS, group
from faultlens.classifier.record import FailureRecord, Location
from faultlens.cli.main import main
from faultlens.server import convert
from faultlens.server.placement import Placement
from faultlens.server.store import Entry

SAMPLES = Path(__file__).parent / "samples"
NAME_ERROR = SAMPLES / "python_test/pytest-name-error-in-module"


def _records(case: Path) -> list[FailureRecord]:
    return classify_bytes((case / "output.txt").read_bytes(), Options(cwd=str(case)))


def test_grouping_is_deterministic_and_does_not_depend_on_how_the_output_was_split():
    whole = _records(NAME_ERROR)
    c = Classifier(Options(cwd=str(NAME_ERROR)))
    data = (NAME_ERROR / "output.txt").read_bytes()
    for i in range(0, len(data), 97):  # odd-sized pieces, lines cut anywhere
        c.feed(data[i : i + 97])
    pieces = c.close()
    assert [r.to_json() for r in pieces] == [r.to_json() for r in whole]


def test_a_group_keeps_the_causes_id_when_fewer_tests_fail():
    """The log of the same run cut after its first two failures (as a CI
    log view may keep it) names the same cause with the same id."""
    data = (NAME_ERROR / "output.txt").read_bytes()
    cut = data[: data.index(b"_____ test_totals[prices1] ___")]
    (few,) = classify_bytes(cut, Options(cwd=str(NAME_ERROR)))
    (all_,) = _records(NAME_ERROR)
    assert (few.affected, all_.affected) == (3, 8)
    assert few.id == all_.id


def _test_record(n: int, **kw) -> FailureRecord:
    base = dict(
        failure_type="compile",
        severity="blocking",
        signal="NameError: name 'Money' is not defined",
        source_file="shop/cart.py",
        source_line=5,
        auto_recoverable=True,
        recipe="recipes/compile.md",
        id=f"r{n}",
        tool="pytest",
        hint={
            "runner": "pytest",
            "name": "Money",
            "test_id": f"tests/test_cart.py::test_{n}",
            "test_file": "tests/test_cart.py",
            "test_line": 10 + n,
        },
    )
    base.update(kw)
    return FailureRecord(**base)


def test_a_group_lists_at_most_max_tests_and_counts_them_all():
    (g,) = group([_test_record(n) for n in range(MAX_TESTS + 50)])
    tests = [loc for loc in g.related if loc.test]
    assert g.affected == MAX_TESTS + 50
    assert len(tests) == MAX_TESTS
    assert tests[0] == Location(
        file="tests/test_cart.py",
        line=10,
        message="NameError: name 'Money' is not defined",
        test="tests/test_cart.py::test_0",
    )


def test_the_same_missing_name_in_two_files_is_two_causes():
    a = _test_record(1)
    b = _test_record(2, source_file="shop/order.py", source_line=9)
    assert [r.source_file for r in group([a, b])] == ["shop/cart.py", "shop/order.py"]


def test_compiler_errors_are_never_grouped_only_test_failures_are():
    """Two `Cannot find name 'X'` from tsc are two squiggles to show."""
    tsc = [_test_record(n, hint={"name": "Money"}, source_line=3 + n, tool="tsc") for n in (1, 2)]
    assert len(group(tsc)) == 2


def test_the_classify_table_says_how_many_tests_a_cause_failed(capsys):
    assert main(["classify", "--cwd", str(NAME_ERROR), str(NAME_ERROR / "output.txt")]) == 1
    out = capsys.readouterr().out
    assert "NameError: name 'Money' is not defined (8 tests affected)" in out
    assert "1 failure: 1 compile (8 failing tests in groups of one cause)" in out


def test_the_json_record_carries_affected_and_the_tests(capsys):
    main(["classify", "--json", "--cwd", str(NAME_ERROR), str(NAME_ERROR / "output.txt")])
    (rec,) = json.loads(capsys.readouterr().out)
    assert rec["affected"] == 8
    assert [x["test"] for x in rec["related"] if x["test"]][:2] == [
        "tests/test_cart.py::test_empty_total",
        "tests/test_cart.py::test_one_item",
    ]


def test_the_diagnostic_and_the_hover_show_the_group():
    (rec,) = _records(NAME_ERROR)
    entry = Entry(rec, "t", NAME_ERROR, Placement(path=NAME_ERROR / "shop/cart.py", line=4))
    diag = convert.diagnostic_json(entry, [], PositionCodec(), recipe_href=None)
    assert diag["message"] == "NameError: name 'Money' is not defined (8 tests affected)"
    infos = [i["message"] for i in diag["relatedInformation"]]
    assert (
        "affected test tests/test_cart.py::test_lazy[<lambda>0]: NameError: name 'Money' is not defined"
        in infos
    )
    hover = convert.hover_markdown(rec, summary=None, attempts=None, box=None)
    assert (
        "8 tests affected: `tests/test_cart.py::test_empty_total`, `tests/test_cart.py::test_one_item`, "
        "`tests/test_cart.py::test_totals[prices0]`, `tests/test_cart.py::test_totals[prices1]`, "
        "`tests/test_cart.py::test_totals[prices2]`, …"
    ) in hover


def test_a_test_failing_through_a_subprocess_on_the_cause_is_one_more_test_of_it():
    # captured: a CLI test runs `python -m pkg`, whose NameError its assertion
    # quotes; a second test imports pkg and meets the same NameError
    (record,) = _records(SAMPLES / "python_test/pytest-subprocess-same-cause")
    assert (record.failure_type.value, record.source_file, record.source_line) == (
        "compile",
        "pkg/core.py",
        2,
    )
    assert record.affected == 2
    assert {x.test for x in record.related if x.test} == {
        "tests/test_core.py::test_total",
        "tests/test_core.py::test_cli",
    }


def test_a_test_quoting_another_file_s_error_stays_its_own_failure():
    rec = _records(SAMPLES / "python_test/pytest-subprocess-same-cause")[0]
    other = FailureRecord.from_json(
        {
            **rec.to_json(),
            "failure_type": "test",
            "source_file": "tests/test_cli.py",
            "source_line": 4,
            "id": "other",
            "hint": {
                "runner": "pytest",
                "test_id": "tests/test_cli.py::test_x",
                "explanation": [
                    'File "/w/lib/other.py", line 2',
                    "NameError: name 'summ' is not defined",
                ],
            },
        }
    )
    assert len(group([rec, other])) == 2
