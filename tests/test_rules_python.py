"""The Python rule families (classifier/rules/python/, python_test.py) on
what the stored samples do not show: library frames, chunk boundaries,
CRLF and colour codes, repeated reports, chained exceptions, and the lines
that must NOT become records."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier.engine import Classifier, Options, classify_bytes, classify_text
from faultlens.classifier.record import FailureRecord

SAMPLES = Path(__file__).parent / "samples"


def _project(tmp_path: Path, *files: str) -> Path:
    for name in files:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")
    return tmp_path


def _classify(text: str, cwd: Path) -> list[FailureRecord]:
    return classify_text(text, Options(cwd=str(cwd)))


def _where(records: list[FailureRecord]) -> list[tuple[str, str | None, int | None, str]]:
    return [(r.failure_type.value, r.source_file, r.source_line, r.rule) for r in records]


LIBRARY_TRACEBACK = """\
Traceback (most recent call last):
  File "{root}/app/main.py", line 9, in <module>
    fetch()
  File "{root}/app/client.py", line 4, in fetch
    return requests.get(URL, timeout=1)
  File "{root}/.venv/lib/python3.11/site-packages/requests/api.py", line 73, in get
    return request("get", url, params=params, **kwargs)
  File "{root}/.venv/lib/python3.11/site-packages/requests/sessions.py", line 589, in request
    resp = self.send(prep, **send_kwargs)
ValueError: Invalid URL 'nowhere': No scheme supplied.
"""


def test_traceback_location_is_the_innermost_project_frame_not_site_packages(tmp_path):
    root = _project(
        tmp_path,
        "app/main.py",
        "app/client.py",
        ".venv/lib/python3.11/site-packages/requests/api.py",
        ".venv/lib/python3.11/site-packages/requests/sessions.py",
    )
    [rec] = _classify(LIBRARY_TRACEBACK.format(root=root), root)
    assert (rec.source_file, rec.source_line) == ("app/client.py", 4)
    assert rec.rule == "python.traceback"
    assert rec.code == "ValueError"
    frames = [(loc.file, loc.line, loc.message) for loc in rec.related]
    assert ("app/main.py", 9, "in <module>") in frames
    assert any("site-packages/requests/sessions.py" in f for f, _, _ in frames)
    assert all(f != "app/client.py" for f, _, _ in frames)  # the location is not repeated


def test_traceback_fed_byte_by_byte_gives_the_same_record(tmp_path):
    root = _project(tmp_path, "app/main.py", "app/client.py")
    data = LIBRARY_TRACEBACK.format(root=root).encode()
    whole = classify_bytes(data, Options(cwd=str(root)))
    c = Classifier(Options(cwd=str(root)))
    for i in range(len(data)):
        c.feed(data[i : i + 1])
    split = c.close()
    assert [r.to_json() for r in split] == [r.to_json() for r in whole]
    assert _where(split) == [("infra", "app/client.py", 4, "python.traceback")]


def test_traceback_split_across_the_engine_chunk_size(tmp_path):
    root = _project(tmp_path, "app/main.py", "app/client.py")
    text = LIBRARY_TRACEBACK.format(root=root)
    filler = ("." * 32 + "\n").encode() * 40_000  # > 1 MiB of lines no rule looks at
    data = filler + text.encode()
    cut = len(filler) + len(text) // 2
    c = Classifier(Options(cwd=str(root)))
    c.feed(data[:cut])
    c.feed(data[cut:])
    [rec] = c.close()
    assert (rec.source_file, rec.source_line) == ("app/client.py", 4)
    assert rec.log_line == 40_000 + text.count("\n")


def _pytest_sample() -> tuple[Path, bytes]:
    case = SAMPLES / "python_test" / "pytest-long-failures"
    return case, (case / "output.txt").read_bytes()


def test_pytest_output_with_crlf_line_ends_gives_the_same_records():
    case, data = _pytest_sample()
    plain = classify_bytes(data, Options(cwd=str(case)))
    crlf = classify_bytes(data.replace(b"\n", b"\r\n"), Options(cwd=str(case)))
    assert len(plain) == 4
    assert [r.to_json() for r in crlf] == [r.to_json() for r in plain]


def test_pytest_output_in_colour_gives_the_same_records():
    case, data = _pytest_sample()
    red, bold, reset = b"\x1b[31m", b"\x1b[1m", b"\x1b[0m"
    coloured = (
        data.replace(b"E       ", red + bold + b"E       " + reset + red)
        .replace(b"FAILED ", red + b"FAILED" + reset + b" ")
        .replace(b"\n", reset + b"\n")
    )
    plain = classify_bytes(data, Options(cwd=str(case)))
    colour = classify_bytes(coloured, Options(cwd=str(case)))
    assert [r.to_json() for r in colour] == [r.to_json() for r in plain]


def test_pytest_detail_and_summary_line_are_one_record(tmp_path):
    root = _project(tmp_path, "tests/test_a.py")
    text = """\
