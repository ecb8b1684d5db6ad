"""The maintained detector set read once and kept (classifier/maintained_forms.py):
the kept set is the set read from detect-secrets' files, and a kept set that
is damaged, foreign or for other files is never used."""

from __future__ import annotations

import pytest

from faultlens.classifier import cachefile, maintained_forms


def _read_fresh():
    return maintained_forms.maintained.__wrapped__()


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "faultlens"


def _kept(cache):
    return sorted(cache.glob(f"{maintained_forms.CACHE_PREFIX}*"))


def test_the_kept_set_is_the_set_read_from_the_plugin_files(cache):
    first = _read_fresh()
    if not first.source:
        pytest.skip("detect-secrets is not installed")
    assert len(first.detectors) > 10
    (kept,) = _kept(cache)
    again = _read_fresh()  # from the cache file now
    assert again == first
    assert [d.regex.pattern for d in again.detectors] == [d.regex.pattern for d in first.detectors]
    assert _kept(cache) == [kept]


@pytest.mark.parametrize(
    "payload", [b"not json", b"{}", b'{"source": "x", "detectors": [[1]], "skipped": []}']
)
def test_a_damaged_kept_set_is_read_again_from_the_files(cache, payload):
    first = _read_fresh()
    if not first.source:
        pytest.skip("detect-secrets is not installed")
    (kept,) = _kept(cache)
    assert cachefile.write(kept.name, payload)
    assert _read_fresh() == first


def test_other_plugin_files_are_kept_under_another_name(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    (tmp_path / "__version__.py").write_text("VERSION = '1'\n")
    before = maintained_forms._cache_name(tmp_path, [a, b])
    b.write_text("y = 22\n")  # an upgrade changed a plugin
    assert maintained_forms._cache_name(tmp_path, [a, b]) != before
    assert maintained_forms._cache_name(tmp_path, [a]) != before
