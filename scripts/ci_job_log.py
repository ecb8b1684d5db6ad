#!/usr/bin/env python3
"""Run shell steps and write their real output as a CI runner's job log.

    scripts/ci_job_log.py github|gitlab|buildkite [--pass] STEP [STEP...]

Each STEP is a shell script run as the runner runs it (`bash -e SCRIPT`, in
the working directory, output and errors merged); its output is wrapped
the way the runner's own source writes a job log, so samples of job logs
hold real tool output in the runner's real frame:

* github (actions/runner `Handlers/ScriptHandler.cs`, `Common/Logging.cs`,
  `Worker/JobExtension.cs`): every line stamped with `DateTime.UtcNow
  .ToString("O")`, `##[group]Run <first line>`, the script in cyan,
  `shell: /usr/bin/bash -e {0}`, `##[endgroup]`, the output, and for a
  failed step `##[error]Process completed with exit code N.`; later steps
  are skipped; `Cleaning up orphan processes` ends the job.
* gitlab (gitlab-runner `shells/bash.go`, `common/build.go`,
  `common/buildlogger/internal/tee.go`): the `step_script` section
  (`section_start:TS:step_script\\r\\e[0K…`), each step as `$ <script>` in
  green, the cleanup section, then `Job succeeded` or
  `ERROR: Job failed: exit code N`.
* buildkite (buildkite/agent `internal/shell/logger.go`,
  `internal/job/executor.go`): `~~~ Running commands`, `$ <script>`, and
  for a failed command `^^^ +++` then `🚨 Error: The command exited with
  status N`, every line led by the agent's `ESC _bk;t=<ms> BEL` timestamp.

`--pass` runs every step even after one failed (GitHub's `if: always()`).
`--stop timeout|cancel|shutdown:SECONDS` stops the step still running after
SECONDS (its process group stopped as the runner's ProcessInvoker stops
it: SIGINT, 7.5 s, SIGTERM, 2.5 s, SIGKILL) and writes what the runner writes then:
github `##[error]The action 'Run …' has timed out after M minutes.`
(StepsRunner.cs, M = SECONDS/60), `##[error]The operation was canceled.`
(the step's OperationCanceledException), `##[error]The runner has received
a shutdown signal. …` (JobRunner.cs) before the cancel; gitlab `ERROR: Job
failed: execution took longer than Ns seconds` / `ERROR: Job failed:
canceled` (common/build.go).
Exits with the job's status.  Every step's process group is reaped.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import subprocess
import sys
import tempfile
import time

TIMEOUT = 600


STOPPED = -1000  # run_step's status for a step stopped by --stop


# actions/runner src/Runner.Sdk/ProcessInvoker.cs: a cancelled or timed-out
# step's process group gets SIGINT, then SIGTERM, then is killed
SIGINT_WAIT, SIGTERM_WAIT = 7.5, 2.5


def _stop(proc: subprocess.Popen[bytes]) -> bytes:
    """Stop a step as the runner does; what it printed, to the end."""
    for sig, wait in ((signal.SIGINT, SIGINT_WAIT), (signal.SIGTERM, SIGTERM_WAIT)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            out, _ = proc.communicate(timeout=wait)
            return out
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate()
    return out


def run_step(script: str, limit: float = TIMEOUT) -> tuple[int, list[str]]:
    """Run one step as the runners do (a script file, `bash -e`): its status
    and lines (STOPPED when it ran past `limit` seconds and was killed)."""
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
        f.write(script + "\n")
        path = f.name
    try:
        proc = subprocess.Popen(
            ["bash", "-e", path],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        stopped = False
        try:
            out, _ = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            out = _stop(proc)
            stopped = True
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            else:  # whatever the step left behind in its group
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
    finally:
        os.unlink(path)
    text = out.decode("utf-8", "replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return (STOPPED if stopped else proc.returncode), lines


def stamp() -> str:
    """DateTime.UtcNow.ToString("O"): seven digits of fractional seconds."""
    now = dt.datetime.now(dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond:06d}0Z"


def github(steps: list[str], keep_going: bool, out: list[str], stop: tuple[str, float]) -> int:
    how, limit = stop
    status = 0
    for script in steps:
        if status and not keep_going:
            break
        first = script.lstrip(" \t\r\n").splitlines()[0]
        out.append(f"{stamp()} ##[group]Run {first}")
        out.extend(f"{stamp()} \x1b[36;1m{line}\x1b[0m" for line in script.rstrip("\n").split("\n"))
        out.append(f"{stamp()} shell: /usr/bin/bash -e {{0}}")
        out.append(f"{stamp()} ##[endgroup]")
        code, lines = run_step(script, limit)
        out.extend(f"{stamp()} {line}" for line in lines)
        if code == STOPPED:
            if how == "timeout":
                minutes = f"{limit / 60:g}"
                msg = f"The action 'Run {first}' has timed out after {minutes} minutes."
                out.append(f"{stamp()} ##[error]{msg}")
            else:
                if how == "shutdown":
                    out.append(
                        f"{stamp()} ##[error]The runner has received a shutdown signal. This can"
                        " happen when the runner service is stopped, or a manually started runner"
                        " is canceled."
                    )
                out.append(f"{stamp()} ##[error]The operation was canceled.")
            status = 1
            break
        if code:
            out.append(f"{stamp()} ##[error]Process completed with exit code {code}.")
            status = status or code
    out.append(f"{stamp()} Cleaning up orphan processes")
    return status


def gitlab(steps: list[str], keep_going: bool, out: list[str], stop: tuple[str, float]) -> int:
    how, limit = stop
    ts = str(int(time.time()))
    clear, reset = "\x1b[0K", "\x1b[0;m"
    head = (
        f"section_start:{ts}:step_script\r{clear}{clear}\x1b[36;1m"
        f'Executing "step_script" stage of the job script{reset}'
    )
    out.append(head)
    status = 0
    for script in steps:
        if status and not keep_going:
            break
        out.append(f"{reset}\x1b[32;1m$ {script}{reset}")
        code, lines = run_step(script, limit)
        out.extend(lines)
        status = status or code
        if code == STOPPED:
            break
    ts = str(int(time.time()))
    out.append(
        f"section_end:{ts}:step_script\r{clear}section_start:{ts}:cleanup_file_variables\r"
        f"{clear}{clear}\x1b[36;1mCleaning up project directory and file based variables{reset}"
    )
    tail = f"{reset}section_end:{ts}:cleanup_file_variables\r{clear}"
    if status == STOPPED:
        why = f"execution took longer than {limit:g}s seconds" if how == "timeout" else "canceled"
        out.append(f"{tail}\x1b[31;1mERROR: Job failed: {why}")
        status = 1
    elif status:
        out.append(f"{tail}\x1b[31;1mERROR: Job failed: exit code {status}")
    else:
        out.append(f"{tail}\x1b[32;1mJob succeeded")
    out.append(reset)
    return status


def buildkite(steps: list[str], keep_going: bool, out: list[str], stop: tuple[str, float]) -> int:
    def bk(line: str) -> str:
        return f"\x1b_bk;t={int(time.time() * 1000)}\x07{line}"

    out.append(bk("~~~ Running commands"))
    status = 0
    for script in steps:
        if status and not keep_going:
            break
        out.append(bk(f"\x1b[90m$\x1b[0m {script}"))
        code, lines = run_step(script, stop[1])
        out.extend(bk(line) for line in lines)
        if code:
            out.append(bk("^^^ +++"))
            out.append(bk(f"\x1b[31m🚨 Error: The command exited with status {code}\x1b[0m"))
            out.append(bk("^^^ +++"))
            status = status or code
    return status


RUNNERS = {"github": github, "gitlab": gitlab, "buildkite": buildkite}


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in RUNNERS:
        print(f"usage: ci_job_log.py {'|'.join(RUNNERS)} [--pass] STEP [STEP...]", file=sys.stderr)
        return 2
    runner, rest = argv[0], argv[1:]
    keep_going = rest[:1] == ["--pass"]
    rest = rest[1:] if keep_going else rest
    stop = ("timeout", float(TIMEOUT))
    if rest[:1] == ["--stop"]:
        how, _, seconds = rest[1].partition(":")
        stop = (how, float(seconds))
        rest = rest[2:]
    out: list[str] = []
    status = RUNNERS[runner](rest, keep_going, out, stop)
    sys.stdout.write("\n".join(out) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
