"""At start-up the server tells the client, with `faultlens/ciFailed`, that
the branch's last CI run failed (one call to the GitHub API stand-in named
by GITHUB_API_URL, only the branch's runs: no jobs, no logs), so that the
editor offers "Show CI Failures"; `initialize` does not wait for it."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import attrs
import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from ..ci_standin import Answer, StandIn, git, make_checkout
from .conftest import CONFIG, logs, start, stop, until

pytestmark = pytest.mark.asyncio(loop_scope="module")
TOKEN = "ghp_offerSTANDIN0123456789abcdefABCDEF"
RUNS = "/repos/acme/shop/actions/runs"


def _client() -> LanguageClient:
    client = CONFIG.client_factory()
    client.ci_failed = []  # type: ignore[attr-defined]

    @client.feature("faultlens/ciFailed")
    def on_ci_failed(ls: LanguageClient, params: Any) -> None:
        ls.ci_failed.append(params)  # type: ignore[attr-defined]

    return client


def _plain(value: Any) -> Any:
    """pygls gives an unknown notification's params as named tuples."""
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@attrs.define
class _WithStandIn(ClientServerConfig):
    api: StandIn | None = None

    async def start(self, devtools: str | None = None) -> Any:
        self.api = StandIn().start()
        cache = tempfile.mkdtemp(prefix="faultlens-offer-cache-")  # no answer kept from before
        self.server_env = {
            **os.environ,
            "GITHUB_API_URL": self.api.url,
            "GITHUB_TOKEN": TOKEN,
            "XDG_CACHE_HOME": cache,
        }
        return await super().start(devtools)


OFFER = _WithStandIn(server_command=CONFIG.server_command, client_factory=_client)


@pytest_lsp.fixture(scope="module", config=OFFER)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = make_checkout(tmp_path_factory.mktemp("offer"))
    assert OFFER.api is not None
    OFFER.api.routes[("GET", RUNS)] = Answer(
        body={
            "total_count": 1,
            "workflow_runs": [
                {
                    "id": 77,
                    "name": "CI",
                    "head_sha": git(root, "rev-parse", "HEAD"),
                    "head_branch": "feature/auth",
                    "status": "completed",
                    "conclusion": "failure",
                    "html_url": "https://github.com/acme/shop/actions/runs/77",
                }
            ],
        }
    )
    await start(lsp_client, root)
    yield
    await stop(lsp_client)
    OFFER.api.stop()


async def test_a_failed_last_run_of_the_branch_is_told_to_the_client(
    client: LanguageClient,
) -> None:
    (params,) = await until(lambda: client.ci_failed, what="faultlens/ciFailed")  # type: ignore[attr-defined]
    data = _plain(params)
    runs = data["runs"]
    assert data["branch"] == "feature/auth" and data["project"] == "acme/shop"
    assert [r["url"] for r in runs] == ["https://github.com/acme/shop/actions/runs/77"]
    assert runs[0]["conclusion"] == "failure"
    assert "faultlens: CI: the last run of feature/auth failed (CI)" in logs(client)
    assert OFFER.api is not None
    (call,) = OFFER.api.seen  # one call: the branch's runs, no jobs, no logs
    assert call.path == RUNS and call.query["branch"] == ["feature/auth"]
    assert TOKEN not in logs(client)
