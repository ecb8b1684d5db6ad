"""The shipped broken example, end to end: run its build, fix the compile error
with the quick fix, re-run, and see the unrecovered test failure escalated.

Fixture: examples/broken-app (its `python -m unittest` prints a NameError,
compile and fixable, and a failing assertion, a real test failure), copied to
a temp workspace.
"""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from .conftest import CONFIG, EXAMPLES, code_actions, command, start, stop, until, uri, workspace

pytestmark = pytest.mark.asyncio(loop_scope="module")
EXAMPLE = EXAMPLES / "broken-app"
BUILD = [sys.executable, "-m", "unittest"]


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = workspace(lsp_client, tmp_path_factory, EXAMPLE, "broken-app")
    lsp_client.answer = None  # type: ignore[attr-defined]
    await start(lsp_client, root)
    yield
    await stop(lsp_client)


def diags(client: LanguageClient, rel: str) -> list[T.Diagnostic]:
    return list(client.diagnostics.get(uri(client.root / rel), []))  # type: ignore[attr-defined]


async def actions_at(client: LanguageClient, rel: str, d: T.Diagnostic) -> list[T.CodeAction]:
    return await code_actions(client, client.root / rel, d.range, [d])  # type: ignore[attr-defined]


async def test_the_build_gives_diagnostics_at_the_right_lines(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    result = await command(client, "faultlens.run", {"command": BUILD})
    assert result["exitCode"] == 1 and result["failures"] == 2
    (compile_,) = diags(client, "shop/cart.py")
    lines = (root / "shop/cart.py").read_text().splitlines()
    assert compile_.code == "compile" and "NameError" in compile_.message
    assert "Money" in lines[compile_.range.start.line]
    (test,) = diags(client, "tests/test_pricing.py")
    assert test.code == "test"
    assert (
        "assertEqual"
        in (root / "tests/test_pricing.py").read_text().splitlines()[test.range.start.line]
    )


async def test_the_compile_quick_fix_edits_the_file_and_a_rerun_clears_it(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    (d,) = diags(client, "shop/cart.py")
    (fix,) = [a for a in await actions_at(client, "shop/cart.py", d) if "Import Money" in a.title]
    assert fix.title == "faultlens: Import Money from shop.money"
    assert fix.kind == T.CodeActionKind.QuickFix and fix.is_preferred and fix.edit is None
    result = await command(client, "faultlens.applyRecipe", {"failureId": d.data["id"]})
    assert result["result"] == "recovered", result
    assert "from shop.money import Money" in (root / "shop/cart.py").read_text()
    assert client.applied_edits  # type: ignore[attr-defined]  # through workspace/applyEdit
    await until(lambda: not diags(client, "shop/cart.py"), what="cart diagnostic cleared")
    rerun = await command(client, "faultlens.run", {"command": BUILD})
    assert rerun["failures"] == 1
    assert not diags(client, "shop/cart.py") and diags(client, "tests/test_pricing.py")


async def test_an_unrecovered_failure_is_escalated_and_the_user_is_asked(client: LanguageClient):
    (d,) = diags(client, "tests/test_pricing.py")
    (rerun,) = [
        a
        for a in await actions_at(client, "tests/test_pricing.py", d)
        if a.title.startswith("faultlens: Re-run")
    ]
    assert rerun.disabled is None
    result = await command(client, "faultlens.applyRecipe", {"failureId": d.data["id"]})
    assert result["result"] == "escalated"
    ask = await until(lambda: client.message_requests, what="showMessageRequest")  # type: ignore[attr-defined]
    titles = [a.title for a in ask[0].actions]
    assert any("retry" in t for t in titles) and any("skip" in t for t in titles)
    assert any("stop" in t for t in titles)


async def test_a_second_attempt_is_offered_disabled_with_the_reason(client: LanguageClient):
    (d,) = await until(lambda: diags(client, "tests/test_pricing.py"))
    acts = await actions_at(client, "tests/test_pricing.py", d)
    (rerun,) = [a for a in acts if a.title.startswith("faultlens: Re-run")]
    assert rerun.disabled is not None and rerun.disabled.reason
    titles = [a.title for a in acts]
    assert any(
        t.startswith("faultlens: retry task") and "(0 of 2 retries used)" in t for t in titles
    )
    assert any(t.startswith("faultlens: skip task") for t in titles)
    assert any(t.startswith("faultlens: stop") for t in titles)


async def test_hover_shows_the_escalation_box(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    (d,) = diags(client, "tests/test_pricing.py")
    hover = await client.text_document_hover_async(
        T.HoverParams(
            text_document=T.TextDocumentIdentifier(uri=uri(root / "tests/test_pricing.py")),
            position=d.range.start,
        )
    )
    assert hover is not None and isinstance(hover.contents, T.MarkupContent)
    text = hover.contents.value
    assert "test" in text and "blocking" in text and "AssertionError" in text
    assert "Attempts so far: 1" in text
    assert "╔" in text and "ERROR: " in text and "╚" in text
