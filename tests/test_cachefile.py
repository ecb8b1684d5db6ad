"""The start-up caches' files (classifier/cachefile.py): in the user's cache
folder, written whole, read back only while their checksum holds."""

from __future__ import annotations

import os
import stat

import pytest

from faultlens.classifier import cachefile


@pytest.fixture
def home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "faultlens"


def test_what_is_written_is_read_back_and_only_its_owner_may_read_it(home):
    assert cachefile.write("thing-1.bin", b"\x00payload\n")
    assert cachefile.read("thing-1.bin") == b"\x00payload\n"
    path = home / "thing-1.bin"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert [p.name for p in home.iterdir()] == ["thing-1.bin"]  # no temporary file left


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:-1],  # torn
        lambda b: b[:40],  # torn inside the header
        lambda b: b + b"x",  # appended to
        lambda b: b.replace(b"payload", b"paYload"),  # edited
        lambda b: b"something else entirely\n",  # another program's file
        lambda b: b"",
    ],
)
def test_a_damaged_file_is_a_miss(home, damage):
    cachefile.write("thing.bin", b"payload " * 100)
    path = home / "thing.bin"
    path.write_bytes(damage(path.read_bytes()))
    assert cachefile.read("thing.bin") is None


def test_an_absent_file_or_folder_is_a_miss(home):
    assert cachefile.read("never-written") is None


def test_a_folder_that_cannot_be_written_skips_the_write(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert cachefile.write("thing.bin", b"x") is False
    assert cachefile.read("thing.bin") is None


@pytest.mark.parametrize("name", ["../escape", "a/b", "", ".hidden", "x" * 200, "nul\x00"])
def test_a_name_that_is_not_one_plain_file_name_is_refused(home, name):
    with pytest.raises(ValueError):
        cachefile.write(name, b"x")


def test_prune_keeps_the_newest_and_the_one_in_use(home):
    for i in range(6):
        cachefile.write(f"db-{i}", b"x")
        os.utime(home / f"db-{i}", ns=(i * 10**9, i * 10**9))
    cachefile.write("other", b"y")
    cachefile.prune("db-", keep="db-0", most=3)
    assert sorted(p.name for p in home.iterdir()) == ["db-0", "db-4", "db-5", "other"]


def test_a_relative_cache_home_or_an_unknown_home_caches_nothing(monkeypatch, tmp_path):
    """Never a cache folder relative to the working directory (the workspace):
    a relative XDG_CACHE_HOME is ignored, and a home that cannot be found
    (expanduser leaves `~` as it is) means no cache at all."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cachefile.cache_dir() == tmp_path / "home" / ".cache" / "faultlens"
    monkeypatch.setattr(cachefile.os.path, "expanduser", lambda p: p)
    assert cachefile.cache_dir() is None
    assert cachefile.write("thing.bin", b"x") is False
    assert cachefile.read("thing.bin") is None
    cachefile.prune("thing", keep="", most=1)
    assert list(tmp_path.iterdir()) == []


def test_a_fifo_a_link_or_an_oversized_file_in_the_cache_folder_is_a_miss(
    home, monkeypatch, tmp_path
):
    """Never a read that blocks (a FIFO), follows a planted link, or has no bound."""
    home.mkdir(parents=True)
    os.mkfifo(home / "fifo.bin")
    assert cachefile.read("fifo.bin") is None  # returns at once
    cachefile.write("real.bin", b"payload")
    (home / "link.bin").symlink_to(home / "real.bin")
    assert cachefile.read("link.bin") is None
    assert cachefile.read("real.bin") == b"payload"
    monkeypatch.setattr(cachefile, "MAX_BYTES", 40)
    assert cachefile.write("big.bin", b"x" * 100)
    assert cachefile.read("big.bin") is None
