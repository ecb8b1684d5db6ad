"""The server offers "revert the fix" when an applied fix fails verification:
in the escalation prompt (window/showMessageRequest) and as a code action on
the failure, and `faultlens.revertFix` restores the file byte for byte.

Fixture: a small Python project built here (shop/cart.py uses Money without
importing it; the import the recipe adds pulls in shop/money.py, which is
broken itself), run with the real pytest through `faultlens.run`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from ..test_revert import CART_CRLF, MONEY, TEST_CART
from .conftest import CONFIG, code_actions, command, logs, start, stop, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("ws") / "proj"
    (root / "shop").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "money.py").write_text(MONEY)
    (root / "shop" / "cart.py").write_bytes(CART_CRLF)
    (root / "tests" / "test_cart.py").write_text(TEST_CART)
    lsp_client.root = root  # type: ignore[attr-defined]
    lsp_client.answer = "revert"  # type: ignore[attr-defined]
    old = os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the project's pytest, bare
    try:
        await start(lsp_client, root)
        yield
        await stop(lsp_client)
    finally:
        if old is None:
            os.environ.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
        else:
            os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = old


@pytest.mark.real_tool
async def test_a_failed_fix_is_offered_for_revert_and_reverted_byte_for_byte(
    client: LanguageClient,
):
    root: Path = client.root  # type: ignore[attr-defined]
    cart = root / "shop" / "cart.py"
    await command(client, "faultlens.run", {"command": PYTEST}, timeout=120)
    (d,) = await until(lambda: client.diagnostics.get(uri(cart)), what="the NameError")
    (fix,) = [a for a in await code_actions(client, cart, d.range, [d]) if "Money" in a.title]

    result = await command(
        client, "faultlens.applyRecipe", {"failureId": fix.data["failureId"]}, timeout=120
    )

    assert result["result"] == "escalated"  # the import pulls in a broken module
    prompt = await until(lambda: client.message_requests, what="the escalation prompt")  # type: ignore[attr-defined]
    assert any("[revert " in item.title for item in prompt[-1].actions)
    await until(lambda: "reverted the fix" in logs(client), what="the revert")
    assert cart.read_bytes() == CART_CRLF
