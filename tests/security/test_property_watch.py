"""Property tests (hypothesis) of watch output whose cycle never ends (issue
27: the new fronts, item 6).  For every known watcher, output drawn from its
real captured lines (tests/samples/watch/) and hostile ones — lines of any
bytes, lines with no end at all, chunks cut anywhere — none of which ends a
cycle: the cycle reader holds at most one line (MAX_LINE) and loses no byte;
`faultlens run -- <watcher>`'s follower classifies at most MAX_CYCLE_BYTES
of the cycle and keeps a bounded tail; and an MCP `run`'s first-cycle reader
(recipes/first_cycle.py) never stops the watcher, handing every byte on.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faultlens.classifier.cycles import WATCHERS, CycleReader, Data, End, plain

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
CAPTURES = Path(__file__).resolve().parents[1] / "samples" / "watch"
CAPTURED = sorted(
    {
        line
        for f in CAPTURES.glob("*/output.txt")
        for line in f.read_bytes().splitlines(keepends=True)
    }
)
TAIL_BOUND = 16000  # cli/watch.py keeps the last 16000 bytes of a cycle


def _never_ends(watcher, line: bytes) -> bool:  # type: ignore[no-untyped-def]
    """Neither an end banner nor a begin one (which closes a cycle with output)."""
    text = plain(line.decode("utf-8", "replace"))
    return not watcher.ends(text) and not watcher.begins(text)


@st.composite
def endless(draw: st.DrawFn) -> tuple[object, list[bytes]]:
    watcher = dataclasses.replace(draw(st.sampled_from(WATCHERS)), quiet=None)
    line = st.one_of(
        st.sampled_from(CAPTURED),
        st.binary(max_size=120).map(lambda b: b.replace(b"\n", b"") + b"\n"),
        st.integers(66_000, 90_000).map(lambda n: b"y" * n),  # a line with no end
    ).filter(lambda ln: _never_ends(watcher, ln))
    lines = draw(st.lists(line, min_size=1, max_size=30))
    times = draw(st.integers(1, 8))
    data = b"".join(lines) * times
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=12)))
    chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    return watcher, [c for c in chunks if c]


@given(case=endless())
@SETTINGS
def test_the_cycle_reader_holds_at_most_a_line_and_loses_nothing(case):
    watcher, chunks = case
    reader = CycleReader(watcher)
    handed = 0
    for chunk in chunks:
        for piece in reader.feed(chunk):
            assert not isinstance(piece, End)
            if isinstance(piece, Data):
                handed += len(piece.data)
        assert len(reader._partial) <= CycleReader.MAX_LINE + len(chunk)
    held = len(reader._partial)
    assert handed + held == sum(len(c) for c in chunks)


@given(case=endless())
@SETTINGS
def test_an_mcp_run_s_first_cycle_reader_never_stops_an_endless_cycle(case):
    from faultlens.recipes.first_cycle import FirstCycle

    watcher, chunks = case
    fed: list[int] = []
    stops: list[int] = []
    first = FirstCycle(watcher, lambda b: fed.append(len(b)), lambda: stops.append(1))
    for chunk in chunks:
        first(chunk)
    first.close()
    assert not first.ended and stops == []
    assert sum(fed) <= sum(len(c) for c in chunks)


_world: dict[str, Path] = {}


@given(case=endless())
@SETTINGS
def test_the_follower_classifies_a_bounded_part_of_an_endless_cycle(tmp_path_factory, case):
    from faultlens.cli import watch
    from faultlens.recipes import Workspace
    from faultlens.recipes.model import RecipeSettings

    if not _world:
        ws = tmp_path_factory.mktemp("watchprop")
        (ws / ".git").mkdir()
        _world["ws"] = ws
    root = _world["ws"]
    watcher, chunks = case
    ws = Workspace(roots=[root], state_dir=root / ".faultlens", settings=RecipeSettings())
    bound = 64 * 1024  # MAX_CYCLE_BYTES, small enough for examples of seconds
    saved = watch.MAX_CYCLE_BYTES
    watch.MAX_CYCLE_BYTES = bound
    try:
        follower = watch.Follower(
            ["watcher"], cwd=root, ws=ws, task=None, watcher=watcher, err=io.StringIO()
        )
        follower.start()
        for chunk in chunks:
            follower.feed(chunk)
        follower.finish(None)  # interrupted: the open cycle is dropped
    finally:
        watch.MAX_CYCLE_BYTES = saved
    assert follower.board_count() == 0  # no cycle ended
    assert follower._classifier is not None
    assert follower._classifier.classifier.bytes_read <= bound
    assert len(follower._tail) <= TAIL_BOUND
