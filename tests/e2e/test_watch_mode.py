"""Watch mode through the real LSP client: real watchers run by `faultlens.run`.

One server serves a workspace of three folders, each a real project that a
real watcher follows: `ts/` (the seed's TypeScript example,
tests/samples/typescript/tsc-plain-ts2304: TS2304 at
src/auth/middleware.ts:42) under `npx tsc --watch --preserveWatchOutput -p .`,
`vitest/` (tests/samples/watch/vitest-watch) under `vitest --watch`, `node/`
(tests/samples/watch/nodemon-crash) under `nodemon`.  Each test: the request
answers at once, the first cycle's failure is published while the watcher
keeps running, a fix on disk clears it with the next cycle, and
`faultlens.stopTask` ends the watcher's process tree.

Marked real_tool and slow: tsc's first compile takes 10 s and more on a loaded
machine.  Needs scripts/install-tools.sh test (tools/node, tools/node-watch).
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import (
    SAMPLES,
    SERVER,
    TS2304,
    TS2304_FILE,
    client_factory,
    command,
    copy_tree,
    start,
    stop,
    until,
    uri,
)
from .watchlib import CYCLE_TIMEOUT, TSC_BIN, WATCH_BIN, kill_all_in, processes_in, watch_env

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.real_tool,
    pytest.mark.slow,
]
WATCH = SAMPLES / "watch"
CONFIG = ClientServerConfig(
    server_command=SERVER, client_factory=client_factory, server_env=watch_env()
)
STOP_TIMEOUT = 30.0


def _inputs(src: Path, dest: Path) -> None:
    """A sample's input files (no captured output, no expectations)."""
    shutil.copytree(
        src,
        dest,
        ignore=shutil.ignore_patterns("output.txt", "cmd.txt", "cycles.json", "expected*.json"),
    )


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    for tool in (TSC_BIN / "tsc", WATCH_BIN / "vitest", WATCH_BIN / "nodemon"):
        if not tool.exists():
            pytest.fail(f"{tool} is missing: run scripts/install-tools.sh test")
    root = tmp_path_factory.mktemp("watch") / "ws"
    root.mkdir()
    copy_tree(TS2304, root / "ts")
    # the project's own typescript, as `npm install` leaves it (npx looks there, not on PATH)
    (root / "ts" / "node_modules").symlink_to(TSC_BIN.parent)
    _inputs(WATCH / "vitest-watch", root / "vitest")
    _inputs(WATCH / "nodemon-crash", root / "node")
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, root)
    try:
        yield
    finally:
        await stop(lsp_client)
        kill_all_in(root)


def cleared(client: LanguageClient, target: str) -> bool:
    """The file's diagnostics were published, and are now none."""
    return target in client.diagnostics and not client.diagnostics[target]


def reports(client: LanguageClient, key_title: str) -> list[str]:
    """The messages of the watch progress whose title names `key_title`."""
    for values in client.progress_reports.values():
        first = values[0] if values else None
        if isinstance(first, T.WorkDoneProgressBegin) and key_title in first.title:
            return [getattr(v, "message", "") or "" for v in values]
    return []


async def watch(client: LanguageClient, cmd: str, cwd: str) -> dict[str, Any]:
    result = await command(client, "faultlens.run", {"command": cmd, "cwd": cwd}, timeout=30)
    assert result["watch"] is True and "exitCode" not in result, result
    return result


async def stop_watch(client: LanguageClient, key: str, folder: Path, title: str) -> None:
    await command(client, "faultlens.stopTask", {"task": key}, timeout=STOP_TIMEOUT)
    await until(lambda: not processes_in(folder), STOP_TIMEOUT, f"no process left in {folder}")
    await until(
        lambda: reports(client, title) and "after" in reports(client, title)[-1],
        STOP_TIMEOUT,
        "the watch progress ended",
    )


