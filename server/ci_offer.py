"""At start-up, in the background: when the branch's last CI run failed
(remote/branchstate.py: one cached API call, only with a token and a GitHub
or GitLab origin), the client is told with `faultlens/ciFailed`, and an
editor offers "Show CI Failures" (VS Code: a status-bar item and a message).
Nothing is said otherwise; nothing waits for it."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from . import protocol as P

if TYPE_CHECKING:
    from .app import FaultLensServer

log = logging.getLogger(__name__)


async def offer(ls: FaultLensServer) -> None:
    from faultlens.remote.branchstate import last_run_failed

    try:
        answer = await asyncio.to_thread(last_run_failed, ls.root)
    except Exception as exc:  # it only offers: never a crash, never a message
        log.info("faultlens: CI: the branch's last run could not be told: %s", exc)
        return
    if not answer:
        return
    names = ", ".join(r["name"] for r in answer["runs"])
    ls.info(f"faultlens: CI: the last run of {answer['branch']} failed ({names})")
    ls.protocol.notify(P.CI_FAILED, answer)
