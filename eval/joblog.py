"""Run a job's steps here as a CI runner runs them, and write the job log the
runner would: the CI job-log cases of eval/cases/ci/ are made with it.

    python -m eval.joblog JOB.json OUT_DIR

JOB.json: {"format": "github" | "gitlab", "job": "<job name>", "cwd": "<dir>",
"steps": [...], "image": "<image>" (GitLab: the docker executor's form), "cancel_after_seconds": N or "shutdown_after_seconds": N
(optional: the job cancelled, or the runner service stopped, N s in),
"workspace": "<path>" (optional: where the runner would have checked the
project out; by default GitHub's /home/runner/work/NAME/NAME and GitLab's
/builds/ci/NAME, NAME the cwd's folder)}; a step is
{"run": "<script>", "name": ..., "env": {...}, "timeout_minutes": M} or
{"uses": "actions/checkout", "repository": "<owner/name>", "mirror":
"<git dir>", "ref": "<branch or tag>"}.  Writes OUT_DIR/output.txt (the log,
byte for byte, but with the cwd written as the runner's workspace, so a log
made here names no folder of this machine) and OUT_DIR/job.json (the job,
its steps' exit codes, the job's result).

The runner's strings are its own, read from its source (the docstrings of the
writers name the files); the tools' output is what they printed here.  Each
script runs in `bash -e {0}` (the runner's default shell), in its own process
group, with stdout and stderr in one pipe; a step over its time limit or a
cancelled job is stopped as the runner's ProcessInvoker stops it (SIGINT,
7.5 s, SIGTERM, 2.5 s, SIGKILL).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

GITHUB_RUNNER_VERSION = "2.336.0"  # actions/runner src/runnerversion at 258d6c8
CHECKOUT_SHA = "f548e57e544e1ff5a4c46bf1e1b8685f8e4a348a"  # actions/checkout fetched here
GITLAB_RUNNER_VERSION = "19.4.0 (d79f3e7b)"  # gitlab-runner VERSION at d79f3e7b

RUNNER_SHUTDOWN = (
    "The runner has received a shutdown signal. This can happen when the runner service is "
    "stopped, or a manually started runner is canceled."
)
SIGINT_WAIT, SIGTERM_WAIT = 7.5, 2.5  # actions/runner src/Runner.Sdk/ProcessInvoker.cs


@dataclass
class Step:
    run: str | None = None
    name: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    timeout_minutes: float | None = None
    shell: str | None = None  # None: the runner's default (bash -e {0}); "bash": its bash
    working_directory: str | None = None
    uses: str | None = None
    repository: str = ""
    mirror: str = ""
    ref: str = ""

    @property
    def display(self) -> str:
        if self.name:
            return self.name
        if self.uses:
            return f"Run {self.uses}"
        first = (self.run or "").strip().splitlines()[0]
        return f"Run {first}"


@dataclass
class Outcome:
    exit_code: int | None  # None: stopped (timed out or cancelled)
    timed_out: bool = False
    cancelled: bool = False


Emit = Callable[[bytes], None]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """The runner's ProcessInvoker cancel: SIGINT, then SIGTERM, then kill."""
    for sig, wait in ((signal.SIGINT, SIGINT_WAIT), (signal.SIGTERM, SIGTERM_WAIT)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_script(
    argv: list[str], cwd: str, env: dict[str, str], emit: Emit, deadline: float | None
) -> Outcome:
    """Run one process group, emitting each output line as it comes."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert proc.stdout is not None
    stopped = threading.Event()

    def watch() -> None:
        while proc.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                stopped.set()
                _stop(proc)
                return
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    for raw in proc.stdout:
        emit(raw.rstrip(b"\n"))
    proc.wait()
    watcher.join()
    if stopped.is_set():
        return Outcome(None)
    return Outcome(proc.returncode)


# -- GitHub Actions -------------------------------------------------------------------------


def _stamp() -> bytes:
    # Runner.Common/Logging.cs: DateTime.UtcNow.ToString("O") (7 digits of fraction)
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.%f").encode() + b"0Z "


class GithubLog:
    """actions/runner's job log: every line stamped (Logging.cs), `##[group]` and
    `##[endgroup]` (Handlers/ScriptHandler.cs PrintActionDetails), `##[error]`
    (ExecutionContext.cs), workflow commands turned into their log form."""

    def __init__(self) -> None:
        self.data = bytearray()

    def line(self, text: bytes | str) -> None:
        raw = text.encode() if isinstance(text, str) else text
        self.data += _stamp() + raw + b"\n"

    def output(self, raw: bytes) -> None:
        # workflow commands (ActionCommandManager): ::group::, ::error ...::msg
        s = raw.rstrip(b"\r")
        for cmd, form in ((b"group", b"##[group]"), (b"endgroup", b"##[endgroup]")):
            if s.startswith(b"::" + cmd + b"::"):
                self.line(form + s[len(cmd) + 4 :])
                return
        for cmd in (b"error", b"warning", b"notice"):
            if s.startswith(b"::" + cmd) and b"::" in s[2 + len(cmd) :]:
                self.line(b"##[" + cmd + b"]" + s.split(b"::", 2)[2])
                return
        self.line(raw)


def _bash() -> str:
    return "/usr/bin/bash" if Path("/usr/bin/bash").exists() else "/bin/bash"


def _checkout(step: Step, log: GithubLog, workdir: str, env: dict[str, str]) -> Outcome:
    """actions/checkout's git commands (src/git-source-provider.ts, git-command-manager.ts,
    ref-helper.ts), run for real against a local mirror of the repository."""
    git = "/usr/bin/git"
    log.line(f"##[group]Run {step.uses}")
    log.line("with:")
    for k, v in (
        ("repository", step.repository),
        ("ref", step.ref),
        ("token", "***"),
        ("ssh-strict", "true"),
        ("ssh-user", "git"),
        ("persist-credentials", "true"),
        ("clean", "true"),
        ("sparse-checkout-cone-mode", "true"),
        ("fetch-depth", "1"),
        ("fetch-tags", "false"),
        ("show-progress", "true"),
        ("lfs", "false"),
        ("submodules", "false"),
        ("set-safe-directory", "true"),
    ):
        if v:
            log.line(f"  {k}: {v}")
    log.line("##[endgroup]")
    log.line(f"Syncing repository: {step.repository}")

    def git_run(*args: str) -> int:
        log.line("[command]" + " ".join([git, *args]))
        out = run_script([git, *args], workdir, env, log.line, None)
        return out.exit_code or 0

    log.line("##[group]Getting Git version info")
    log.line(f"Working directory is '{workdir}'")
    git_run("version")
    log.line("##[endgroup]")
    log.line("##[group]Initializing the repository")
    git_run("init", workdir)
    git_run("remote", "add", "origin", f"file://{step.mirror}")
    log.line("##[endgroup]")
    log.line("##[group]Disabling automatic garbage collection")
    git_run("config", "--local", "gc.auto", "0")
    log.line("##[endgroup]")
    log.line("##[group]Fetching the repository")
    ref = step.ref
    code = git_run(
        "-c",
        "protocol.version=2",
        "fetch",
        "--no-tags",
        "--prune",
        "--no-recurse-submodules",
        "--depth=1",
        "origin",
        f"+refs/heads/{ref}*:refs/remotes/origin/{ref}*",
        f"+refs/tags/{ref}*:refs/tags/{ref}*",
    )
    log.line("##[endgroup]")
    if code:
        log.line(f"##[error]The process '{git}' failed with exit code {code}")
        return Outcome(code)
    log.line("##[group]Determining the checkout info")
    found = subprocess.run(
        [git, "rev-parse", "--verify", "-q", f"refs/remotes/origin/{ref}"],
        cwd=workdir,
        capture_output=True,
        check=False,
    )
    git_run("branch", "--list", "--remote", f"origin/{ref}")
    if found.returncode:
        git_run("tag", "--list", ref)
        log.line("##[endgroup]")
        log.line(f"##[error]A branch or tag with the name '{ref}' could not be found")
        return Outcome(1)
    log.line("##[endgroup]")
    log.line("##[group]Checking out the ref")
    git_run("checkout", "--progress", "--force", "-B", ref, f"refs/remotes/origin/{ref}")
    log.line("##[endgroup]")
    git_run("log", "-1", "--format=%H")
    return Outcome(0)


def run_github(job: dict[str, Any], steps: list[Step]) -> tuple[bytes, list[int | None], str]:
    log = GithubLog()
    cwd = str(job["cwd"])
    name = str(job.get("job", "build"))
    # Runner.Worker/JobExtension.cs: the "Set up job" step
    log.line(f"Current runner version: '{GITHUB_RUNNER_VERSION}'")
    log.line("Runner name: 'ci-eval'")
    log.line(f"Machine name: '{socket.gethostname()}'")
    log.line("Secret source: Actions")
    log.line("Prepare workflow directory")
    log.line("Prepare all required actions")  # ActionManager.cs
    log.line("Getting action download info")
    for s in steps:
        if s.uses:
            log.line(f"Download action repository '{s.uses}' (SHA:{CHECKOUT_SHA})")
    log.line(f"Complete job name: {name}")
    env = dict(os.environ, CI="true", GITHUB_ACTIONS="true", GITHUB_JOB=name)
    cancel_at = job.get("cancel_after_seconds", job.get("shutdown_after_seconds"))
    job_deadline = time.monotonic() + float(cancel_at) if cancel_at is not None else None
    codes: list[int | None] = []
    result = "succeeded"
    checkout_dir: str | None = None
    with tempfile.TemporaryDirectory(prefix="joblog-checkout-") as tmp:
        for step in steps:
            if step.uses:
                checkout_dir = tmp
                out = _checkout(step, log, tmp, env)
            else:
                out = _github_script(step, log, cwd, dict(env, **step.env), job_deadline)
            codes.append(out.exit_code)
            if out.exit_code is None:
                stopped_by_step = step.timeout_minutes is not None and not (
                    job_deadline is not None and time.monotonic() >= job_deadline
                )
                if stopped_by_step:
                    # StepsRunner.cs: the step's own timeout
                    log.line(
                        f"##[error]The action '{step.display}' has timed out after "
                        f"{step.timeout_minutes:g} minutes."
                    )
                    result = "failed"
                else:
                    if "shutdown_after_seconds" in job:
                        # JobRunner.cs: the runner service stopped (ShutdownReason.UserCancelled)
                        log.line(f"##[error]{RUNNER_SHUTDOWN}")
                    # StepsRunner.cs: ExecutionContext.Error(OperationCanceledException)
                    log.line("##[error]The operation was canceled.")
                    result = "cancelled"
                break
            if out.exit_code != 0:
                result = "failed"
                break
        # post steps (Handler.cs: "Post job cleanup."), then JobExtension.cs's finalisation
        if checkout_dir is not None:
            log.line("Post job cleanup.")
            for args in (
                ["version"],
                ["config", "--local", "--name-only", "--get-regexp", "core\\.sshCommand"],
            ):
                log.line("[command]" + " ".join(["/usr/bin/git", *args]))
                run_script(["/usr/bin/git", *args], checkout_dir, env, log.line, None)
        log.line("Cleaning up orphan processes")
    return bytes(log.data), codes, result


def _github_script(
    step: Step, log: GithubLog, cwd: str, env: dict[str, str], job_deadline: float | None
) -> Outcome:
    script = step.run or ""
    first = script.strip().splitlines()[0]
    log.line(f"##[group]Run {first}")
    for text in script.replace("\r\n", "\n").rstrip("\n").split("\n"):
        log.line(f"\x1b[36;1m{text}\x1b[0m")
    # ScriptHandlerHelpers.cs: bash's own arguments when the step names bash
    args = ["--noprofile", "--norc", "-e", "-o", "pipefail"] if step.shell == "bash" else ["-e"]
    log.line(f"shell: {_bash()} {' '.join(args)} {{0}}")
    if step.env:
        log.line("env:")
        for k, v in step.env.items():
            log.line(f"  {k}: {v}")
    log.line("##[endgroup]")
    deadline = job_deadline
    if step.timeout_minutes is not None:
        own = time.monotonic() + 60 * step.timeout_minutes
        deadline = own if deadline is None else min(own, deadline)
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
        f.write(script)
    try:
        where = os.path.join(cwd, step.working_directory) if step.working_directory else cwd
        out = run_script([_bash(), *args, f.name], where, env, log.output, deadline)
    finally:
        os.unlink(f.name)
    if out.exit_code not in (0, None):
        # Handlers/ScriptHandler.cs
        log.line(f"##[error]Process completed with exit code {out.exit_code}.")
    return out


# -- GitLab CI ------------------------------------------------------------------------------

ESC = "\x1b"
BOLD_RED, BOLD_GREEN, BOLD_CYAN = f"{ESC}[31;1m", f"{ESC}[32;1m", f"{ESC}[36;1m"
RESET, CLEAR = f"{ESC}[0;m", f"{ESC}[0K"  # gitlab-runner helpers/ansi_colors.go


class GitlabLog:
    """gitlab-runner's job trace: sections (helpers/build_section.go), stage
    headings (common/build.go GetStageDescription), the script's `$ cmd` echo,
    the closing `Job succeeded` / `ERROR: Job failed: ...` (common/build.go
    setTraceStatus, buildlogger/internal/tee.go)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def raw(self, text: str | bytes) -> None:
        self.data += text.encode() if isinstance(text, str) else text

    def out(self, line: bytes) -> None:
        self.data += line + b"\n"

    @contextmanager
    def section(self, name: str, heading: str) -> Iterator[None]:
        self.raw(
            f"section_start:{int(time.time())}:{name}\r{CLEAR}{CLEAR}{BOLD_CYAN}{heading}{RESET}\n{RESET}"
        )
        yield
        self.raw(f"section_end:{int(time.time())}:{name}\r{CLEAR}")


