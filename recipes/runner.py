"""Running commands: argv lists, never a shell, explicit environment.

`stream_process` runs one command and hands its stdout and stderr bytes to
callbacks as they arrive (for live pass-through), and complete lines to a
line callback (for the classifier: lines of the two streams never mix).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .model import CommandStep, UnsafeEdit, Workspace
from .safety import inside_workspace

Sink = Callable[[bytes], None]
TAIL_BYTES = 64 * 1024


@dataclass(slots=True)
class ProcessResult:
    argv: list[str]
    exit_code: int | None  # None: could not start, or killed on timeout
    timed_out: bool
    error: str  # why it could not start
    duration: float
    tail: bytes  # the last TAIL_BYTES of the combined output


def shell_status(code: int) -> int:
    """A process's exit status as a shell reports it: 128+N for a command
    killed by signal N (Popen says -N), e.g. 139 for SIGSEGV."""
    return 128 - code if code < 0 else code


def build_env(ws: Workspace | None, extra: Mapping[str, str]) -> dict[str, str]:
    """The environment a command runs with: ours, the settings', the step's."""
    env = dict(os.environ)
    if ws is not None:
        env.update(ws.settings.env)
    env.update(extra)
    return env


def step_cwd(ws: Workspace, step: CommandStep) -> Path:
    if step.cwd in ("", "."):
        return ws.root
    path = inside_workspace(ws, step.cwd)
    if not path.is_dir():
        raise UnsafeEdit(f"command directory is not a folder: {step.cwd}")
    return path


def spawn(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], new_session: bool = False
) -> subprocess.Popen[bytes] | str:
    """Start argv (no shell, stdin closed, stdout and stderr piped); a string
    saying why when it could not start.  `new_session=False` keeps the child in
    our process group, so a terminal's Ctrl-C reaches it as it would from a
    shell."""
    args = [str(a) for a in argv]
    from faultlens.classifier.redact import masked_secret, redact_argv

    masked = masked_secret(args)
    if masked is not None:  # a stored, redacted command: its secret is gone
        return f"the stored command holds a masked secret ({masked}); run it again yourself"
    from .procscope import current

    scope = current()  # a caller whose processes die with it (an MCP call): own group, token
    if scope is not None:
        if scope.stopped:
            return "stopped: the call was cancelled"
        scope.before_start()
        env, new_session = {**env, **scope.env()}, new_session or scope.own_group
    try:
        proc = subprocess.Popen(
            args,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=new_session,
            shell=False,
        )
    except OSError as exc:
        return f"{redact_argv(args[:1])[0]}: {exc.strerror or exc}"
    if scope is not None:
        scope.started(proc.pid)
    return proc


def stream_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float | None = None,
    on_stdout: Sink | None = None,
    on_stderr: Sink | None = None,
    on_data: Sink | None = None,
    new_session: bool = True,
) -> ProcessResult:
    """Run argv (no shell), copying output as it comes.

    `new_session=False` keeps the child in our process group, so a terminal's
    Ctrl-C reaches it as it would from a shell (the `faultlens run` command).
    If we are interrupted, the child (and its group) is killed before re-raising.

    `on_stdout` / `on_stderr` get each chunk of their stream; `on_data` gets
    every chunk of both, split at line ends so a line of one stream is never
    cut by the other's.
    """
    argv = [str(a) for a in argv]
    start = time.monotonic()
    if not argv:
        return ProcessResult(argv, None, False, "empty command", 0.0, b"")
    from .procscope import current

    scope = current()  # a scope's command has its own group when the scope says so
    new_session = new_session or (scope is not None and scope.own_group)
    proc = spawn(argv, cwd=cwd, env=env, new_session=new_session)
    if isinstance(proc, str):
        return ProcessResult(argv, None, False, proc, 0.0, b"")
    assert proc.stdout is not None and proc.stderr is not None
    sel = selectors.DefaultSelector()
    pending = {"out": b"", "err": b""}
    sinks = {"out": on_stdout, "err": on_stderr}
    sel.register(proc.stdout, selectors.EVENT_READ, "out")
    sel.register(proc.stderr, selectors.EVENT_READ, "err")
    tail = bytearray()
    deadline = None if timeout is None else start + timeout
    try:
        timed_out = _pump(sel, pending, sinks, tail, deadline, on_data)
    except BaseException:
        _kill(proc, new_session)
        raise
    finally:
        sel.close()
    if timed_out:
        _kill(proc, new_session)
        for name, rest in pending.items():
            if rest and on_data:
                on_data(rest)
            pending[name] = b""
    code = proc.wait()
    proc.stdout.close()
    proc.stderr.close()
    return ProcessResult(
        argv,
        None if timed_out else code,
        timed_out,
        "",
        time.monotonic() - start,
        bytes(tail),
    )


def _kill(proc: subprocess.Popen[bytes], own_group: bool) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if own_group:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    proc.wait()


def _pump(
    sel: selectors.BaseSelector,
    pending: dict[str, bytes],
    sinks: dict[str, Sink | None],
    tail: bytearray,
    deadline: float | None,
    on_data: Sink | None,
) -> bool:
    """Copy output until both streams close; True when the deadline passed."""
    open_streams = 2
    while open_streams:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if wait == 0.0:
            return True
        events = sel.select(wait)
        for key, _ in events:
            name = key.data
            chunk = os.read(key.fd, 65536)
            if not chunk:
                sel.unregister(key.fileobj)
                open_streams -= 1
                if pending[name] and on_data:
                    on_data(pending[name])
                pending[name] = b""
                continue
            sink = sinks[name]
            if sink:
                sink(chunk)
            tail += chunk
            if len(tail) > TAIL_BYTES:
                del tail[: len(tail) - TAIL_BYTES]
            if on_data:
                buf = pending[name] + chunk
                cut = buf.rfind(b"\n")
                if cut >= 0:
                    on_data(buf[: cut + 1])
                    pending[name] = buf[cut + 1 :]
                else:
                    pending[name] = buf
                    if len(buf) > 1 << 20:
                        on_data(buf)
                        pending[name] = b""
    return False


def run_step(
    step: CommandStep,
    ws: Workspace,
    *,
    on_data: Sink | None = None,
    echo: Sink | None = None,
) -> ProcessResult:
    """Run a plan's command step inside the workspace."""
    return stream_process(
        step.argv,
        cwd=step_cwd(ws, step),
        env=build_env(ws, step.env),
        timeout=step.timeout,
        on_stdout=echo,
        on_stderr=echo,
        on_data=on_data,
    )


def _described(step: CommandStep) -> str:
    """How a failed step is named to a human: its command, except for faultlens'
    own helpers (`python -m faultlens.recipes.fixes.gitsync ...`), named by what
    they do; an internal command line is not what a human needs."""
    argv = step.argv
    if "-m" in argv[:2] and len(argv) > argv.index("-m") + 1:
        module = argv[argv.index("-m") + 1]
        if module.startswith("faultlens."):
            return f"the {module.rsplit('.', 1)[-1]} step"
    from faultlens.classifier.redact import shown_command

    return f"`{shown_command(argv)}`"


def run_commands(commands: Sequence[CommandStep], ws: Workspace, echo: Sink | None) -> str | None:
    """Run a plan's commands in order, each once; the first failure's description
    (which command, its exit status and last lines), or None when all passed."""
    for step in commands:
        res = run_step(step, ws, echo=echo)
        what = _described(step)
        if res.error:
            return f"could not run {what}: {res.error}"
        if res.timed_out:
            return f"{what} timed out after {step.timeout:g} s"
        if res.exit_code != 0:
            tail = res.tail.decode("utf-8", "replace").strip().splitlines()[-3:]
            return f"{what} exited {res.exit_code}" + (f": {' / '.join(tail)}" if tail else "")
    return None
