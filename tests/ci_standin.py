"""Local stand-ins of the GitHub and GitLab REST APIs, on loopback, for the
`faultlens ci` tests: the documented shapes (a run, its jobs page by page,
the log's 302 to a download host, errors, comments), every request
recorded with its headers so a test can check what was asked and sent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

LOGS = Path(__file__).parent / "ci_logs"


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any = None


@dataclass
class Answer:
    status: int = 200
    body: Any = None  # JSON data, or bytes sent as they are
    headers: dict[str, str] = field(default_factory=dict)


Route = Callable[[Seen], Answer | None]


class StandIn:
    """One HTTP server; `routes` maps (method, path) to a handler or answer."""

    def __init__(self) -> None:
        self.seen: list[Seen] = []
        self.routes: dict[tuple[str, str], Route | Answer] = {}
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                seen = Seen(
                    self.command,
                    parts.path,
                    parse_qs(parts.query),
                    {k.lower(): v for k, v in self.headers.items()},
                    json.loads(raw) if raw else None,
                )
                owner.seen.append(seen)
                route = owner.routes.get((self.command, parts.path))
                answer = route(seen) if callable(route) else route
                if answer is None:
                    answer = Answer(404, {"message": "Not Found"})
                data = answer.body
                payload = data if isinstance(data, bytes) else json.dumps(data).encode()
                self.send_response(answer.status)
                for k, v in answer.headers.items():
                    self.send_header(k, v)
                if not isinstance(data, bytes):
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PATCH = do_PUT = _serve

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> StandIn:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def requests(self, path_part: str) -> list[Seen]:
        return [s for s in self.seen if path_part in s.path]


@contextmanager
def serving() -> Iterator[StandIn]:
    s = StandIn().start()
    try:
        yield s
    finally:
        s.stop()


def github_run(api: StandIn, downloads: StandIn, *, run_id: int = 77, sha: str) -> None:
    """acme/shop's run `run_id`: typecheck and lint failed, build passed; the
    logs behind a redirect to the download host, with a signed query."""
    repo = "/repos/acme/shop"
    api.routes[("GET", f"{repo}/actions/runs/{run_id}")] = Answer(
        body={
            "id": run_id,
            "name": "CI",
            "head_sha": sha,
            "head_branch": "feature/auth",
            "status": "completed",
            "conclusion": "failure",
            "html_url": f"https://github.com/acme/shop/actions/runs/{run_id}",
            "pull_requests": [{"number": 12, "url": "x"}],
        }
    )
    jobs = [
        _gh_job(901, "typecheck", "failure", run_id, "Run tsc -p . --pretty false"),
        _gh_job(902, "lint", "failure", run_id, "Run eslint"),
        _gh_job(903, "build", "success", run_id, None),
    ]
    api.routes[("GET", f"{repo}/actions/runs/{run_id}/jobs")] = Answer(
        body={"total_count": len(jobs), "jobs": jobs}
    )
    for ident, log in ((901, "typecheck.log"), (902, "lint.log"), (903, "build.log")):
        api.routes[("GET", f"{repo}/actions/jobs/{ident}/logs")] = Answer(
            302, b"", {"Location": f"{downloads.url}/logs/{ident}?sig=s3cr3t-download-signature"}
        )
        downloads.routes[("GET", f"/logs/{ident}")] = Answer(body=(LOGS / log).read_bytes())


def listed_runs(api: StandIn, *more: dict[str, Any]) -> None:
    """The runs listing (of a branch or a commit, newest first): the run
    `github_run` made, then a copy of it with each of `more`'s changes."""
    run = api.routes[("GET", "/repos/acme/shop/actions/runs/77")]
    assert isinstance(run, Answer)
    runs = [run.body, *({**run.body, **changes} for changes in more)]
    api.routes[("GET", "/repos/acme/shop/actions/runs")] = Answer(
        body={"total_count": len(runs), "workflow_runs": runs}
    )


def _gh_job(
    ident: int, name: str, conclusion: str, run_id: int, step: str | None
) -> dict[str, Any]:
    steps = [{"name": "Set up job", "number": 1, "conclusion": "success"}]
    if step:
        steps.append({"name": step, "number": 2, "conclusion": "failure"})
    return {
        "id": ident,
        "run_id": run_id,
        "name": name,
        "status": "completed",
        "conclusion": conclusion,
        "html_url": f"https://github.com/acme/shop/actions/runs/{run_id}/job/{ident}",
        "steps": steps,
    }


def gitlab_pipeline(api: StandIn, sha: str) -> None:
    """group/shop's pipeline 5 behind `{api.url}/api/v4`: typecheck failed (its
    trace the tsc log), docs failed but may, build passed."""
    base = "/api/v4/projects/group%2Fshop"
    web = "https://gitlab.example.com/group/shop/-"
    api.routes[("GET", f"{base}/pipelines/5")] = Answer(
        body={
            "id": 5,
            "sha": sha,
            "ref": "feature/auth",
            "status": "failed",
            "web_url": f"{web}/pipelines/5",
        }
    )
    jobs = [
        {"id": 31, "name": "typecheck", "status": "failed", "stage": "test"},
        {"id": 32, "name": "docs", "status": "failed", "allow_failure": True, "stage": "test"},
        {"id": 33, "name": "build", "status": "success", "stage": "build"},
    ]
    api.routes[("GET", f"{base}/pipelines/5/jobs")] = Answer(
        body=[{**j, "web_url": f"{web}/jobs/{j['id']}"} for j in jobs]
    )
    api.routes[("GET", f"{base}/jobs/31/trace")] = Answer(
        body=(LOGS / "typecheck.log").read_bytes()
    )


def comment_thread(
    api: StandIn, listing: str, edit_method: str, edit_prefix: str, ident: int = 555
) -> list[dict[str, Any]]:
    """A pull request's comments (GitHub) or a merge request's notes (GitLab):
    listed at `listing`, added by POST there, edited by `edit_method` at
    `edit_prefix/ID`.  The list returned is the thread as the service holds it."""
    comments: list[dict[str, Any]] = []

    def post(seen: Seen) -> Answer:
        comments.append({"id": ident + len(comments), "body": seen.body["body"]})
        return Answer(201, comments[-1])

    def edit(seen: Seen) -> Answer:
        want = int(seen.path.rsplit("/", 1)[1])
        for c in comments:
            if c["id"] == want:
                c["body"] = seen.body["body"]
                return Answer(body=c)
        return Answer(404, {"message": "Not Found"})

    api.routes[("GET", listing)] = lambda _: Answer(body=comments)
    api.routes[("POST", listing)] = post
    api.routes[(edit_method, f"{edit_prefix}/{ident}")] = edit  # the first one added
    return comments


GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, check=True,
        capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip


def make_checkout(parent: Path) -> Path:
    """The project the job logs were made from, committed on feature/auth
    with acme/shop as its origin: HEAD is the run's commit."""
    repo = parent / "shop"
    shutil.copytree(LOGS / "shop", repo)
    git(repo, "init", "-q", "-b", "feature/auth")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "auth")
    git(repo, "remote", "add", "origin", "https://github.com/acme/shop.git")
    return repo


def api_env(api: StandIn, token: str, **extra: str) -> dict[str, str]:
    """The environment of a `faultlens ci` pointed at the stand-in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "GITLAB"))}
    return {**env, "GITHUB_API_URL": api.url, "GITHUB_TOKEN": token, **extra}