=================================== FAILURES ===================================
___________________________________ test_one ___________________________________

    def test_one():
>       assert 1 == 2
E       assert 1 == 2

tests/test_a.py:2: AssertionError
=========================== short test summary info ============================
FAILED tests/test_a.py::test_one - assert 1 == 2
============================== 1 failed in 0.01s ===============================
"""
    [rec] = _classify(text, root)
    assert rec.rule == "pytest.failure"
    assert (rec.source_file, rec.source_line) == ("tests/test_a.py", 2)
    assert rec.hint["test_id"] == "tests/test_a.py::test_one"
    assert (rec.hint["actual"], rec.hint["expected"]) == ("1", "2")


def test_the_same_output_printed_twice_is_one_record_per_failure(tmp_path):
    root = _project(tmp_path, "app/main.py", "app/client.py")
    text = LIBRARY_TRACEBACK.format(root=root)
    assert len(_classify(text + text, root)) == 1
    case, data = _pytest_sample()
    assert len(classify_bytes(data + data, Options(cwd=str(case)))) == 4


def test_same_test_name_in_two_files_stays_two_records(tmp_path):
    root = _project(tmp_path, "tests/a/test_x.py", "tests/b/test_y.py")
    text = """\
___________________________________ test_ok ____________________________________
tests/a/test_x.py:2: in test_ok
    assert False
E   assert False
___________________________________ test_ok ____________________________________
tests/b/test_y.py:2: in test_ok
    assert False
E   assert False
=========================== short test summary info ============================
FAILED tests/a/test_x.py::test_ok - assert False
FAILED tests/b/test_y.py::test_ok - assert False
"""
    recs = _classify(text, root)
    assert [r.hint["test_id"] for r in recs] == [
        "tests/a/test_x.py::test_ok",
        "tests/b/test_y.py::test_ok",
    ]


CHAINED = """\
Traceback (most recent call last):
  File "{root}/svc/store.py", line 3, in load
    return open(path).read()
FileNotFoundError: [Errno 2] No such file or directory: 'data.json'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "{root}/svc/main.py", line 8, in <module>
    load_or_default()
  File "{root}/svc/main.py", line 5, in load_or_default
    return defaults[name]
NameError: name 'defaults' is not defined
"""


def test_chained_exceptions_report_the_last_exception_with_its_own_frames(tmp_path):
    root = _project(tmp_path, "svc/store.py", "svc/main.py")
    [rec] = _classify(CHAINED.format(root=root), root)
    assert rec.code == "NameError"
    assert rec.rule == "python.name_error"
    assert (rec.source_file, rec.source_line) == ("svc/main.py", 5)
    assert rec.hint["name"] == "defaults"
    assert all(loc.file != "svc/store.py" for loc in rec.related)


def test_keyboard_interrupt_is_an_interruption_from_outside_infra_transient(tmp_path):
    root = _project(tmp_path, "loop.py")
    text = f"""\
Traceback (most recent call last):
  File "{root}/loop.py", line 3, in <module>
    time.sleep(1)
KeyboardInterrupt
"""
    [rec] = _classify(text, root)
    assert (rec.failure_type, rec.source_file, rec.source_line) == ("infra", "loop.py", 3)
    assert (rec.hint["kind"], rec.hint["transient"]) == ("interrupted", True)


def test_missing_environment_variable_is_infra_with_the_variable(tmp_path):
    root = _project(tmp_path, "db.py")
    text = f"""\
Traceback (most recent call last):
  File "{root}/db.py", line 4, in connect
    url = os.getenv("X") or os.environ["DATABASE_URL"]
  File "<frozen os>", line 679, in __getitem__