def run_gitlab(job: dict[str, Any], steps: list[Step]) -> tuple[bytes, list[int | None], str]:
    log = GitlabLog()
    cwd = str(job["cwd"])
    host = socket.gethostname()
    log.raw(f"{CLEAR}Running with gitlab-runner {GITLAB_RUNNER_VERSION}\n{RESET}")
    log.raw(f"{CLEAR}  on ci-eval t3_Ab12C, system ID: s_0123456789ab\n{RESET}")
    image = job.get("image")
    if image:  # the docker executor's form (the script is run here, not in the image)
        with log.section("prepare_executor", 'Preparing the "docker" executor'):
            log.raw(f"{CLEAR}Using Docker executor with image {image} ...\n{RESET}")
    else:
        with log.section("prepare_executor", 'Preparing the "shell" executor'):
            log.raw(f"{CLEAR}Using Shell (bash) executor...\n{RESET}")
    with log.section("prepare_script", "Preparing environment"):
        log.raw(f"Running on {host}...\n")
    env = dict(os.environ, CI="true", GITLAB_CI="true")
    codes: list[int | None] = []
    cancel_at = job.get("cancel_after_seconds")
    deadline = time.monotonic() + float(cancel_at) if cancel_at is not None else None
    timeout = job.get("timeout")
    failure = ""
    with log.section("step_script", 'Executing "step_script" stage of the job script'):
        for step in steps:
            script = step.run or ""
            log.raw(f"{BOLD_GREEN}$ {script}{RESET}\n")
            out = run_script(
                [_bash(), "-eo", "pipefail", "-c", script], cwd, env, log.out, deadline
            )
            codes.append(out.exit_code)
            if out.exit_code is None:
                if timeout:
                    failure = f"execution took longer than {timeout} seconds"
                else:
                    log.raw(f"{ESC}[0;33mWARNING: script canceled externally (UI, API)\n{RESET}")
                    failure = "canceled"
                break
            if out.exit_code:
                # executors/docker/steps.go: "exit code N"; executors/shell/shell.go: the
                # exec.ExitError as it is, "exit status N"
                failure = f"exit {'code' if image else 'status'} {out.exit_code}"
                break
    with log.section(
        "cleanup_file_variables", "Cleaning up project directory and file based variables"
    ):
        pass
    if failure:
        log.raw(f"{BOLD_RED}ERROR: Job failed: {failure}\n{RESET}\n")
    else:
        log.raw(f"{BOLD_GREEN}Job succeeded\n{RESET}\n")
    return bytes(log.data), codes, "failed" if failure else "succeeded"


