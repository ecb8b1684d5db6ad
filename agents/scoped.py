"""An agent's call whose processes end with it (MCP `run`, `recover`).

`scoped_call` runs a blocking call on a worker thread inside a
recipes/procscope.py `ProcessScope`: every command it starts runs in its own
process group carrying the scope's journalled token.  The whole scope is
killed when the call is cancelled (`notifications/cancelled`, or the client
closing the stream, which cancels every call in flight), when its timeout
passes (the call then answers with what the command printed until then), and
by `stop_all` at the server's exit; after a kill -9 of the server, the next
start stops whatever still carries a token (recipes/crash_restore.py).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 600.0  # what `run` waits when the agent names no timeout
MAX_TIMEOUT_S = 24 * 3600.0


class Timed:
    """Whether the call's timeout stopped it."""

    __slots__ = ("fired",)

    def __init__(self) -> None:
        self.fired = False


async def scoped_call(call: Callable[[], T], ws: Any, timeout: float, timed: Timed) -> T:
    """`call()` on a worker thread, its processes stopped with it (module doc)."""
    import anyio
    import anyio.to_thread

    from faultlens.recipes.procscope import ProcessScope

    scope = ProcessScope(ws)

    def expire() -> None:
        timed.fired = True
        scope.stop()

    def work() -> T:
        timer = threading.Timer(timeout, expire)
        timer.daemon = True
        timer.start()
        try:
            with scope:
                return call()
        finally:
            timer.cancel()

    try:
        return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        scope.stop()  # the abandoned thread finds its command gone and ends
        raise


def stop_on_exit() -> Callable[[], None]:
    """Stop every scope's processes on SIGTERM (then die of it, as asked) and
    when the returned function is called (the server's normal end)."""
    from faultlens.recipes.procscope import stop_all

    def terminated(signum: int, _frame: Any) -> None:
        stop_all()
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, terminated)
        signal.signal(signal.SIGHUP, terminated)
    return stop_all
