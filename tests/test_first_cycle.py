"""recipes/first_cycle.py: a watcher run for one answer is fed to the
classifier up to the end of its first cycle, then stopped, once; on the real
tsc --watch capture (tests/samples/watch/tsc-watch, three cycles)."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from faultlens.classifier.cycles import AUTO, TSC
from faultlens.recipes.first_cycle import FirstCycle

CAPTURE = Path(__file__).parent / "samples" / "watch" / "tsc-watch" / "output.txt"


def test_the_first_cycle_is_fed_and_the_watcher_stopped_once_at_its_end():
    fed: list[bytes] = []
    stops: list[int] = []
    first = FirstCycle(TSC, fed.append, lambda: stops.append(1))
    for line in CAPTURE.read_bytes().splitlines(keepends=True):  # as the pump hands it over
        first(line)
    first.close()
    text = b"".join(fed).decode()
    assert first.ended and stops == [1]
    assert "TS2304" in text and "Found 1 error" in text
    assert "File change detected" not in text and "Found 0 errors" not in text


def test_a_cycle_that_never_ends_is_never_stopped():
    fed: list[bytes] = []
    first = FirstCycle(TSC, fed.append, lambda: None)
    first(b"8:56:02 AM - Starting compilation in watch mode...\n")
    for _ in range(1000):
        first(b"src/a.ts(1,1): error TS2304: Cannot find name 'X'.\n")
    first.close()
    assert not first.ended and len(fed) >= 1000


def test_a_watcher_whose_cycles_end_in_silence_is_stopped_after_its_quiet_spell():
    stopped = threading.Event()
    first = FirstCycle(dataclasses.replace(AUTO, quiet=0.2), lambda _: None, stopped.set)
    first(b"building...\nerror: something broke\n")
    try:
        assert stopped.wait(30), "not stopped after the quiet spell"
        assert first.ended
    finally:
        first.close()
