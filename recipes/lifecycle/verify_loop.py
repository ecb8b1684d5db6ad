"""The verify stage's one loop: run the re-run (a process, or a watcher's next
cycle: the re-runner) up to 1 + `retries` times, pausing `backoff[i]` before
run i, until it proves the fix (lifecycle/judge.py says what proves it).
Used by a single failure's attempt (recipes/verify.py) and one run's batch
(recipes/type_attempts.py) alike.

Retries are counted the same way everywhere: with a backoff every run is a
retry of the command that failed (1 s, 2 s, 4 s are three); without one, the
runs after the first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class Looped(Generic[T]):
    """The last run's result, whether it proved the fix, and the retries made."""

    result: T
    ok: bool
    retries: int

    @property
    def note(self) -> str:
        """ " (after 2 retries)", or nothing."""
        n = self.retries
        return f" (after {n} retr{'y' if n == 1 else 'ies'})" if n else ""


def verify_loop(
    run: Callable[[], T],
    proves: Callable[[T], bool],
    *,
    retries: int = 0,
    backoff: Sequence[float] = (),
    sleep: Callable[[float], None],
    say: Callable[[str], None] | None = None,
) -> Looped[T]:
    """Run `run` until `proves` its result, at most 1 + `retries` times."""
    tries = 1 + max(0, retries)
    for i in range(tries):
        delay = backoff[min(i, len(backoff) - 1)] if backoff else 0.0
        if delay > 0:
            if say is not None:
                say(f"waiting {delay:g} s before re-running")
            sleep(delay)
        result = run()
        if proves(result) or i == tries - 1:
            return Looped(result, proves(result), i + 1 if backoff else i)
    raise AssertionError("unreachable: the loop returns on its last try")
