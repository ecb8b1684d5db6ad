"""Python's "'(' was never closed" closed at the one place that parses
(a real pytest collection error, `faultlens run --recover`)."""

from __future__ import annotations

import sys

import pytest

from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes.py_brackets import close_edit

from .helpers import run_recover_in_process


def test_the_closer_goes_where_the_statement_ends():
    text = "x = foo(a,\n        b\ny = 2\n"
    edit = close_edit("m.py", text, 1, "(")
    assert edit is not None
    assert apply_to_text(text, [edit]) == "x = foo(a,\n        b)\ny = 2\n"


def test_two_places_that_parse_are_no_edit():
    assert close_edit("m.py", "x = (1\n+ 2\n", 1, "(") is None  # `(1)` then `+ 2`, or `(1 + 2)`
    assert close_edit("m.py", "x = [1\ny = [2]\n", 1, "[") is not None


def test_of_two_places_that_parse_the_one_keeping_the_openers_indentation():
    """toolz's functoolz.py with a `)` dropped: closed after the next method's
    decorator it parses too (`newparams @instanceproperty)`, a matrix
    product), but that takes a line indented less than the opener's."""
    text = (
        "class P:\n    def sig(self):\n        newparams = []\n"
        "        return sig.replace(parameters=newparams\n\n"
        "    @instanceproperty\n    def args(self):\n        return self._partial.args\n"
    )
    edit = close_edit("m.py", text, 4, "(")
    assert edit is not None and (edit.start_line, edit.new_text) == (3, ")")


@pytest.mark.real_tool
def test_a_dropped_parenthesis_is_put_back_and_verified(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "keys.py").write_text(
        '__all__ = ("hashkey", "typedkey"\n\n\ndef hashkey(*args):\n    return tuple(args)\n'
    )
    (tmp_path / "test_keys.py").write_text(
        "from pkg.keys import hashkey\n\n\ndef test_key():\n    assert hashkey(1) == (1,)\n"
    )
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_keys.py"]
    report, _ = run_recover_in_process(cmd, tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Close the '(' of line 1"
    text = (tmp_path / "pkg" / "keys.py").read_text()
    assert text.startswith('__all__ = ("hashkey", "typedkey")\n')