def workspace(job: dict[str, Any]) -> str:
    """Where the runner checks the job's project out (its cwd's stand-in)."""
    if job.get("workspace"):
        return str(job["workspace"])
    name = Path(str(job["cwd"])).name
    return (
        f"/builds/ci/{name}"
        if job.get("format") == "gitlab"
        else f"/home/runner/work/{name}/{name}"
    )


def relocate(data: bytes, cwd: str, runner_workspace: str) -> bytes:
    """The log with the folder the steps ran in here, as given or as its real
    path, written as the runner's workspace (the only bytes changed): whole
    names only (`/w/mux` is not the start of `/w/muxer`), the longer form
    first (one may be the other's prefix)."""
    forms = {cwd.rstrip("/"), os.path.realpath(cwd).rstrip("/")}
    new = runner_workspace.encode()
    for form in sorted(forms, key=len, reverse=True):
        data = re.sub(re.escape(form.encode()) + rb"(?![\w.-])", lambda _: new, data)
    return data


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m eval.joblog JOB.json OUT_DIR", file=sys.stderr)
        return 2
    job = json.loads(Path(args[0]).read_text())
    steps = [Step(**s) for s in job["steps"]]
    runner = run_gitlab if job.get("format") == "gitlab" else run_github
    data, codes, result = runner(job, steps)
    data = relocate(data, str(job["cwd"]), workspace(job))
    out = Path(args[1])
    out.mkdir(parents=True, exist_ok=True)
    (out / "output.txt").write_bytes(data)
    (out / "job.json").write_text(
        json.dumps({"job": job, "exit_codes": codes, "result": result}, indent=2) + "\n"
    )
    print(f"{out}: {result}, step exit codes {codes}, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
