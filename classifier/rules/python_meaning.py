"""What an uncaught Python exception means: its category by what it says.

An uncaught traceback is `compile` only for what stops code from being
built or imported: SyntaxError, IndentationError, TabError,
ImportError/ModuleNotFoundError and NameError (a name no definition or
import gives, which a linter finds without running the code).  The rest is
decided by what the exception says (the type first, then the message of
the reported exception and of the ones chained to it):

* out of memory (MemoryError, torch's OutOfMemoryError, "CUDA out of
  memory") is infra, permanent (`kind: oom`);
* a timeout (subprocess.TimeoutExpired, TimeoutError, socket.timeout,
  asyncio's TimeoutError, "timed out after N seconds") is infra,
  transient (`kind: timeout`);
* an OS error of the runner (ENOSPC "No space left on device", EACCES
  "Permission denied", a refused or reset connection) is infra;
* a message that names a git merge conflict ("CONFLICT (content)",
  "Merge conflict in x", "Automatic merge failed") is branch_divergence;
* an AssertionError is test, and so is any exception raised through a
  test runner's frames (`_pytest/`, `unittest/case.py`) or a `test_*`
  function: the test failed;
* anything else (a RuntimeError, a TypeError or a KeyError of a script) is
  infra with `kind: runtime`, permanent: the program crashed while it ran,
  which the compile recipe (fix the code from the error) cannot be trusted
  to repair and a retry does not help.

Pure functions of text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .causes import network_kind

# Exception types (short names) whose type alone says what they mean.
OOM_ERRORS = frozenset({"MemoryError", "OutOfMemoryError"})
TIMEOUT_ERRORS = frozenset(
    {"TimeoutExpired", "TimeoutError", "timeout", "ReadTimeout", "ConnectTimeout", "Timeout"}
)
_OOM = lazy_compile(r"CUDA out of memory|[Oo]ut of memory|OutOfMemoryError|Cannot allocate memory")
_TIMEOUT = lazy_compile(r"timed out after|TimeoutExpired|[Tt]imed out\b|[Tt]imeout (?:of|after) \d")
_NO_SPACE = lazy_compile(r"\[Errno 28\]|No space left on device|ENOSPC")
_ACCESS = lazy_compile(r"\[Errno 13\]|Permission denied|EACCES")
_CONFLICT = lazy_compile(
    r"CONFLICT \((?:content|modify/delete|add/add|rename)[^)]*\): Merge conflict in (?P<file>\S+)"
    r"|CONFLICT \((?:content|modify/delete|add/add|rename)|Merge conflict in "
    r"|Automatic merge failed|[Mm]erge conflict|could not apply [0-9a-f]{7}"
)
# Frames of a test runner: the exception went through a test.
_RUNNER_FRAMES = ("/_pytest/", "/unittest/case.py", "/unittest/async_case.py")
_TEST_FILE = lazy_compile(r"(?:^|[/\\])(?:test_[^/\\]*|[^/\\]*_test)\.py$")


@dataclass(frozen=True, slots=True)
class Meaning:
    """An exception's category and what its hint says about it."""

    category: FailureType
    hint: dict[str, Any] = field(default_factory=dict)
    # The same failure as another rule's record (git.conflict's key when
    # the message quotes git's conflict lines): one record, not two.
    key: tuple[str, ...] | None = None


def _infra(kind: str, transient: bool, **extra: Any) -> Meaning:
    return Meaning(FailureType.INFRA, {"kind": kind, "transient": transient, **extra})


def message_meaning(message: str) -> Meaning | None:
    """The category a message names, or None when it names none."""
    if not message:
        return None
    if conflict := _CONFLICT.search(message):
        file = conflict.group("file")
        key = ("conflict", file) if file else None
        return Meaning(FailureType.BRANCH_DIVERGENCE, {"cause": "conflict"}, key)
    if _OOM.search(message):
        return _infra("oom", False, cause="memory")
    if _NO_SPACE.search(message):
        return _infra("disk_full", False, cause="disk")
    kind = network_kind(message)
    if kind is not None:
        return _infra(kind, True, cause="network")
    if _TIMEOUT.search(message):
        return _infra("timeout", True, cause="timeout")
    if _ACCESS.search(message):
        return _infra("permission", False, cause="permission")
    return None


def type_meaning(exc: str, message: str) -> Meaning | None:
    """The category an exception's type names (with its message's detail)."""
    short = exc.rsplit(".", 1)[-1]
    if short in OOM_ERRORS:
        return _infra("oom", False, cause="memory")
    if short in TIMEOUT_ERRORS or exc == "asyncio.exceptions.CancelledError":
        return _infra("timeout", True, cause="timeout")
    if short == "PermissionError":
        return _infra("permission", False, cause="permission")
    if short in ("ConnectionRefusedError", "ConnectionResetError", "ConnectionAbortedError"):
        return _infra(network_kind(message) or "refused", True, cause="network")
    return None


def in_test(frames: Sequence[tuple[str, str | None]]) -> bool:
    """Whether the frames (file, function) show a test that ran: a test
    runner's own frames, or a `test_*` function in a test file."""
    for file, func in frames:
        if any(mark in file.replace("\\", "/") for mark in _RUNNER_FRAMES):
            return True
        if func and func.startswith("test") and _TEST_FILE.search(file):
            return True
    return False


def runtime_meaning(
    exc: str,
    messages: Sequence[str],
    frames: Sequence[tuple[str, str | None]] = (),
) -> Meaning:
    """The category of an exception that neither stops the code from being
    built nor is an assertion: by its type, else by the message of the
    exception or of one chained to it (the last first), else the test's
    when it ran in a test, else a program that crashed at run time."""
    last = messages[-1] if messages else ""
    found = type_meaning(exc, last)
    if found is None:
        for message in reversed(messages):
            found = message_meaning(message)
            if found is not None:
                break
    if found is not None:
        return found
    if in_test(frames):
        return Meaning(FailureType.TEST, {})
    return _infra("runtime", False)
