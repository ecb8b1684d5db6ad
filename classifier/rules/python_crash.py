"""A Python process that did not end with a traceback: killed by a signal
(faulthandler's `Fatal Python error: Segmentation fault`) or stopped by
pytest-timeout's thread method (`+++ Timeout +++` and the stacks)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .python_meaning import in_test
from .python_traceback import innermost_in_project, is_pseudo
from .registry import rule

ECOSYSTEM = "Python"

# faulthandler's frame (`File "x", line N in f`, most recent first) and
# traceback's (`File "x", line N, in f`, most recent last).
_FRAME = lazy_compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+),? in (?P<func>.+?)\s*$')
_THREAD = lazy_compile(
    r"^(?:Current thread|Thread) 0x[0-9a-f]+ (?:\[[^\]]*\] )?\(most recent call first\):$"
    r"|^~+ Stack of .+ ~+$"
)
_SIGNALS = {
    "Segmentation fault": "SIGSEGV",
    "Aborted": "SIGABRT",
    "Bus error": "SIGBUS",
    "Floating point exception": "SIGFPE",
    "Illegal instruction": "SIGILL",
}

Frame = tuple[str, int, str]


def _located(frames: list[Frame], ctx: LineContext) -> Frame | None:
    """The innermost frame in the project (frames innermost last)."""
    real = [f for f in frames if not is_pseudo(f[0])]
    return innermost_in_project(real, lambda f: f[0], ctx)


def _test_of(frames: list[Frame]) -> str | None:
    for file, _, func in reversed(frames):
        if func.startswith("test") and in_test([(file, func)]):
            return func
    return None


class _FatalError:
    """faulthandler's report: the error line, then each thread's stack."""

    max_lines = 5_000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.what = m.group("what").strip()
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.stacks: list[list[Frame]] = []

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if not text or text.startswith("Extension modules:"):
            return True
        if _THREAD.match(text):
            self.stacks.append([])
            return True
        frame = _FRAME.match(line)
        if frame and self.stacks:
            file, at, func = frame.group("file"), int(frame.group("line")), frame.group("func")
            self.stacks[-1].insert(0, (file, at, func))  # innermost last
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        frames = self.stacks[0] if self.stacks else []  # the current thread's
        where = _located(frames, self.ctx)
        test = _test_of(frames)
        hint = {"signal": _SIGNALS.get(self.what, self.what), "kind": "crash"}
        ran_in_test = in_test([(f, fn) for f, _, fn in frames])
        if test:
            hint["test_name"] = test
        if not ran_in_test:
            hint["transient"] = False
        yield Hit(
            signal=self.signal,
            message=f"the Python process crashed: {self.what}" + (f" (in {test})" if test else ""),
            file=where[0] if where else None,
            line=where[1] if where else None,
            code=hint["signal"],
            category=FailureType.TEST if ran_in_test else FailureType.INFRA,
            log_line=self.log_line,
            hint=hint,
        )


@rule(
    id="python.fatal_error",
    category=FailureType.TEST,
    tool="python",
    pattern=r"^Fatal Python error: (?P<what>.+)$",
    triggers=("Fatal Python error: ",),
    url="https://docs.python.org/3/library/faulthandler.html",
    priority=10,
)
def fatal_error(m: re.Match[str], ctx: LineContext) -> _FatalError:
    """A Python process killed by a signal, as faulthandler reports it.

    What it detects: `Fatal Python error: Segmentation fault` (or
    `Aborted`, `Bus error`, `Floating point exception`) and the stacks
    faulthandler dumps under it (`Current thread 0x... (most recent call
    first):`, `File "x", line N in f`); pytest enables faulthandler, so a
    test that crashes the interpreter (a C extension, ctypes) ends the run
    with this and no pytest summary. Inside a test (pytest's frames, a
    `test_*` function) it is the test's failure (hint `test_name`, the
    signal in `signal` and `code`), at the innermost frame of the project;
    in a plain script it is infra (a crash of native code at run time).

    Example output (`python -m pytest -q test_crash.py`, pytest 9.0, Python 3.11.7):
        Fatal Python error: Segmentation fault

        Current thread 0x00007fc265047b80 (most recent call first):
          File "/usr/lib/python3.11/ctypes/__init__.py", line 519 in string_at
          File "/work/app/test_crash.py", line 4 in test_native_parser
          File "/venv/lib/python3.11/site-packages/_pytest/python.py", line 187 in pytest_pyfunc_call

    Recipe: test (re-run the test named; a human reads the native crash);
    infra for a script.

    References: https://docs.python.org/3/library/faulthandler.html
    """
    return _FatalError(m, ctx)


class _TimeoutDump:
    """pytest-timeout's thread-method report: from `+++ Timeout +++` to the
    closing `+++ Timeout +++`, the stacks of every thread between."""

    max_lines = 20_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.stacks: list[list[Frame]] = [[]]
        self.closed = False

    def feed(self, line: str, line_no: int) -> bool:
        if self.closed:
            return False
        text = line.strip()
        if _TIMEOUT_BAR.match(text):
            self.closed = True
            return True
        if _THREAD.match(text):
            self.stacks.append([])
            return True
        frame = _FRAME.match(line)
        if frame:
            self.stacks[-1].append(
                (frame.group("file"), int(frame.group("line")), frame.group("func"))
            )
        return True  # source lines, thread headers of other shapes

    def finish(self) -> Iterable[Hit]:
        stacks = [s for s in self.stacks if s]
        frames = next((s for s in stacks if _test_of(s)), stacks[-1] if stacks else [])
        where = _located(frames, self.ctx)
        test = _test_of(frames)
        hint: dict[str, str] = {"kind": "timeout", "runner": "pytest"}
        if test:
            hint["test_name"] = test
        yield Hit(
            signal=self.signal,
            message="pytest-timeout stopped the run: a test went over its time limit"
            + (f" ({test})" if test else ""),
            file=where[0] if where else None,
            line=where[1] if where else None,
            code="timeout",
            log_line=self.log_line,
            hint=hint,
        )


_TIMEOUT_BAR = lazy_compile(r"^\++ Timeout \++$")


@rule(
    id="pytest.timeout",
    category=FailureType.TEST,
    tool="pytest",
    pattern=_TIMEOUT_BAR.pattern,
    triggers=("+ Timeout +",),
    url="https://github.com/pytest-dev/pytest-timeout#timeout-methods",
    priority=10,
)
def pytest_timeout(m: re.Match[str], ctx: LineContext) -> _TimeoutDump:
    """A test pytest-timeout stopped with its thread method.

    What it detects: the `+++ Timeout +++` bar, the stack of each thread
    (`~~~ Stack of MainThread (...) ~~~`, traceback-style frames), the
    closing bar; the process then exits at once, with no pytest summary.
    The record is the test's (a test that went over its time limit is the
    test's failure: it hung, or is too slow for the limit), at the
    innermost project frame of the stack that runs a test, hint
    `test_name`, `kind: timeout`. The signal method's `Failed: Timeout
    (>1.0s) from pytest-timeout.` is an ordinary failure that
    pytest.failure reads.

    Example output (`python -m pytest -q --timeout 1 --timeout-method thread
    test_slow.py`, pytest-timeout 2.4.0):
        +++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++
        ~~~~~~~~~~~~~~~~~~~~ Stack of MainThread (139771313646464) ~~~~~~~~~~~~~~~~~~~~~
          File "/venv/lib/python3.11/site-packages/_pytest/python.py", line 187, in pytest_pyfunc_call
            result = testfunction(**testargs)
          File "/work/app/test_slow.py", line 4, in test_slow
            time.sleep(3)
        +++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++

    Recipe: test (re-run the test named; a human decides whether the limit
    or the code is wrong).

    References: https://github.com/pytest-dev/pytest-timeout#timeout-methods
    """
    return _TimeoutDump(ctx)


# ctx.state key: the run was interrupted (a later "no tests ran" is its consequence).
INTERRUPTED = "pytest.interrupted"
_INTERRUPTED_AT = lazy_compile(r"^(?P<file>[^\s:][^:]*\.py):(?P<line>\d+): KeyboardInterrupt$")


class _Interrupted:
    """pytest's `!!! KeyboardInterrupt !!!` bar and the `file:line:
    KeyboardInterrupt` under it."""

    max_lines = 4

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.at: tuple[str, int] | None = None

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        at = _INTERRUPTED_AT.match(text)
        if at:
            self.at = (at.group("file"), int(at.group("line")))
            return True
        return text.startswith("(to show a full traceback on KeyboardInterrupt")

    def finish(self) -> Iterable[Hit]:
        self.ctx.state[INTERRUPTED] = True
        yield Hit(
            signal=self.signal,
            message="the test run was interrupted (SIGINT: a cancelled job, a time limit)"
            + (f" at {self.at[0]}:{self.at[1]}" if self.at else ""),
            file=self.at[0] if self.at else None,
            line=self.at[1] if self.at else None,
            code="KeyboardInterrupt",
            log_line=self.log_line,
            hint={"kind": "interrupted", "transient": True, "runner": "pytest"},
            key=("interrupted", "pytest"),
        )


@rule(
    id="pytest.interrupted",
    category=FailureType.INFRA,
    tool="pytest",
    pattern=r"^!+ KeyboardInterrupt !+$",
    triggers=("!! KeyboardInterrupt !!",),
    url="https://docs.pytest.org/en/stable/reference/exit-codes.html",
    priority=10,
)
def pytest_interrupted(m: re.Match[str], ctx: LineContext) -> _Interrupted:
    """A pytest run stopped from outside: SIGINT (a CI job cancelled, a
    wrapper's time limit sending INT, Ctrl-C).

    What it detects: pytest's `!!!! KeyboardInterrupt !!!!` bar and the
    `file:line: KeyboardInterrupt` under it (where the run was when it was
    stopped). Nothing failed in the code: the run did not finish, so the
    record is infra, transient (retry the job; a limit hit every time is a
    human's to raise), at the place it stopped; the "no tests ran" or the
    partial summary that follows is folded into it. `!!! Interrupted: N
    errors during collection !!!` is pytest's own stop after collection
    errors, which those errors explain: not matched here.

    Example output (`timeout -s INT 1 python -m pytest -q test_slow.py`, pytest 9.0):
        !!!!!!!!!!!!!!!!!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
        /work/app/test_slow.py:4: KeyboardInterrupt
        (to show a full traceback on KeyboardInterrupt use --full-trace)
        no tests ran in 0.95s

    Recipe: infra, transient: the job is retried once.

    References: https://docs.pytest.org/en/stable/reference/exit-codes.html
    """
    return _Interrupted(ctx)