KeyError: 'DATABASE_URL'
"""
    [rec] = _classify(text, root)
    assert rec.failure_type.value == "infra"
    assert rec.hint["variable"] == "DATABASE_URL"
    assert (rec.source_file, rec.source_line) == ("db.py", 4)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ModuleNotFoundError: No module named 'yaml'", {"module": "yaml", "package": "PyYAML"}),
        ("ModuleNotFoundError: No module named 'PIL.Image'", {"package": "Pillow"}),
        ("ModuleNotFoundError: No module named 'reqeusts'", {"module": "reqeusts"}),
        ("ModuleNotFoundError: No module named 'shop'", {"local": True}),
    ],
)
def test_import_error_offers_a_package_only_from_the_curated_list(tmp_path, line, expected):
    root = _project(tmp_path, "shop/__init__.py")
    [rec] = _classify(line + "\n", root)
    assert rec.rule == "python.import_error"
    for key, value in expected.items():
        assert rec.hint[key] == value
    if "package" not in expected:
        assert "package" not in rec.hint  # never a name guessed from the import


def test_cannot_import_name_hints_the_name_and_module(tmp_path):
    [rec] = _classify(
        "ImportError: cannot import name 'UserProfile' from 'app.models' (/x/app/models.py)\n",
        tmp_path,
    )
    assert (rec.hint["name"], rec.hint["module"]) == ("UserProfile", "app.models")
    assert "package" not in rec.hint


def test_python_312_name_error_suggestions_reach_the_hint(tmp_path):
    [rec] = _classify(
        "NameError: name 'datetime' is not defined. Did you forget to import 'datetime'?\n",
        tmp_path,
    )
    assert rec.hint["name"] == "datetime"
    assert rec.hint["import"] == "datetime"


def test_mypy_notes_belong_to_the_error_and_the_summary_is_no_record(tmp_path):
    root = _project(tmp_path, "a.py")
    text = """\
a.py:1: note: By default the bodies of untyped functions are not checked
a.py:3: error: Unsupported operand types for + ("str" and "None")  [operator]
a.py:3: note: Right operand is of type "str | None"
a.py:3: note: See https://mypy.rtfd.io/en/stable/_refs.html#code-operator
Found 1 error in 1 file (checked 1 source file)
"""
    [rec] = _classify(text, root)
    assert (rec.source_line, rec.code) == (3, "operator")
    assert rec.hint["notes"] == [
        'Right operand is of type "str | None"',
        "See https://mypy.rtfd.io/en/stable/_refs.html#code-operator",
    ]


def test_c_compiler_lines_are_not_claimed_by_the_python_checkers(tmp_path):
    text = "src/main.c:3:5: error: unknown type name 'strng'\n"
    recs = _classify(text, tmp_path)
    assert all(r.rule not in ("python.mypy", "python.ruff") for r in recs)


def test_rustc_arrow_is_not_claimed_by_ruff(tmp_path):
    text = """\
error[E0425]: cannot find value `x` in this scope
 --> src/main.py:2:5
"""
    recs = _classify(text, tmp_path)
    assert all(r.rule != "python.ruff_full" for r in recs)


def test_pytest_line_style_pairs_failures_with_summary_lines_under_ra(tmp_path):
    root = _project(tmp_path, "tests/test_a.py")
    text = f"""\
=================================== FAILURES ===================================
E   assert 1 == 2
{root}/tests/test_a.py:3: assert 1 == 2
E   ZeroDivisionError: division by zero
{root}/tests/test_a.py:7: ZeroDivisionError: division by zero
=========================== short test summary info ============================
SKIPPED [1] tests/test_a.py:10: not on this platform
ERROR tests/test_a.py::test_db - RuntimeError: database unreachable
FAILED tests/test_a.py::test_one - assert 1 == 2
FAILED tests/test_a.py::test_two - ZeroDivisionError: division by zero
============== 2 failed, 1 skipped, 1 error in 0.05s ===============
"""
    recs = _classify(text, root)
    assert [(r.source_line, r.hint["test_id"], r.rule) for r in recs] == [
        (3, "tests/test_a.py::test_one", "pytest.section"),
        (7, "tests/test_a.py::test_two", "pytest.section"),
        (None, "tests/test_a.py::test_db", "pytest.summary"),
    ]


def test_truncated_summary_message_gives_no_expected_value(tmp_path):
    [rec] = _classify(
        "FAILED tests/test_a.py::test_label - assert 'cart: 2 items' == 'cart: 3...\n", tmp_path
    )
    assert "expected" not in rec.hint
    assert rec.hint["test_id"] == "tests/test_a.py::test_label"


def test_a_tox_style_underscore_header_is_no_record(tmp_path):
    text = """\
