"""The life of a diagnostic, pure parts: failures follow edits (server/tracking.py),
are replaced per (task, source) and forgotten with their files (server/store.py);
a stop ends the whole process tree (server/runner.py)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from faultlens.classifier.record import FailureRecord
from faultlens.recipes import proctree
from faultlens.recipes.runner_async import Streamed
from faultlens.server import runner
from faultlens.server.placement import Placement
from faultlens.server.store import Entry, FailureStore
from faultlens.server.tracking import move, moved


@pytest.mark.parametrize(
    ("where", "start", "end", "text", "after"),
    [
        ((41, 14), (0, 0), (0, 0), "import x;\n", (42, 14)),  # a line added above
        ((41, 14), (3, 0), (5, 0), "", (39, 14)),  # two lines removed above
        ((41, 14), (41, 2), (41, 2), "/* x */ ", (41, 22)),  # before it, on its line
        ((41, 14), (41, 30), (41, 31), "", (41, 14)),  # after it, on its line
        ((41, 14), (45, 0), (45, 0), "more\n", (41, 14)),  # below it
        ((41, 14), (41, 10), (41, 20), "", (41, 10)),  # its text was replaced
        ((41, 14), (40, 5), (41, 3), "a\nbb\nc", (42, 12)),  # a multi-line edit ending before it
    ],
)
def test_a_position_moves_with_an_edit(
    where: tuple[int, int],
    start: tuple[int, int],
    end: tuple[int, int],
    text: str,
    after: tuple[int, int],
) -> None:
    assert move(*where, start, end, text) == after


def test_a_whole_line_placement_follows_its_line() -> None:
    p = Placement(path=Path("/w/a.py"), line=7)
    assert moved(p, (0, 0), (0, 0), "import os\n") == Placement(path=Path("/w/a.py"), line=8)
    assert moved(p, (7, 4), (7, 4), "x") == p  # an edit on its own line keeps it


def record(**kw: object) -> FailureRecord:
    return FailureRecord.from_json(
        {
            "failure_type": "compile",
            "severity": "blocking",
            "signal": "x",
            "auto_recoverable": True,
            "recipe": "recipes/compile.md",
            **kw,
        }
    )


def entry(rid: str, path: Path, source: str) -> Entry:
    return Entry(record(id=rid), "T", Path("/w"), Placement(path=path, line=0), source=source)


def test_a_run_replaces_only_its_own_sources_failures_within_a_task() -> None:
    store = FailureStore()
    a, b = Path("/w/a.ts"), Path("/w/b.py")
    assert store.replace("T", [entry("1", a, "tsc")], source="tsc") == {a}
    assert store.replace("T", [entry("2", b, "pytest")], source="pytest") == {b}
    assert store.replace("T", [], source="pytest") == {b}  # a clean pytest run
    assert [e.record.id for e in store.entries("T")] == ["1"]  # tsc's failure stays
    assert store.remove_task("T") == {a}


def test_a_failure_another_source_of_the_task_reports_again_is_shown_once() -> None:
    """The editor's task ran the build, then `faultlens.run` ran it again by
    command (another source): the failure both report is one diagnostic, as
    the newest run has it; what only the first source reported stays."""
    store = FailureStore()
    a, b = Path("/w/a.py"), Path("/w/b.py")
    store.replace("T", [entry("1", a, "task"), entry("2", b, "task")], source="task")
    assert store.replace("T", [entry("1", a, "command")], source="command") == {a}
    assert [(e.record.id, e.source) for e in store.entries("T")] == [
        ("2", "task"),
        ("1", "command"),
    ]


def test_deleted_files_and_folders_forget_their_failures() -> None:
    store = FailureStore()
    a, b, c = Path("/w/src/a.ts"), Path("/w/src/deep/b.ts"), Path("/w/c.ts")
    store.replace("T", [entry("1", a, "s"), entry("2", b, "s"), entry("3", c, "s")], source="s")
    assert store.remove_paths([Path("/w/src")]) == {a, b}
    assert [e.record.id for e in store.entries()] == ["3"]
    assert store.remove_paths([Path("/w/nothing.ts")]) == set()


CHILD_IN_OWN_SESSION = """
import os, subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
print("started", flush=True)
time.sleep(300)
"""


def test_a_stop_ends_the_process_tree_even_a_child_in_its_own_session(tmp_path: Path) -> None:
    """A watcher's worker that left the process group (setsid) is ended too."""
    seen: list[int] = []

    async def main() -> Streamed:
        stop = False

        async def on_output(chunk: bytes) -> None:
            nonlocal stop
            if b"started" in chunk:
                await asyncio.sleep(0.2)
                seen.extend(runner.descendants(os.getpid()))
                stop = True

        return await runner.run_command(
            [sys.executable, "-c", CHILD_IN_OWN_SESSION],
            tmp_path,
            on_output=on_output,
            cancelled=lambda: stop,
            timeout=120,
        )

    result = asyncio.run(main())
    assert result.cancelled
    assert len(seen) >= 2, seen  # the command and its child
    deadline = time.monotonic() + 10
    while any(proctree.exists(p) for p in seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in seen if proctree.exists(p)], "a process of the tree is left"


PROJECT_MATCHER = """
[[tool.faultlens.rules]]
id = "project.devsh"
category = "compile"
problemMatcher = { owner = "dev", pattern = { regexp = '^(.*):(\\d+): (.*)$', file = 1, line = 2, message = 3 }, background = { beginsPattern = '^== build', endsPattern = '^== (ok|failed)' } }
"""


def test_a_watcher_is_followed_by_the_project_matchers_background(tmp_path: Path) -> None:
    """A VS Code problem matcher's background in the project config gives the
    cycle banners of a watcher faultlens does not know (`./dev.sh`)."""
    from faultlens.classifier.cycles import Begin, CycleReader, End
    from faultlens.server.watchrun import choose

    (tmp_path / "pyproject.toml").write_text(PROJECT_MATCHER)
    w = choose(["./dev.sh"], tmp_path, watch=True, begin=None, end=None)
    assert w is not None and w.name == "project:project.devsh"
    pieces = CycleReader(w).feed(b"== build 1\nsrc/a.c:3: nope\n== failed\n== build 2\n== ok\n")
    assert [type(p).__name__ for p in pieces if isinstance(p, Begin | End)] == [
        "End",
        "Begin",
        "End",
    ]
    assert choose(["./dev.sh"], tmp_path, watch=None, begin=None, end=None) is None
    assert choose(["./dev.sh"], tmp_path, watch=False, begin=None, end=None) is None
    run_patterns = choose(["./dev.sh"], tmp_path, watch=None, begin="^>>", end="^<<")
    assert run_patterns is not None and run_patterns.name == "run patterns"


def test_a_watcher_killed_by_a_signal_or_through_a_wrapper_counts_as_stopped() -> None:
    from faultlens.server.watchrun import killed

    assert killed(Streamed(137, 0, 0, 1.0, signal=9))
    assert killed(Streamed(143, 0, 0, 1.0))  # `npx`/`sh` reporting its child's SIGTERM
    assert not killed(Streamed(1, 0, 0, 1.0))  # exited by itself: its last cycle stands
    assert not killed(Streamed(0, 0, 0, 1.0))
    assert not killed(Streamed(None, 0, 0, 1.0, error="cannot run"))
