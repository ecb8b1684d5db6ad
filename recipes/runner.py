"""The one process runner: argv lists, never a shell, explicit environment.

A command is started in one place (`spawn`), its output copied by one loop
(`pump`: each stream's bytes to a sink as they arrive, for live
pass-through, and whole lines to the classifier, the two streams' lines never
mixed), and it is stopped with everything it started in one place (`stop`).
The sync faces: `stream_process` (a recipe's step: a timeout, a tail of the
output, a process group of its own) and `copy_through` (`faultlens run`: in
our process group, so a terminal's Ctrl-C reaches it; `stop_tree_on_signals`
passes a SIGTERM on to its tree).  The async face, for the language server,
is recipes/runner_async.py over the same three.
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
READ = 1 << 16  # at most this much per read (what a pipe holds by default)
LONG_LINE = 1 << 20  # a line longer than this is handed to on_data in pieces


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
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    new_session: bool = False,
    merge_stderr: bool = False,
) -> subprocess.Popen[bytes] | str:
    """The one place a command is started: argv (no shell), stdin closed, stdout
    and stderr piped (`merge_stderr`: stderr into stdout, like `2>&1`); a
    string saying why when it could not start.  `new_session=True` gives it a
    process group of its own (what `stop` ends); False keeps it in ours, so a
    terminal's Ctrl-C reaches it as it would from a shell."""
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
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            start_new_session=new_session,
            shell=False,
        )
    except OSError as exc:
        return f"{redact_argv(args[:1])[0]}: {exc.strerror or exc}"
    if scope is not None:
        scope.started(proc.pid)
    return proc


def stop(proc: subprocess.Popen[bytes], *, own_group: bool, grace: float = 0.0) -> None:
    """The one place a started command is stopped, with what it started: its
    process group (when it has its own) and the descendants that left it (a
    watcher's workers in sessions of their own).  SIGTERM first when `grace`
    is given, SIGKILL to what is left after it; the command is reaped."""
    from .proctree import alive, descendants, exists, signal_tree

    group = proc.pid if own_group else None
    tree = descendants(proc.pid)
    if grace > 0 and proc.poll() is None:
        signal_tree(group, tree | {proc.pid}, signal.SIGTERM)
        deadline = time.monotonic() + grace
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(grace)
        while alive(tree) and time.monotonic() < deadline:
            time.sleep(0.05)
    left = {p for p in tree | descendants(proc.pid) if exists(p)}
    if proc.poll() is None:
        left.add(proc.pid)
    signal_tree(group, left, signal.SIGKILL)
    proc.wait()


def pump(
    proc: subprocess.Popen[bytes],
    *,
    on_stdout: Sink | None = None,
    on_stderr: Sink | None = None,
    on_data: Sink | None = None,
    deadline: float | None = None,
    tail: bytearray | None = None,
) -> bool:
    """The one loop copying a command's output until its streams close: each
    chunk to its stream's sink, the last TAIL_BYTES into `tail`, and to
    `on_data` split at line ends, so a line of one stream is never cut by the
    other's (a line longer than LONG_LINE is handed over in pieces).  True
    when `deadline` (time.monotonic()) passed first; the pending pieces of
    lines are handed over either way."""
    sel = selectors.DefaultSelector()
    pending: dict[int, bytes] = {}
    streams = [(proc.stdout, on_stdout), (proc.stderr, on_stderr)]
    for stream, sink in streams:
        if stream is not None:
            sel.register(stream, selectors.EVENT_READ, sink)
            pending[stream.fileno()] = b""
    read = os.read
    open_streams = len(pending)
    timed_out = False
    try:
        while open_streams:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if wait == 0.0:
                timed_out = True
                break
            for key, _ in sel.select(wait):
                chunk = read(key.fd, READ)
                if not chunk:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
                    if pending[key.fd] and on_data:
                        on_data(pending[key.fd])
                    pending[key.fd] = b""
                    continue
                if key.data is not None:
                    key.data(chunk)
                if tail is not None:
                    tail += chunk
                    if len(tail) > TAIL_BYTES:
                        del tail[: len(tail) - TAIL_BYTES]
                if on_data is None:
                    continue
                rest = pending[key.fd]
                buf = rest + chunk if rest else chunk
                cut = buf.rfind(b"\n")
                if cut < 0:
                    if len(buf) > LONG_LINE:
                        on_data(buf)
                        buf = b""
                    pending[key.fd] = buf
                elif cut == len(buf) - 1:
                    on_data(buf)
                    pending[key.fd] = b""
                else:
                    on_data(buf[: cut + 1])
                    pending[key.fd] = buf[cut + 1 :]
    finally:
        sel.close()
    if timed_out and on_data:
        for fd, rest in pending.items():
            if rest:
                on_data(rest)
            pending[fd] = b""
    return timed_out


def copy_through(
    proc: subprocess.Popen[bytes],
    *,
    on_stdout: Sink,
    on_stderr: Sink,
    on_data: Sink,
) -> int:
    """Copy a started command's output (`pump`) until it ends; its exit status
    as a shell gives it.  If we are interrupted, the command is stopped before
    re-raising (`faultlens run`: in our process group)."""
    try:
        pump(proc, on_stdout=on_stdout, on_stderr=on_stderr, on_data=on_data)
    except BaseException:  # its tree was signalled already (stop_tree_on_signals)
        stop(proc, own_group=False, grace=2.0)
        raise
    code = proc.wait()
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    return shell_status(code)


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
    on_spawn: Callable[[subprocess.Popen[bytes]], None] | None = None,
) -> ProcessResult:
    """Run argv (no shell) to its end or its timeout, copying output as it comes
    (`pump`); on timeout or interruption it is stopped with its group (`stop`).
    `on_spawn` is given the started process (before any output is read)."""
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
    if on_spawn is not None:
        on_spawn(proc)
    tail = bytearray()
    deadline = None if timeout is None else start + timeout
    try:
        timed_out = pump(
            proc,
            on_stdout=on_stdout,
            on_stderr=on_stderr,
            on_data=on_data,
            deadline=deadline,
            tail=tail,
        )
    except BaseException:
        stop(proc, own_group=new_session)
        raise
    if timed_out:
        stop(proc, own_group=new_session)
    code = proc.wait()
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    return ProcessResult(
        argv,
        None if timed_out else code,
        timed_out,
        "",
        time.monotonic() - start,
        bytes(tail),
    )


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


def stop_tree_on_signals(pid: int, tree: set[int]) -> Callable[[], None]:
    """While the command runs, Ctrl-C (SIGINT) and SIGTERM first signal its
    whole tree (`npx tsc --watch`, `npx jest`: the tool outlives npm killed
    alone; `kill` reaches faultlens, not its children), adding it to `tree`
    for the caller's final `proctree.reap`, then end `faultlens run` as usual
    (KeyboardInterrupt, SystemExit(128+N)).  A function restoring the previous
    handlers (none are set outside the main thread)."""
    import threading

    from .proctree import descendants, signal_tree

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, _frame: object) -> None:
        tree.update(descendants(pid))
        signal_tree(None, tree, signal.SIGTERM)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)

    before = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, old in before.items():
            signal.signal(sig, old)

    return restore
