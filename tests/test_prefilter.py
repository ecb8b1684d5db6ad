"""The prefilter's three scanners (classifier/prefilter.py) find the same
trigger occurrences, so the engine's records never depend on which one read
an output, or on what the cache folder holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultlens.classifier import cachefile, classify_bytes, engine, prefilter
from faultlens.classifier.config import effective_rules

SAMPLES = sorted(Path(__file__).parent.glob("samples/*/*/output.txt"))


def _all_outputs() -> bytes:
    return b"".join(p.read_bytes() for p in SAMPLES)


def _builtin_triggers() -> tuple[bytes, ...]:
    rules, _ = effective_rules(".")
    return engine._ruleset(rules).triggers


def _hyperscan(triggers: tuple[bytes, ...]) -> prefilter.HyperscanScanner:
    pytest.importorskip("hyperscan")
    db = prefilter.hyperscan_database(triggers, compile_=True)
    assert db is not None
    return prefilter.HyperscanScanner(
        db, [len(t) for t in triggers], lambda: prefilter.automaton(triggers, True)
    )


def _scanners(triggers: tuple[bytes, ...]) -> dict[str, prefilter.Scanner]:
    return {
        "nfa": prefilter.automaton(triggers, False),
        "dfa": prefilter.automaton(triggers, True),
        "hyperscan": _hyperscan(triggers),
    }


def test_every_scanner_finds_every_occurrence_of_every_trigger():
    triggers = _builtin_triggers()
    data = _all_outputs()
    found = {
        name: sorted(s.find_matches_as_indexes(data, overlapping=True))
        for name, s in _scanners(triggers).items()
    }
    assert found["nfa"] == found["dfa"] == found["hyperscan"]
    assert len(found["nfa"]) > 5_000
    for idx, start, end in found["hyperscan"][:500]:
        assert data[start:end] == triggers[idx]


def test_hyperscan_reports_the_lines_in_order():
    """It reports by end offset; for triggers without a line end inside,
    that is the order of their lines, which is what the engine reads."""
    triggers = _builtin_triggers()
    data = _all_outputs()
    starts = [s for _, s, _ in _hyperscan(triggers).find_matches_as_indexes(data)]
    line_of = [data.count(b"\n", 0, s) for s in starts[:3000]]
    assert line_of == sorted(line_of)


@pytest.mark.parametrize("scanner", ["nfa", "dfa", "hyperscan"])
def test_the_records_are_the_same_whichever_scanner_reads(monkeypatch, scanner):
    """Every sample's output, read whole by one scanner, gives the records the
    NFA gives (the NFA alone reads short outputs)."""
    data = _all_outputs()

    def read_with(name: str) -> list[str]:
        engine._RULESETS.clear()  # a new rule set: no scanner built before
        chosen: dict[str, prefilter.Scanner] = {}

        def for_size(self: prefilter.Prefilter, bytes_read: int) -> prefilter.Scanner:
            if name not in chosen:
                chosen[name] = _scanners(self.triggers)[name]
            return chosen[name]

        monkeypatch.setattr(prefilter.Prefilter, "for_size", for_size)
        return [r.to_json() for r in classify_bytes(data)]

    reference = read_with("nfa")
    assert len(reference) > 300
    assert read_with(scanner) == reference


def test_a_long_output_switches_to_the_cached_database(monkeypatch, tmp_path):
    pytest.importorskip("hyperscan")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    triggers = (b"error TS", b"FAIL", b"Traceback")
    first = prefilter.Prefilter(triggers, cross_line=False)
    assert isinstance(first.for_size(2 << 20), type(prefilter.automaton(triggers, True)))
    # past HYPERSCAN_AFTER it compiles one and keeps it in the cache folder
    assert isinstance(first.for_size(prefilter.HYPERSCAN_AFTER + 1), prefilter.HyperscanScanner)
    kept = list((tmp_path / "faultlens").glob("prefilter-*.hsdb"))
    assert len(kept) == 1
    # the next output loads it from the second MB on
    again = prefilter.Prefilter(triggers, cross_line=False)
    assert isinstance(again.for_size(2 << 20), prefilter.HyperscanScanner)
    hits = again.for_size(2 << 20).find_matches_as_indexes(b"x\nFAIL a\nerror TS1\n")
    assert sorted(hits) == [(0, 9, 17), (1, 2, 6)]


def test_a_damaged_cached_database_is_compiled_again(monkeypatch, tmp_path):
    pytest.importorskip("hyperscan")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    triggers = (b"panicked at", b"error[E")
    assert prefilter.hyperscan_database(triggers, compile_=True) is not None
    (path,) = (tmp_path / "faultlens").glob("prefilter-*.hsdb")
    blob = bytearray(path.read_bytes())
    blob[-100] ^= 0xFF
    path.write_bytes(bytes(blob))
    assert cachefile.read(path.name) is None  # the checksum no longer holds
    assert prefilter.hyperscan_database(triggers, compile_=False) is None
    assert prefilter.hyperscan_database(triggers, compile_=True) is not None
    assert cachefile.read(path.name) is not None


def test_triggers_with_a_line_end_inside_never_go_to_hyperscan():
    """Hyperscan's end-ordered matches could put such a trigger's line after
    the next one's: those trigger lists keep the DFA."""
    p = prefilter.Prefilter((b"error:\n  -->", b"FAIL"), cross_line=True)
    assert not isinstance(p.for_size(prefilter.HYPERSCAN_AFTER + 1), prefilter.HyperscanScanner)


def test_without_hyperscan_the_dfa_reads_long_outputs(monkeypatch):
    monkeypatch.setattr(prefilter, "hyperscan_database", lambda triggers, compile_: None)
    p = prefilter.Prefilter((b"FAIL",), cross_line=False)
    assert p.for_size(prefilter.HYPERSCAN_AFTER + 1) is prefilter.automaton((b"FAIL",), True)
