"""The failure record (classifier/record.py): plain dataclasses on the
classify path, and their pydantic mirror (classifier/record_schema.py) at the
edges.  The mirror cannot drift from the dataclasses, the dataclasses
serialise exactly as the pydantic model did, and classifying a log does not
import pydantic."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import subprocess
import sys
import types
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from faultlens.classifier import record, record_schema
from faultlens.classifier.record import FailureRecord, Location, Triage
from faultlens.classifier.taxonomy import FailureType, Severity

ROOT = Path(__file__).resolve().parents[1]
PAIRS = [
    (record.FailureRecord, record_schema.FailureRecord),
    (record.Location, record_schema.Location),
    (record.Triage, record_schema.Triage),
]


def _fields(cls: type) -> list[dataclasses.Field[Any]]:
    return [f for f in dataclasses.fields(cls) if f.name != "_raw"]


def _shape(tp: Any) -> Any:
    """A type, comparable across the two modules (classes by name, unions by members)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return ("union", tuple(_shape(a) for a in typing.get_args(tp)))
    if origin is typing.Literal:
        return ("literal", typing.get_args(tp))
    if origin is not None:
        return (_shape(origin), tuple(_shape(a) for a in typing.get_args(tp)))
    return getattr(tp, "__name__", repr(tp))


@pytest.mark.parametrize(("plain", "schema"), PAIRS, ids=lambda c: c.__name__)
def test_the_pydantic_mirror_has_the_dataclass_fields_in_order_with_their_defaults_and_types(
    plain: type, schema: type[Any]
) -> None:
    assert plain.__name__ == schema.__name__  # the schema's titles and $defs
    assert [f.name for f in _fields(plain)] == list(schema.model_fields)
    hints = typing.get_type_hints(plain)
    for f in _fields(plain):
        info = schema.model_fields[f.name]
        assert _shape(hints[f.name]) == _shape(info.annotation), f.name
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            assert info.is_required(), f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert info.default_factory is not None, f.name
            assert f.default_factory() == info.default_factory(), f.name  # type: ignore[call-arg]
        else:
            assert not info.is_required(), f.name
            assert f.default == info.default, f.name
            assert type(f.default) is type(info.default), f.name


class _Colour(Enum):
    RED = "red"


def _rich() -> dict[str, Any]:
    """Every field set, and a hint with what pydantic had to convert."""
    return {
        "failure_type": FailureType.TEST,
        "severity": Severity.BLOCKING,
        "signal": "FAILED tests/test_cart.py::test_total",
        "source_file": "tests/test_cart.py",
        "source_line": 12,
        "auto_recoverable": "partial",
        "recipe": "recipes/test.md",
        "recovery_attempted": True,
        "recovery_result": "escalated",
        "id": "abc123",
        "tool": "pytest",
        "code": "AssertionError",
        "message": "assert 3 == 4",
        "source_column": 5,
        "end_line": 13,
        "end_column": 9,
        "log_line": 40,
        "log_file": "out.log",
        "rule": "pytest.failed",
        "task": "T-1",
        "confidence": 0.75,
        "hint": {
            "test_id": "tests/test_cart.py::test_total",
            "argv": ("pytest", ("-k", "total")),
            "nested": {"a": [1, 2.5, None, True], "b": {"c": ()}},
            "nan": math.nan,
            "inf": -math.inf,
            "colour": _Colour.RED,
            "type": FailureType.COMPILE,
            "numbers": {1: "one", None: "none"},
            "set": {3},
            "path": Path("src") / "cart.py",
        },
        "related": [
            Location(file="src/cart.py", line=3, column=1, message="here"),
            Location(file="tests/test_cart.py", test="tests/test_cart.py::test_total"),
        ],
        "affected": 2,
        "triage": Triage(verdict="flaky", reason="passed on retry", upstream="origin/main"),
    }


