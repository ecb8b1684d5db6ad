"""The Python name index (asked of the interpreter), the batch of a file's
undefined names fixed in one attempt, and respelling by the nearest name in
scope: each run on real pytest output with `faultlens run --recover`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.recipes.names import py_index
from faultlens.recipes.names.nearest import nearest
from faultlens.recipes.names.py_undefined import undefined_names

from .helpers import run_recover_in_process

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / ".git").mkdir(exist_ok=True)
    return root


def test_the_index_is_read_from_the_interpreter_and_kept_per_interpreter(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    py_index._MEMO.clear()
    index = py_index.index_for(sys.executable)
    assert [p.statement() for p in index.providers("Decimal")] == ["from decimal import Decimal"]
    assert [p.statement() for p in index.providers("exists")] == ["from os.path import exists"]
    assert {p.statement() for p in index.providers("sleep")} >= {
        "from asyncio import sleep",
        "from time import sleep",
    }
    assert index.version == sys.version
    assert list((tmp_path / "cache" / "faultlens").glob("pynames-*"))
    py_index._MEMO.clear()
    again = py_index.index_for(sys.executable)  # from the cache folder
    assert again.exports == index.exports


def test_an_interpreter_that_cannot_run_gives_an_empty_index(tmp_path):
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    assert py_index.index_for(str(fake)).providers("Decimal") == []


def test_pyflakes_finds_every_undefined_name_and_how_it_is_used():
    text = "def f():\n    return datetime.now(), Decimal('1'), datetime.utcnow()\n"
    found = {u.name: u.attrs for u in undefined_names(text) or []}
    assert found == {"datetime": {"now", "utcnow"}, "Decimal": {None}}


def test_a_transposition_or_one_edit_is_near_and_a_tie_is_nothing():
    assert nearest("kye", ["key", "value"]) == "key"
    assert nearest("txet", ["text", "line"]) == "text"
    assert nearest("floatValu", ["floatValue", "float"]) == "floatValue"
    assert nearest("uid", ["uuid", "id"]) is None


MONEY = '''\
"""Money."""

import re
from pathlib import Path

import pytest


def parse(s: str) -> Decimal:
    d = Decimal(re.sub(r"[^0-9.]", "", s))
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def stamp() -> str:
    return datetime.now().isoformat()[:4]


def where() -> Path:
    return Path(__file__)


def marker() -> object:
    return pytest
'''
TEST_MONEY = (
    "from pkg.money import parse, stamp\n\n\ndef test_parse():\n"
    "    assert str(parse('$1.005')) == '1.01'\n    assert len(stamp()) == 4\n"
)


@pytest.mark.real_tool
def test_a_files_lost_standard_library_imports_come_back_in_one_edit(tmp_path):
    proj = _write(
        tmp_path, {"pkg/__init__.py": "", "pkg/money.py": MONEY, "tests/test_money.py": TEST_MONEY}
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    assert report.exit_code == 0, [o.reason for o in report.outcomes]
    (outcome,) = report.outcomes
    assert outcome.result == "recovered"
    assert outcome.tried == "Fix 3 undefined names (Decimal, ROUND_HALF_UP, datetime)"
    head = (proj / "pkg" / "money.py").read_text().split("\n\n\n")[0]
    assert head.splitlines() == [
        '"""Money."""',
        "",
        "import re",
        "from datetime import datetime",
        "from decimal import ROUND_HALF_UP, Decimal",
        "from pathlib import Path",
        "",
        "import pytest",
    ]
    assert subprocess.run(PYTEST, cwd=proj, capture_output=True).returncode == 0


@pytest.mark.real_tool
def test_a_name_several_modules_provide_is_refused_with_the_candidates(tmp_path):
    proj = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/wait.py": "def pause():\n    return sleep(0)\n",
            "tests/test_wait.py": "from pkg.wait import pause\n\n\ndef test_pause():\n"
            "    assert pause() is None\n",
        },
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "escalated"
    assert "several modules" in outcome.reason
    assert outcome.box is not None
    flat = " ".join(line.strip("║ ") for line in outcome.box.splitlines())
    assert "from time import sleep" in flat and "from asyncio import sleep" in flat
    assert "sleep(0)" in (proj / "pkg" / "wait.py").read_text()  # nothing edited


@pytest.mark.real_tool
def test_the_workspaces_own_way_of_importing_a_name_decides(tmp_path):
    proj = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from time import sleep\n\n\ndef nap():\n    sleep(0)\n",
            "pkg/wait.py": "def pause():\n    return sleep(0)\n",
            "tests/test_wait.py": "from pkg.wait import pause\n\n\ndef test_pause():\n"
            "    assert pause() is None\n",
        },
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert (proj / "pkg" / "wait.py").read_text().startswith("from time import sleep\n\n")


@pytest.mark.real_tool
def test_a_transposed_parameter_is_respelt_where_python_names_none(tmp_path):
    proj = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/store.py": "def get(table, key, default=None):\n"
            "    return table.get(kye, default)\n",
            "tests/test_store.py": "from pkg.store import get\n\n\ndef test_get():\n"
            "    assert get({'a': 1}, 'a') == 1\n",
        },
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Change 'kye' to 'key'"
    assert "table.get(key, default)" in (proj / "pkg" / "store.py").read_text()
