"""Robustness: malformed requests get an error and the server keeps serving;
a bad notification is logged; classifying a large output does not hold up a hover.

Fixture: tests/samples/typescript/tsc-plain-ts2304 (its real tsc output, the
large input is that output's line repeated among filler build lines).
"""

from __future__ import annotations

import pytest
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import TS2304 as SAMPLE
from .conftest import hover, raw_request, request, served, until

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = served(ingest={"task": "small"})


async def hover_on_the_failure(client: LanguageClient) -> T.Hover | None:
    return await hover(client, 41, 16)


async def test_a_malformed_request_gets_an_error_and_the_server_goes_on(client: LanguageClient):
    with pytest.raises(JsonRpcException):
        await raw_request(
            client, T.TEXT_DOCUMENT_HOVER, {"textDocument": {"uri": 5}, "position": "x"}
        )
    with pytest.raises(JsonRpcException):
        await raw_request(client, T.WORKSPACE_EXECUTE_COMMAND, {"command": ["not", "a", "string"]})
    with pytest.raises(JsonRpcException):
        await request(client, "faultlens/noSuchRequest", {})
    assert await hover_on_the_failure(client) is not None


async def test_a_malformed_notification_is_logged_and_ignored(client: LanguageClient):
    client.protocol.notify("faultlens/ingest", {"output": 42})
    await until(
        lambda: any("faultlens/ingest failed" in m.message for m in client.log_messages),
        what="logMessage",
    )
    assert await hover_on_the_failure(client) is not None


async def test_hover_is_answered_while_a_large_output_is_still_being_classified(
    client: LanguageClient,
):
    """Classification runs off the event loop: hovers sent right after a large
    ingest are answered before that ingest's classification is done (an order
    of events, not a timing)."""
    line = (SAMPLE / "output.txt").read_text().splitlines()[0]
    filler = "".join(f"[build] compiling module {i} of 1000000\n" for i in range(1_000_000))
    big = filler + line + "\n"
    assert len(big) > 30_000_000

    def classified() -> list[object]:
        return [m for m in client.log_messages if m.message.startswith("faultlens: big:")]

    client.protocol.notify("faultlens/ingest", {"output": big, "task": "big"})
    for _ in range(3):
        assert await hover_on_the_failure(client) is not None
        assert not classified(), "a hover waited for the classification of the big output"
    done = await until(classified, timeout=120, what="big classified")
    assert "1 failure(s)" in done[0].message  # type: ignore[attr-defined]