def _mirror(fields: dict[str, Any]) -> Any:
    """The same record as the pydantic model was (nested models as theirs)."""
    data = dict(fields)
    data["related"] = [
        record_schema.Location(**dataclasses.asdict(loc)) for loc in fields["related"]
    ]
    data["triage"] = record_schema.Triage(**dataclasses.asdict(fields["triage"]))
    return record_schema.FailureRecord(**data)


def test_to_json_is_what_the_pydantic_model_dumped_key_for_key() -> None:
    fields = _rich()
    got = FailureRecord(**fields).to_json()
    want = _mirror(fields).model_dump(mode="json")
    assert json.dumps(got) == json.dumps(want)  # same keys, order, values and types
    assert got["hint"]["argv"] == ["pytest", ["-k", "total"]]
    assert got["hint"]["nan"] is None and got["hint"]["colour"] == "red"


def test_to_json_of_a_record_with_defaults_is_what_the_pydantic_model_dumped() -> None:
    fields = {k: _rich()[k] for k in ("failure_type", "severity", "signal", "recipe")}
    fields["auto_recoverable"] = False
    got = FailureRecord(**fields).to_json()
    assert json.dumps(got) == json.dumps(
        record_schema.FailureRecord(**fields).model_dump(mode="json")
    )


def test_to_json_gives_new_containers_each_time() -> None:
    rec = FailureRecord(**_rich())
    first, second = rec.to_json(), rec.to_json()
    assert first == second
    assert first["hint"] is not rec.hint and first["hint"] is not second["hint"]
    assert first["hint"]["nested"]["a"] is not rec.hint["nested"]["a"]
    first["hint"]["nested"]["a"].append("x")
    first["related"][0]["file"] = "elsewhere"
    assert rec.hint["nested"]["a"] == [1, 2.5, None, True]
    assert rec.related[0].file == "src/cart.py"


