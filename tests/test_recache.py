"""The rule patterns' stored regex programs (classifier/recache.py): a pattern
built from one behaves as `re.compile`'s, and a stored program that is wrong
or damaged is never used."""

from __future__ import annotations

import json
import re

import pytest

from faultlens.classifier import cachefile, recache
from faultlens.classifier.lazyre import LazyRegex
from faultlens.classifier.rules.base import LazyPattern
from faultlens.classifier.rules.registry import all_rules

pytestmark = pytest.mark.skipif(not recache.USABLE, reason="CPython's regex internals only")


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """An empty cache folder, nothing read from it yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(recache, "_stored", None)
    monkeypatch.setattr(recache, "_new", {})
    return tmp_path / "faultlens"


def _reload(monkeypatch):
    """As a new process would: the file read again."""
    monkeypatch.setattr(recache, "_stored", None)
    monkeypatch.setattr(recache, "_new", {})


def _same(a: re.Pattern, b: re.Pattern, probes: list) -> None:
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (
        b.pattern,
        b.flags,
        b.groups,
        b.groupindex,
    )
    for text in probes:
        ma, mb = a.search(text), b.search(text)
        assert (ma and (ma.span(), ma.groups())) == (mb and (mb.span(), mb.groups()))


def _rule_patterns() -> list[tuple[str, int]]:
    found = {
        (r.pattern.pattern, r.pattern.flags)
        for r in all_rules()
        if isinstance(r.pattern, LazyPattern)
    }
    return sorted(found)


def test_every_rule_pattern_built_from_its_stored_program_behaves_as_re_compile(fresh, monkeypatch):
    patterns = _rule_patterns()
    assert len(patterns) > 200
    probes = [
        "src/app.ts(2,13): error TS2304: Cannot find name 'Thing'.",
        "main.c:3:5: error: expected ';' before 'return'",
        "FAILED tests/test_x.py::test_y - AssertionError: assert 1 == 2",
        'Traceback (most recent call last):\n  File "x.py", line 1, in <module>',
        "thread 'main' panicked at src/main.rs:2:5:",
        "",
    ]
    for pattern, flags in patterns:
        recache.compile_pattern(pattern, flags)
    assert recache.save()
    _reload(monkeypatch)
    assert len(recache._load()) == len(patterns)
    for pattern, flags in patterns:
        _same(recache.compile_pattern(pattern, flags), re.compile(pattern, flags), probes)
    assert not recache._new  # every one came from the file


def test_bytes_patterns_and_named_groups_round_trip(fresh, monkeypatch):
    cases = [(rb"(?P<code>E\d{4})\x1b\[", 0), (r"(?P<file>[^:]+):(?P<line>\d+)", re.I), (r"é+", 0)]
    for p, f in cases:
        recache.compile_pattern(p, f)
    recache.save()
    _reload(monkeypatch)
    assert recache.compile_pattern(cases[0][0]).search(b"x E0308\x1b[").group("code") == b"E0308"
    m = recache.compile_pattern(*cases[1]).match("SRC/A.PY:12")
    assert m is not None and m.groupdict() == {"file": "SRC/A.PY", "line": "12"}
    assert recache.compile_pattern("é+").fullmatch("éé")
    assert not recache._new


def test_a_forged_program_is_refused_and_the_pattern_compiled_again(fresh, monkeypatch):
    """The regex engine checks each program it is handed: a stored one that
    would misbehave raises, and the pattern is compiled the usual way."""
    recache.compile_pattern(r"error (\d+)")
    recache.save()
    path = fresh / recache._file_name()
    stored = json.loads(cachefile.read(path.name))
    key = next(iter(stored))
    flags, code, groups, gi, ig = json.loads(stored[key])
    stored[key] = json.dumps([flags, [99999] * len(code), groups, gi, ig])  # not a program
    cachefile.write(path.name, json.dumps(stored).encode())
    _reload(monkeypatch)
    compiled = recache.compile_pattern(r"error (\d+)")
    assert compiled.search("an error 42 here").group(1) == "42"
    assert key in recache._new  # compiled again, stored again on save


def test_a_damaged_file_is_ignored(fresh, monkeypatch):
    recache.compile_pattern(r"FAIL\b")
    recache.save()
    path = fresh / recache._file_name()
    path.write_bytes(path.read_bytes()[:-3])
    _reload(monkeypatch)
    assert recache._load() == {}
    assert recache.compile_pattern(r"FAIL\b").search("a FAIL here")


def test_a_bad_pattern_raises_as_re_compile_does(fresh):
    with pytest.raises(re.error):
        recache.compile_pattern(r"(unclosed")


def test_the_file_never_holds_more_than_its_bound(fresh, monkeypatch):
    monkeypatch.setattr(recache, "MAX_ENTRIES", 5)
    for i in range(20):
        recache.compile_pattern(rf"pattern {i}")
    recache.save()
    _reload(monkeypatch)
    assert 0 < len(recache._load()) <= 5


def test_a_full_file_keeps_what_the_process_used_and_compiled(fresh, monkeypatch):
    monkeypatch.setattr(recache, "MAX_ENTRIES", 5)
    for i in range(5):  # an older version's patterns fill the file
        recache.compile_pattern(rf"old {i}")
    recache.save()
    _reload(monkeypatch)
    monkeypatch.setattr(recache, "_used", set())
    recache.compile_pattern(r"old 0")  # built from the file
    recache.compile_pattern(r"new")  # compiled: the file had no room
    recache.save()
    _reload(monkeypatch)
    assert {k.split(":", 1)[1] for k in recache._load()} == {"old 0", "new"}


def test_two_processes_add_to_the_file_without_losing_each_others(fresh, monkeypatch):
    recache.compile_pattern(r"first")
    recache.save()
    _reload(monkeypatch)
    recache._load()  # the second process read the file ...
    recache.compile_pattern(r"second")
    monkeypatch.setattr(recache, "_stored", {})  # ... before the first had written it
    recache.save()
    _reload(monkeypatch)
    assert {k.split(":", 1)[1] for k in recache._load()} == {"first", "second"}


def test_lazy_patterns_compile_through_the_store(fresh):
    LazyRegex(r"(?P<n>\d+) passed").search("3 passed")
    LazyPattern(r"\d+ failed").search("1 failed")
    assert {k.split(":", 1)[1] for k in recache._new} >= {r"(?P<n>\d+) passed", r"\d+ failed"}


def test_a_second_process_classifying_the_same_output_stores_nothing_new(tmp_path):
    """Every pattern is the same text in every process: one built from a set
    (whose order follows the hash seed) was compiled and stored again by each
    run, so the file grew on every classification and was rewritten."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    samples = sorted(Path(__file__).parent.glob("samples/*/*/output.txt"))
    log = tmp_path / "all.log"
    log.write_bytes(b"".join(p.read_bytes() for p in samples))
    cache = tmp_path / "cache"
    stored = cache / "faultlens" / recache._file_name()

    def classify(seed: str) -> bytes:
        env = dict(os.environ, XDG_CACHE_HOME=str(cache), PYTHONHASHSEED=seed)
        argv = [sys.executable, "-m", "faultlens.cli", "classify", "--format", "json", str(log)]
        subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, check=False)
        return stored.read_bytes()

    first = classify("1")
    assert first  # the first run stored the programs it compiled
    assert classify("2") == first


def test_a_str_pattern_is_one_program_with_or_without_the_unicode_flag(fresh):
    """A compiled pattern's flags include re.UNICODE: a pattern compiled again
    from them (the secret detectors kept in the cache) finds its program."""
    recache.compile_pattern(r"token=\w+", re.IGNORECASE)
    recache.compile_pattern(r"token=\w+", re.IGNORECASE | re.UNICODE)
    assert len(recache._new) == 1
    recache.compile_pattern(r"token=\w+", re.ASCII)
    assert len(recache._new) == 2  # an ASCII pattern is another program