async def test_tsc_watch_publishes_ts2304_clears_it_the_next_cycle_and_stops(
    client: LanguageClient,
) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    folder = root / "ts"
    target = uri(folder / TS2304_FILE)
    cmd = "npx tsc --watch --preserveWatchOutput -p ."
    result = await watch(client, cmd, "ts")
    assert result["watcher"] == "tsc"
    (d,) = await until(
        lambda: client.diagnostics.get(target), CYCLE_TIMEOUT, "TS2304 from the first cycle"
    )
    assert d.range.start.line == 41 and "UserProfile" in d.message and d.code == "compile"
    assert processes_in(folder), "tsc keeps running after its first cycle"
    await until(lambda: "cycle 1, 1 failure" in reports(client, cmd), what="cycle 1 reported")

    # the fix on disk: the import on line 2 (a blank line), so line numbers stay
    path = folder / TS2304_FILE
    lines = path.read_text().splitlines(keepends=True)
    assert lines[1].strip() == ""
    lines[1] = "import type { UserProfile } from '../models/user';\n"
    path.write_text("".join(lines))
    await until(lambda: cleared(client, target), CYCLE_TIMEOUT, "TS2304 cleared")
    await until(lambda: "cycle 2, 0 failures" in reports(client, cmd), what="cycle 2 reported")
    ended = [m for m in reports(client, cmd) if m.startswith("cycle ") and "failure" in m]
    assert ended[:2] == ["cycle 1, 1 failure", "cycle 2, 0 failures"], ended
    assert processes_in(folder), "tsc still runs after a clean cycle"

    await stop_watch(client, result["task"], folder, cmd)


async def test_vitest_watch_follows_its_runs_and_a_stop_clears_the_last_cycle(
    client: LanguageClient,
) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    folder = root / "vitest"
    target = uri(folder / "cart.test.js")
    cmd = "vitest --watch --globals"
    result = await watch(client, cmd, "vitest")
    assert result["watcher"] == "vitest"
    (d,) = await until(lambda: client.diagnostics.get(target), CYCLE_TIMEOUT, "vitest failure")
    assert d.range.start.line == 3 and d.code == "test" and "expected 8 to be 11" in d.message
    (folder / "cart.js").write_bytes((folder / "cart.js.fixed").read_bytes())
    await until(lambda: cleared(client, target), CYCLE_TIMEOUT, "failure cleared")
    (folder / "cart.js").write_bytes((folder / "cart.js.broken").read_bytes())
    await until(lambda: client.diagnostics.get(target), CYCLE_TIMEOUT, "the failure is back")
    assert processes_in(folder), "vitest keeps running"
    # stopped: the watch task's diagnostics go with it (keepDiagnosticsOnStop is off)
    await stop_watch(client, result["task"], folder, cmd)
    await until(lambda: cleared(client, target), STOP_TIMEOUT, "cleared by the stop")


async def test_nodemon_crash_is_shown_until_a_fixed_restart_exits_cleanly(
    client: LanguageClient,
) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    folder = root / "node"
    target = uri(folder / "server.js")
    cmd = "nodemon server.js"
    result = await watch(client, cmd, "node")
    assert result["watcher"] == "nodemon"
    (d,) = await until(lambda: client.diagnostics.get(target), CYCLE_TIMEOUT, "the crash")
    assert d.range.start.line == 2 and "totl is not defined" in d.message
    (folder / "server.js").write_bytes((folder / "server.js.fixed").read_bytes())
    await until(lambda: cleared(client, target), CYCLE_TIMEOUT, "crash cleared")
    assert processes_in(folder), "nodemon keeps watching after the clean exit"
    await stop_watch(client, result["task"], folder, cmd)


async def test_a_recipe_on_a_watchers_failure_is_verified_by_its_next_cycle(
    client: LanguageClient,
) -> None:
    """The compile recipe imports UserProfile; the verification does not run tsc
    again (it would never exit): it waits for the watcher's next cycle."""
    root: Path = client.root  # type: ignore[attr-defined]
    folder = root / "ts"
    path = folder / TS2304_FILE
    path.write_bytes((TS2304 / TS2304_FILE).read_bytes())  # broken again
    target = uri(path)
    cmd = "npx tsc --watch -p ."
    result = await watch(client, cmd, "ts")
    (d,) = await until(lambda: client.diagnostics.get(target), CYCLE_TIMEOUT, "TS2304")
    failure_id = d.data["id"]
    outcome = await command(
        client, "faultlens.applyRecipe", {"failureId": failure_id}, timeout=CYCLE_TIMEOUT
    )
    assert outcome["result"] == "recovered", outcome
    assert "the watcher's next cycle (tsc)" in outcome["reason"]
    assert "import" in path.read_text() and "UserProfile" in path.read_text()
    await until(lambda: cleared(client, target), CYCLE_TIMEOUT, "cleared")
    await stop_watch(client, result["task"], folder, cmd)
