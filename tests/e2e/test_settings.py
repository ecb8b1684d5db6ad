"""Settings: initializationOptions, workspace/configuration, bad values, and
changes at runtime (workspace/didChangeConfiguration) without a restart.

Fixture: tests/samples/typescript/tsc-plain-ts2304.
"""

from __future__ import annotations

import pytest
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import command, served, until

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = served(
    init={"runCommands": {"show": ["cat", "output.txt"]}, "watchGlobs": ["logs/*.log"]},
    settings={"autoRecover": "sometimes", "maxTaskRetries": 1},
)


async def test_a_bad_value_is_reported_and_falls_back_to_the_default(client: LanguageClient):
    msgs = await until(
        lambda: [m for m in client.messages if "autoRecover" in m.message], what="showMessage"
    )
    assert msgs[0].type == T.MessageType.Warning and "keeping False" in msgs[0].message


async def test_initialization_options_and_configuration_are_merged(client: LanguageClient):
    await until(lambda: client.registered.is_set())  # type: ignore[attr-defined]
    (reg,) = client.registrations  # type: ignore[attr-defined]
    assert [w["globPattern"]["pattern"] for w in reg.register_options["watchers"]] == [
        "logs/*.log",
        "**/*",  # deletions (a deleted file's failures are cleared)
    ]
    result = await command(client, "faultlens.run", {"name": "show"})
    assert result["failures"] == 1


async def test_configuration_changes_apply_at_runtime(client: LanguageClient):
    # the first registration (made after `initialized`) is not the one awaited below
    await until(lambda: client.registrations, what="the first registration")  # type: ignore[attr-defined]
    client.set_configuration(
        {"watchGlobs": ["out/**/*.txt"], "runCommands": {"show": "cat tsconfig.json"}},
        section="faultlens",
    )
    client.registered.clear()  # type: ignore[attr-defined]
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings=None))
    await until(lambda: client.registered.is_set(), what="re-registration")  # type: ignore[attr-defined]
    (reg,) = client.registrations  # type: ignore[attr-defined]
    assert [w["globPattern"]["pattern"] for w in reg.register_options["watchers"]] == [
        "out/**/*.txt",
        "**/*",
    ]
    result = await command(client, "faultlens.run", {"name": "show"})
    assert result["failures"] == 0  # the new command ran


async def test_settings_pushed_in_the_notification_are_used(client: LanguageClient):
    client.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(
            settings={"faultlens": {"runCommands": {"show": ["cat", "output.txt"]}}}
        )
    )
    await until(lambda: sum("settings updated" in m.message for m in client.log_messages) >= 2)
    result = await command(client, "faultlens.run", {"name": "show"})
    assert result["failures"] == 1