def test_plain_json_hints_do_not_import_pydantic_to_serialise() -> None:
    code = (
        "import sys\n"
        "from faultlens.classifier.record import FailureRecord\n"
        "r = FailureRecord(failure_type='test', severity='blocking', signal='s', "
        "auto_recoverable=True, recipe='r', hint={'a': [1, ('b', 2.5)], 'c': {'d': None}})\n"
        "assert r.to_json()['hint'] == {'a': [1, ['b', 2.5]], 'c': {'d': None}}\n"
        "print(sorted(m for m in sys.modules if m.startswith('pydantic')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_from_json_round_trips_and_builds_the_dataclasses() -> None:
    fields = _rich()
    fields["hint"] = {"test_id": "t", "argv": ["pytest", "-k", "total"], "n": {"a": [1]}}
    rec = FailureRecord(**fields)
    again = FailureRecord.from_json(json.loads(json.dumps(rec.to_json())))
    assert again == rec
    assert type(again.related[0]) is Location and type(again.triage) is Triage
    assert again.failure_type is FailureType.TEST and again.severity is Severity.BLOCKING


@pytest.mark.parametrize(
    "change",
    [
        {"failure_type": "nonsense"},
        {"source_line": 0},
        {"confidence": 1.5},
        {"unknown_field": 1},
        {"_raw": {"test_id": "x"}},
        {"related": [{"file": "a", "line": 0}]},
        {"triage": {"verdict": "maybe"}},
    ],
    ids=str,
)
def test_from_json_refuses_what_the_pydantic_model_refused(change: dict[str, Any]) -> None:
    data = FailureRecord(**_rich() | {"hint": {}}).to_json() | change
    with pytest.raises(ValidationError):
        FailureRecord.from_json(data)


def test_from_json_refuses_what_is_not_a_mapping() -> None:
    with pytest.raises(ValueError):  # ValidationError, as callers catch it
        FailureRecord.from_json(None)


def test_construction_takes_enum_values_and_owns_its_containers() -> None:
    hint: dict[str, Any] = {"k": "v"}
    related = [Location(file="a.py")]
    rec = FailureRecord(
        failure_type="compile",  # type: ignore[arg-type]
        severity="degraded",  # type: ignore[arg-type]
        signal="s",
        auto_recoverable=True,
        recipe="recipes/compile.md",
        confidence=1,
        hint=hint,
        related=related,
    )
    assert rec.failure_type is FailureType.COMPILE and rec.severity is Severity.DEGRADED
    assert type(rec.confidence) is float and json.dumps(rec.to_json()["confidence"]) == "1.0"
    hint["k"] = "changed"
    related.append(Location(file="b.py"))
    assert rec.hint == {"k": "v"} and len(rec.related) == 1


def test_raw_values_are_kept_apart_from_the_fields() -> None:
    rec = FailureRecord(**_rich() | {"hint": {"test_id": "t[user:***@host]"}})
    twin = FailureRecord(**_rich() | {"hint": {"test_id": "t[user:***@host]"}})
    rec.keep_raw("test_id", "t[user:pw@host]")
    rec.keep_raw_test("a[***]", "a[pw]")
    rec.keep_raw_test("same", "same")
    assert rec.raw_hint("test_id") == "t[user:pw@host]"
    assert twin.raw_hint("test_id") == "t[user:***@host]"
    assert rec.raw_test("a[***]") == "a[pw]" and rec.raw_test("same") == "same"
    assert rec == twin  # not compared
    assert "pw" not in json.dumps(rec.to_json()) and "pw" not in repr(rec)


def test_copies_carry_the_raw_values_as_the_pydantic_copies_did() -> None:
    rec = FailureRecord(**_rich())
    rec.keep_raw("test_id", "raw id")
    changed = dataclasses.replace(rec, source_file="elsewhere.py")
    assert changed.raw_hint("test_id") == "raw id" and changed.source_file == "elsewhere.py"
    assert changed._raw is rec._raw  # a shallow copy shares them (pydantic's model_copy did)
    deep = copy.deepcopy(rec)
    assert deep == rec and deep.raw_hint("test_id") == "raw id"
    deep.keep_raw("test_path", "p")
    assert rec.raw_hint("test_path") is None
    assert deep.related[0] is not rec.related[0] and deep.hint is not rec.hint


def test_records_compare_by_fields_and_are_not_hashable() -> None:
    rec = FailureRecord(**_rich())
    assert rec == FailureRecord(**_rich())
    assert rec != dataclasses.replace(rec, affected=3)
    assert rec != rec.to_json()
    with pytest.raises(TypeError):
        hash(rec)


def test_records_are_made_by_keyword_only_and_have_no_other_attributes() -> None:
    with pytest.raises(TypeError):
        Location("a.py")  # type: ignore[misc]
    rec = FailureRecord(**_rich())
    with pytest.raises(AttributeError):
        rec.sourceline = 3  # type: ignore[attr-defined]


def test_the_record_module_does_not_import_pydantic() -> None:
    code = (
        "import sys\n"
        "import faultlens.classifier.record, faultlens.classifier.engine\n"
        "print(sorted(m for m in sys.modules if m.startswith('pydantic')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


_CLASSIFY = (
    "import sys\n"
    "from faultlens.cli.main import main\n"
    "status = main(sys.argv[1:])\n"
    "print(status, sorted(m for m in sys.modules if m.startswith('pydantic')), file=sys.stderr)\n"
)


@pytest.mark.parametrize("fmt", ["json", "sarif", "text"])
def test_classifying_a_failing_log_does_not_import_pydantic(fmt: str) -> None:
    case = ROOT / "tests/samples/python_test/pytest-long-failures"
    argv = ["classify", "--format", fmt, "--cwd", str(case), str(case / "output.txt")]
    out = subprocess.run(
        [sys.executable, "-c", _CLASSIFY, *argv], capture_output=True, text=True, cwd=case
    )
    assert out.stderr.strip() == "1 []", out.stderr[-2000:]
    assert "test_calc.py" in out.stdout
