"""Project rules in the language server: a bad rule is shown once (a
window/showMessage naming the file and the rule) and never stops the good
ones, project or built-in.

Fixture: tests/samples/typescript/tsc-plain-ts2304 (real `tsc -p .` output),
copied to a temp workspace with a `.faultlens.toml` holding a bad rule, an
errorformat rule with two start formats (issue 19.15) and a catastrophic
regex (19.13)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from .conftest import CONFIG, TS2304, start, stop, until, uri, workspace

pytestmark = pytest.mark.asyncio(loop_scope="module")

RULES = """
[[rules]]
id = "team.bad"
category = "nope"
regex = "x"

[[rules]]
id = "team.lint"
category = "compile"
errorformat = ["LINT %f:%l:%c: %m", "LINT %f:%l: %m"]

[[rules]]
id = "team.slow"
category = "infra"
regex = "ERR (a|aa)+$"
"""


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    root = workspace(lsp_client, tmp_path_factory)
    (root / ".faultlens.toml").write_text(RULES)
    await start(lsp_client, root)
    yield
    await stop(lsp_client)


def ingest(client: LanguageClient, extra: str) -> None:
    text = (TS2304 / "output.txt").read_text() + extra
    client.protocol.notify(
        "faultlens/ingest", {"output": text, "command": "tsc -p .", "cwd": ".", "exitCode": 2}
    )


async def test_bad_rules_are_shown_once_and_the_rest_still_classify(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    (root / "src/models/user.ts").write_text("export interface UserProfile {}\n" * 3)
    lint = "LINT src/models/user.ts:2:8: lint says no\nLINT src/models/user.ts:3: and no\n"
    slow = "ERR " + "a" * 40 + "b\n"
    ingest(client, lint + slow)
    ts = await until(
        lambda: client.diagnostics.get(uri(root / "src/auth/middleware.ts")), what="tsc"
    )
    assert ts[0].data["rule"].startswith("tsc.")
    lints = await until(
        lambda: client.diagnostics.get(uri(root / "src/models/user.ts")), what="errorformat rule"
    )
    assert sorted(d.range.start.line + 1 for d in lints) == [2, 3]
    shown = await until(
        lambda: [m.message for m in client.messages if "team.bad" in m.message], what="the message"
    )
    assert (
        len(shown) == 1
        and ".faultlens.toml" in shown[0]
        and "`category` must be one of" in shown[0]
    )
    slow_said = await until(
        lambda: [m.message for m in client.log_messages if "team.slow" in m.message],
        what="the rule that gave up",
    )
    assert "backtracks" in slow_said[0]
    ingest(client, "LINT src/models/user.ts:1: once more\n")  # again: not shown twice
    await until(
        lambda: [
            d
            for d in client.diagnostics.get(uri(root / "src/models/user.ts"), [])
            if d.range.start.line == 0
        ],
        what="the second run",
    )
    assert len([m for m in client.messages if "team.bad" in m.message]) == 1
