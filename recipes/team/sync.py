"""What a run does with the team database, and what the fronts read.

`after_run` is the one call at a run's end (recipes' run recorder): queue
the run's facts locally, then send what is queued within a small budget on
a thread of its own; a server that is slow, down or refusing never slows
the run past the budget or changes its exit status, and what was not sent
waits for the next run.  `sync` sends the whole queue (`faultlens history
sync`).  `team_history` and `team_most_seen` read, remembering for a minute
that the server was unreachable so an editor's hover never waits on it
twice.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faultlens.classifier.config_files import file_stamp

from .database import HistoryUnavailable
from .outbox import Outbox
from .settings import HistorySettings, resolve, user_config

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from ..model import Workspace
    from ..treestate import TreeState
    from .database import TeamHistory

BATCH = 200
DOWN_FOR_S = 60.0  # after a failed connection, reads skip the server this long

_down_until: dict[str, float] = {}
_lock = threading.Lock()


# root -> (what the answer depends on, the answer): the team config is read
# once per workspace, again only when a config file or a variable it uses changed
_settings: dict[Path, tuple[tuple[Any, ...], HistorySettings]] = {}
ENV_KEYS = ("FAULTLENS_HISTORY_URL", "FAULTLENS_HISTORY_WAIT", "XDG_CONFIG_HOME", "HOME")


def _stamp(path: Path | None) -> tuple[int, int] | None:
    try:
        return file_stamp(path) if path is not None else None
    except OSError:
        return None


def settings_for(ws: Workspace, env: Mapping[str, str] | None = None) -> HistorySettings:
    """The workspace's team settings, cached: one read of the configs per
    workspace (and per change of a config file or of a variable it uses),
    not one per record or run."""
    from faultlens.classifier.config import load_config

    env = os.environ if env is None else env
    project = load_config(ws.root)  # cached by the file's stamp
    key: tuple[Any, ...] = (
        (project.path, _stamp(project.path)),
        _stamp(user_config(env)),
        tuple(env.get(k) for k in ENV_KEYS),
    )
    with _lock:
        found = _settings.get(ws.root)
    if found is not None and found[0][:3] == key and found[0][3] == _uses(found[1], env):
        return found[1]
    cfg = resolve(project.table, env)
    with _lock:
        if len(_settings) >= 64:
            _settings.clear()
        _settings[ws.root] = ((*key, _uses(cfg, env)), cfg)
    return cfg


def _uses(cfg: HistorySettings, env: Mapping[str, str]) -> tuple[str | None, ...]:
    return tuple(env.get(name) for name in cfg.uses)


def workspace_name(ws: Workspace) -> str:
    """What the team calls this repository: its origin remote (redacted), or
    the folder's name."""
    from faultlens.classifier.redact import redact

    from ..fixes.gitcore import Git

    remote = Git(ws.root, timeout=5.0).out("remote", "get-url", "origin")
    return redact(remote)[:300] if remote else ws.root.name


def after_run(
    ws: Workspace,
    *,
    command: Sequence[str],
    tree: TreeState | None,
    exit_code: int | None,
    records: Sequence[FailureRecord],
    started: float,
    duration: float | None,
    front: str,
    budget: float | None = None,
    tests_total: int | None = None,
    tests_failed: int | None = None,
) -> threading.Thread | None:
    """Queue the run for the team and send the queue (on a thread, waited
    for at most `budget`: default the settings' `wait`); None when no team
    history is configured."""
    cfg = settings_for(ws)
    if cfg.url is None or not command:
        return None
    from .facts import run_fact

    fact = run_fact(
        workspace=workspace_name(ws),
        command=command,
        tree=tree,
        exit_code=exit_code,
        records=records,
        started=started,
        duration=duration,
        front=front,
        mass_share=cfg.mass_failure_share,
        tests_total=tests_total,
        tests_failed=tests_failed,
    )
    outbox = Outbox(ws.state)
    outbox.put(fact)
    url = cfg.url
    sender = threading.Thread(
        target=_send_quietly,
        args=(url, outbox, cfg.quarantine_after),
        daemon=True,
        name="faultlens-team-history",
    )
    sender.start()
    sender.join(cfg.wait if budget is None else budget)
    return sender


def _send_quietly(url: str, outbox: Outbox, quarantine_after: int) -> None:
    try:
        sent = send_queue(url, outbox)
        if sent and quarantine_after:
            from .database import auto_quarantine, connect

            with connect(url) as conn:
                auto_quarantine(conn, quarantine_after)
    except HistoryUnavailable:
        _mark_down(url)
    except Exception:  # a bug here never reaches the run
        _mark_down(url)


def send_queue(url: str, outbox: Outbox) -> int:
    """Send every queued run, oldest first; the number sent."""
    from .database import connect, send

    sent = 0
    with connect(url) as conn:
        while batch := outbox.oldest(BATCH):
            send(conn, batch)
            outbox.done([f.key for f in batch])
            sent += len(batch)
            if len(batch) < BATCH:
                break
    with _lock:
        _down_until.pop(url, None)
    return sent


def sync(ws: Workspace) -> tuple[int, int]:
    """(sent, still queued): `faultlens history sync`.  HistoryUnavailable
    when the server cannot be used, with the queue kept."""
    cfg = settings_for(ws)
    if cfg.url is None:
        raise HistoryUnavailable(
            cfg.problem or "no team history configured: set FAULTLENS_HISTORY_URL"
        )
    outbox = Outbox(ws.state)
    sent = send_queue(cfg.url, outbox)
    return sent, outbox.count()


def _mark_down(url: str) -> None:
    with _lock:
        _down_until[url] = time.monotonic() + DOWN_FOR_S


def _usable(cfg: HistorySettings) -> str | None:
    if cfg.url is None:
        return None
    with _lock:
        if _down_until.get(cfg.url, 0.0) > time.monotonic():
            return None
    return cfg.url


def team_history(ws: Workspace, failure_ids: Sequence[str]) -> dict[str, TeamHistory]:
    """The team's history of these failures ({} when none is configured or
    the server is away)."""
    url = _usable(settings_for(ws))
    if url is None or not failure_ids:
        return {}
    from .database import connect, history_of

    try:
        with connect(url) as conn:
            return history_of(conn, failure_ids)
    except HistoryUnavailable:
        _mark_down(url)
        return {}


def team_most_seen(ws: Workspace, limit: int = 20) -> tuple[list[TeamHistory], str | None]:
    """The team's most seen failures, and why there are none (one line)."""
    cfg = settings_for(ws)
    if cfg.url is None:
        return [], cfg.problem
    from .database import connect, most_seen

    try:
        with connect(cfg.url) as conn:
            return most_seen(conn, limit), None
    except HistoryUnavailable as exc:
        _mark_down(cfg.url)
        return [], str(exc)


def quarantine(ws: Workspace, action: str, test_id: str | None, reason: str = "") -> Any:
    cfg = settings_for(ws)
    if cfg.url is None:
        raise HistoryUnavailable(
            cfg.problem or "no team history configured: set FAULTLENS_HISTORY_URL"
        )
    from . import database as db

    with db.connect(cfg.url) as conn:
        if action == "list":
            return db.quarantine_list(conn)
        assert test_id is not None
        if action == "add":
            import getpass

            db.quarantine_add(conn, test_id, reason or "quarantined by hand", getpass.getuser())
            return True
        return db.quarantine_remove(conn, test_id)
