"""Watch-mode cycles (classifier/cycles.py) on real watchers' captured output.

Each case in tests/samples/watch/ holds the smallest broken input, the
watcher's output across file changes (scripts/capture-watch.py: broken, fixed,
broken again) in output.txt, the command in cmd.txt, and in cycles.json the
failures each cycle must give (`failure_type`, `source_file`, `source_line`),
an empty list for a clean cycle.
"""

from __future__ import annotations

import json
import random
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from faultlens.classifier.cycles import (
    AUTO,
    Begin,
    CycleReader,
    Data,
    End,
    Piece,
    Watcher,
    generic,
    watcher_for,
)

WATCH = Path(__file__).parent / "samples" / "watch"
CASES = sorted(p.parent for p in WATCH.glob("*/cycles.json"))


def command_of(case: Path) -> list[str]:
    first = (case / "cmd.txt").read_text().splitlines()[0]
    return shlex.split(re.sub(r"   \(.*\)\s*$", "", first))


def split(watcher: Watcher, data: bytes, sizes: list[int]) -> list[Piece]:
    reader = CycleReader(watcher)
    out: list[Piece] = []
    pos = 0
    for n in sizes:
        out += reader.feed(data[pos : pos + n])
        pos += n
    out += reader.feed(data[pos:])
    return out + reader.close()


def cycles_of(pieces: list[Piece]) -> list[bytes]:
    """The output of each cycle that ended, in order (numbers checked on the way)."""
    done: list[bytes] = []
    current = b""
    number = 1
    for p in pieces:
        if isinstance(p, Data):
            current += p.data
        elif isinstance(p, Begin):
            assert p.cycle == number and current == b"", (p, current)
        elif isinstance(p, End):
            assert p.cycle == number
            done.append(current)
            current = b""
            number += 1
    assert current == b"", f"output outside any cycle was kept: {current!r}"
    return done


def records_of(case: Path, output: bytes) -> list[dict[str, Any]]:
    from faultlens.classifier.engine import Classifier, Options

    c = Classifier(Options(cwd=str(case), command=command_of(case)))
    c.feed(output)
    keep = ("failure_type", "source_file", "source_line")
    return [{k: r.to_json()[k] for k in keep} for r in c.close()]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_cycle_of_a_real_watcher_gives_that_cycles_failures(case: Path) -> None:
    expected = json.loads((case / "cycles.json").read_text())
    watcher = watcher_for(command_of(case))
    assert watcher is not None and watcher.name == expected["watcher"]
    data = (case / "output.txt").read_bytes()
    got = [records_of(case, out) for out in cycles_of(split(watcher, data, []))]
    assert got == expected["cycles"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_cycles_do_not_depend_on_how_the_output_is_chunked(case: Path) -> None:
    watcher = watcher_for(command_of(case))
    assert watcher is not None
    data = (case / "output.txt").read_bytes()
    whole = cycles_of(split(watcher, data, []))
    rng = random.Random(case.name)
    for _ in range(5):
        sizes = [rng.randint(1, 40) for _ in range(len(data) // 10 + 1)]
        assert cycles_of(split(watcher, data, sizes)) == whole
    assert cycles_of(split(watcher, data, [1] * len(data))) == whole


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_auto_watcher_finds_the_same_cycles_as_the_named_one(case: Path) -> None:
    """A command faultlens cannot name (`npm run dev`, `make watch`) is split by
    every known banner; on each real watcher's output that gives its own cycles."""
    watcher = watcher_for(command_of(case))
    assert watcher is not None
    data = (case / "output.txt").read_bytes()
    assert len(cycles_of(split(AUTO, data, []))) == len(cycles_of(split(watcher, data, [])))


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        ("npx tsc --watch --preserveWatchOutput -p .", "tsc"),
        ("tsc -b -w", "tsc"),
        ("node node_modules/typescript/bin/tsc --watch", "tsc"),
        ("tsc -p .", None),
        ("vitest --watch", "vitest"),
        ("npx vitest watch", "vitest"),
        ("vitest", None),  # stdin is no terminal: vitest runs once
        ("vitest run", None),
        ("jest --watchAll", "jest"),
        ("yarn jest --watch", "jest"),
        ("jest", None),
        ("webpack --watch --mode development", "webpack"),
        ("npm exec -- webpack watch", "webpack"),
        ("webpack", None),
        ("vite build --watch", "vite"),
        ("vite build", None),
        ("nodemon server.js", "nodemon"),
        ("nodemon --ext go --exec 'go test ./...'", "nodemon"),
        ("cargo watch -x test", "cargo-watch"),
        ("watchexec -e go -- go test ./...", "watchexec"),
        ("ptw", "pytest"),
        ("python -m pytest_watcher .", "pytest"),
        ("pytest-watcher .", "pytest"),
        ("dotnet watch test", "dotnet-watch"),
        ("dotnet build", None),
        ("CI=1 env FORCE_COLOR=0 npx --yes tsc -w", "tsc"),
        ("make", None),
    ],
)
def test_the_watcher_is_known_from_the_command(argv: str, name: str | None) -> None:
    found = watcher_for(shlex.split(argv))
    assert (found.name if found else None) == name


def test_a_begin_banner_in_a_cycle_with_output_closes_it_first() -> None:
    """nodemon restarting a server that never exited: its output was one cycle."""
    w = generic(r"^\[start\]", None)
    pieces = split(w, b"[start]\nserver up\n[start]\nserver up again\n", [])
    assert cycles_of(pieces) == [b"[start]\nserver up\n", b"[start]\nserver up again\n"]


def test_a_quiet_spell_ends_a_cycle_of_a_watcher_without_an_end_banner() -> None:
    reader = CycleReader(generic(r"^build started", None, quiet=1.0))
    assert reader.quiet() == []  # nothing printed yet: no cycle to end
    pieces = reader.feed(b"build started...\nerror: x.js:1 nope\n")
    pieces += reader.quiet()
    pieces += reader.feed(b"build started...\nok\n")
    pieces += reader.quiet()
    assert cycles_of(pieces) == [
        b"build started...\nerror: x.js:1 nope\n",
        b"build started...\nok\n",
    ]


def test_an_unfinished_last_line_is_kept_until_the_process_exits() -> None:
    reader = CycleReader(generic(None, r"^done$"))
    assert reader.feed(b"error: a.c:1: x") == []
    assert reader.close() == [Data(b"error: a.c:1: x"), End(1)]


def test_a_generic_pattern_that_does_not_compile_is_refused() -> None:
    with pytest.raises(re.error):
        generic("(", None)
