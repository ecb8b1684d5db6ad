"""faultlens.showCI: a CI run's failed jobs published as diagnostics at the
lines of the workspace, each named by its job (`ci: typecheck`), with the
job and run on hover; a job that passes on the next showing is cleared.

Fixture: the checkout the job logs were captured from (tests/ci_logs), and
loopback stand-ins of the GitHub API and its log download host
(tests/ci_standin.py), whose address reaches the server through
GITHUB_API_URL as it would inside a job.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import attrs
import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient

from ..ci_standin import Answer, StandIn, git, github_run, make_checkout
from .conftest import CONFIG, TIMEOUT, code_actions, command, start, stop, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
RUN_URL = "https://github.com/acme/shop/actions/runs/77"
TOKEN = "ghp_editorSTANDIN0123456789abcdefABCDEF"


@attrs.define
class _WithStandIns(ClientServerConfig):
    """The server started with GITHUB_API_URL naming stand-ins started first
    (pytest-lsp starts the server before the fixture's own arguments)."""

    apis: list[StandIn] = attrs.field(factory=list)

    async def start(self, devtools: str | None = None) -> Any:
        self.apis[:] = [StandIn().start(), StandIn().start()]
        self.server_env = {**os.environ, "GITHUB_API_URL": self.apis[0].url, "GITHUB_TOKEN": TOKEN}
        return await super().start(devtools)


CI_CONFIG = _WithStandIns(
    server_command=CONFIG.server_command, client_factory=CONFIG.client_factory
)


@pytest.fixture(scope="module")
def apis() -> tuple[StandIn, StandIn]:
    api, downloads = CI_CONFIG.apis
    return api, downloads


@pytest_lsp.fixture(scope="module", config=CI_CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = make_checkout(tmp_path_factory.mktemp("ci"))
    lsp_client.root = root  # type: ignore[attr-defined]
    github_run(*CI_CONFIG.apis, sha=git(root, "rev-parse", "HEAD"))
    await start(lsp_client, root)
    yield
    await stop(lsp_client)
    for s in CI_CONFIG.apis:
        s.stop()


def _ci_diagnostics(client: LanguageClient, rel: str) -> list[T.Diagnostic]:
    root = client.root  # type: ignore[attr-defined]
    found = client.diagnostics.get(uri(root / rel), [])
    return [d for d in found if (d.source or "").startswith("ci: ")]


async def test_show_ci_publishes_each_failed_jobs_failures_named_by_the_job(
    client: LanguageClient,
) -> None:
    answer = await command(client, "faultlens.showCI", {"url": RUN_URL})
    (run,) = answer["runs"]
    assert {j["name"] for j in run["failedJobs"]} == {"typecheck", "lint"}
    (d,) = await until(
        lambda: _ci_diagnostics(client, "src/auth/middleware.ts"), what="the typecheck diagnostic"
    )
    assert d.source == "ci: typecheck"
    assert d.range.start.line == 41  # line 42
    assert d.code == "compile" and d.message.startswith("Cannot find name 'UserProfile'.")
    assert "[ci:" not in d.message  # the source names the job already
    (lint,) = await until(lambda: _ci_diagnostics(client, "src/util.js"), what="the lint one")
    assert lint.source == "ci: lint" and lint.range.start.line == 2


async def test_the_hover_names_the_job_and_the_run_with_links(client: LanguageClient) -> None:
    root = client.root  # type: ignore[attr-defined]
    (d,) = await until(lambda: _ci_diagnostics(client, "src/auth/middleware.ts"))
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            T.HoverParams(
                text_document=T.TextDocumentIdentifier(uri=uri(root / "src/auth/middleware.ts")),
                position=d.range.start,
            )
        ),
        TIMEOUT,
    )
    assert hover is not None
    text = hover.contents.value  # type: ignore[union-attr]
    assert text.startswith(
        "**CI job [typecheck](https://github.com/acme/shop/actions/runs/77/job/901)**"
    )
    assert "[CI #77](https://github.com/acme/shop/actions/runs/77)" in text
    assert TOKEN not in text


async def test_a_ci_failure_gets_the_quick_fix_a_local_one_would(client: LanguageClient) -> None:
    root = client.root  # type: ignore[attr-defined]
    (d,) = await until(lambda: _ci_diagnostics(client, "src/auth/middleware.ts"))
    actions = await code_actions(client, root / "src/auth/middleware.ts", d.range, [d])
    assert any("UserProfile" in a.title and "./profile" in a.title for a in actions), [
        a.title for a in actions
    ]


async def test_a_job_that_passes_on_the_next_showing_is_cleared(
    client: LanguageClient, apis: tuple[StandIn, StandIn]
) -> None:
    api, _ = apis
    route = api.routes[("GET", "/repos/acme/shop/actions/runs/77/jobs")]
    assert isinstance(route, Answer)
    jobs = [dict(j) for j in route.body["jobs"]]
    jobs[1]["conclusion"] = "success"  # lint passes now
    api.routes[("GET", "/repos/acme/shop/actions/runs/77/jobs")] = Answer(
        body={"total_count": 3, "jobs": jobs}
    )
    await command(client, "faultlens.showCI", {"url": RUN_URL})
    await until(
        lambda: not _ci_diagnostics(client, "src/util.js"), what="lint's diagnostic cleared"
    )
    assert _ci_diagnostics(client, "src/auth/middleware.ts")


async def test_a_service_error_is_an_answer_and_a_message_not_a_crash(
    client: LanguageClient,
) -> None:
    answer = await command(
        client, "faultlens.showCI", {"url": "https://github.com/acme/shop/actions/runs/404"}
    )
    assert answer["runs"] == [] and "404" in answer["error"]
    assert TOKEN not in answer["error"]