___________________________________ summary ____________________________________
  py311: commands succeeded
  congratulations :)
"""
    assert _classify(text, tmp_path) == []


def test_pytest_passing_run_with_error_words_is_clean(tmp_path):
    text = """\
tests/test_errors.py::test_error_is_logged PASSED                        [ 50%]
tests/test_errors.py::test_FAILED_state PASSED                           [100%]
============================== 2 passed in 0.01s ===============================
"""
    assert _classify(text, tmp_path) == []


def test_unittest_before_python_311_names_the_class_only(tmp_path):
    root = _project(tmp_path, "test_cart.py")
    text = f"""\
======================================================================
FAIL: test_total (test_cart.CartTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "{root}/test_cart.py", line 8, in test_total
    self.assertEqual(total([2, 3]), 5)
AssertionError: 4 != 5

----------------------------------------------------------------------
Ran 1 test in 0.001s

FAILED (failures=1)
"""
    [rec] = _classify(text, root)
    assert rec.hint["test_id"] == "test_cart.CartTest.test_total"
    assert rec.hint["runner"] == "unittest"
    assert (rec.hint["actual"], rec.hint["expected"]) == ("4", "5")
    assert (rec.source_file, rec.source_line) == ("test_cart.py", 8)


def test_pyright_continuation_lines_carry_the_rule_code(tmp_path):
    root = _project(tmp_path, "svc.py")
    text = (
        f'  {root}/svc.py:7:12 - error: Type "str | None" is not assignable\n'
        '  \u00a0\u00a0"str" is not assignable to "int" (reportReturnType)\n'
        "1 error, 0 warnings, 0 informations\n"
    )
    [rec] = _classify(text, root)
    assert rec.code == "reportReturnType"
    assert rec.hint["detail"] == ['"str" is not assignable to "int"']


def test_a_report_title_that_fills_the_line_is_still_read(tmp_path):
    root = _project(tmp_path, "tests/test_long.py")
    name = "test_parse_accepts_every_documented_format[" + "x" * 60 + "]"
    text = f"""\
=================================== FAILURES ===================================
_ {name} _
tests/test_long.py:4: in test_parse_accepts_every_documented_format
    assert parse(raw) == want
E   assert None == 3
=========================== short test summary info ============================
FAILED tests/test_long.py::{name} - assert None == 3
"""
    [rec] = _classify(text, root)
    assert rec.rule == "pytest.failure"
    assert (rec.source_file, rec.source_line) == ("tests/test_long.py", 4)
    assert rec.hint["test_id"] == f"tests/test_long.py::{name}"


def test_a_report_without_its_section_header_is_still_read(tmp_path):
    root = _project(tmp_path, "tests/test_a.py")
    text = """\
___________________________________ test_one ___________________________________
tests/test_a.py:2: in test_one
    assert 1 == 2
E   assert 1 == 2
"""
    [rec] = _classify(text, root)
    assert (rec.rule, rec.source_line, rec.hint["expected"]) == ("pytest.failure", 2, "2")


def test_code_without_a_file_is_never_a_location(tmp_path):
    text = """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "<frozen os>", line 679, in __getitem__
KeyError: 'HOME'
"""
    [rec] = _classify(text, tmp_path)
    assert (rec.source_file, rec.source_line) == (None, None)
    assert rec.related == []


def test_a_run_where_some_tests_were_deselected_is_clean(tmp_path):
    text = "======================= 2 passed, 1 deselected in 0.01s ========================\n"
    assert _classify(text, tmp_path) == []


def test_python_dash_m_with_a_dotted_missing_module_names_the_top_package(tmp_path):
    [rec] = _classify(
        "/usr/bin/python3: Error while finding module specification for 'flask.cli' "
        "(ModuleNotFoundError: No module named 'flask')\n",
        tmp_path,
    )
    assert rec.rule == "python.no_module"
    assert (rec.hint["module"], rec.hint["package"]) == ("flask", "flask")
    assert rec.source_file is None
