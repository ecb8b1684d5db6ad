"""What `faultlens run` and `faultlens run --watch` both print and guard:
the one-line messages, the copied output, the state calls that must never
stop the command, the command's process tree on a signal, and a group's
one-line summary."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


def writer(stream: IO[bytes]) -> Any:
    def write(chunk: bytes) -> None:
        try:
            stream.write(chunk)
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass

    return write


def say(err: IO[str], text: str) -> None:
    err.write(f"faultlens: {text}\n")
    err.flush()


def tests_affected(n: int) -> str:
    """`3 tests affected`"""
    return f"{n} test{'s' if n != 1 else ''} affected"


def group_summary(records: Sequence[FailureRecord]) -> str:
    """`1 compile failure, 60 tests affected; 2 test failures`"""
    by_type: dict[str, list[FailureRecord]] = {}
    for r in records:
        by_type.setdefault(r.failure_type.value, []).append(r)
    parts = []
    for ft, recs in by_type.items():
        n = len(recs)
        part = f"{n} {ft} failure{'s' if n != 1 else ''}"
        affected = sum(r.affected for r in recs)
        if affected > n:
            part += f", {tests_affected(affected)}"
        parts.append(part)
    return "; ".join(parts)
