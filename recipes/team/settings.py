"""Where the team's history lives: a PostgreSQL URL.

The environment's FAULTLENS_HISTORY_URL wins; else `[history] url` in the
project's config (`[tool.faultlens.history]` or `.faultlens.toml`), else in
the user's (`$XDG_CONFIG_HOME/faultlens/config.toml`).  `${VAR}` in a
configured URL is taken from the environment, so a password never needs to
be written in a file; a project config whose URL holds a password written
out is refused (it would be committed), with one line saying so.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True, slots=True)
class HistorySettings:
    url: str | None  # None: no team history
    origin: str  # where it was set (shown, never the URL itself)
    problem: str | None = None  # why a configured URL is not used (one line)
    mass_failure_share: float = 0.8  # a run with more of its tests failing is infra
    quarantine_after: int = 0  # flaky this many times in 7 days: quarantined (0: never)
    wait: float = 1.0  # how long a run's end waits for the database, at most (seconds)
    retry: str = "all"  # [recipes.test] retry: "all" failing tests, or "known-flakes" only
    uses: tuple[str, ...] = ()  # the ${VAR}s the URL was made of (what a cached answer depends on)


def user_config(env: Mapping[str, str]) -> Path | None:
    base = env.get("XDG_CONFIG_HOME") or (
        os.path.join(env["HOME"], ".config") if env.get("HOME") else ""
    )
    if not base or not os.path.isabs(base):
        return None
    return Path(base) / "faultlens" / "config.toml"


def _table(path: Path | None) -> dict[str, Any]:
    if path is None or not path.is_file():  # most users have none: not even an open
        return {}
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}
    history = data.get("history")
    return history if isinstance(history, dict) else {}


def expand(value: str, env: Mapping[str, str]) -> tuple[str, list[str]]:
    """`${VAR}` replaced from `env`; the names that are not set."""
    missing: list[str] = []

    def one(m: re.Match[str]) -> str:
        if m[1] not in env:
            missing.append(m[1])
            return ""
        return env[m[1]]

    return _VAR.sub(one, value), missing


def _written_password(raw: str) -> bool:
    """A URL whose password is written out rather than a ${VAR} reference."""
    try:
        parts = urlsplit(raw)
    except ValueError:
        return False
    if parts.password and not _VAR.fullmatch(parts.password):
        return True
    return bool(re.search(r"(?:^|[?&\s])password=(?!\$\{)[^&\s]+", raw))


def resolve(
    project_table: Mapping[str, Any] | None, env: Mapping[str, str] | None = None
) -> HistorySettings:
    """The team history's settings, from the environment and the configs."""
    env = os.environ if env is None else env
    project = dict(project_table.get("history") or {}) if project_table else {}
    if not isinstance(project, dict):
        project = {}
    user = _table(user_config(env))
    merged = {**user, **project}
    share = merged.get("mass_failure_share", 0.8)
    after = merged.get("quarantine_after", 0)
    wait = _seconds(env.get("FAULTLENS_HISTORY_WAIT") or merged.get("wait"))
    base = HistorySettings(
        None,
        "",
        retry=retry_policy(project_table),
        mass_failure_share=float(share)
        if isinstance(share, int | float) and 0 < share <= 1
        else 0.8,
        quarantine_after=after if isinstance(after, int) and after >= 0 else 0,
        wait=wait,
    )
    from_env = env.get("FAULTLENS_HISTORY_URL", "").strip()
    if from_env:
        return _checked(base, from_env, "FAULTLENS_HISTORY_URL")
    for origin, table in (
        ("the project's [history] url", project),
        ("the user's [history] url", user),
    ):
        raw = table.get("url")
        if not isinstance(raw, str) or not raw.strip():
            continue
        if origin.startswith("the project") and _written_password(raw):
            why = f"{origin} holds a password: write ${{VAR}} and set VAR in the environment"
            return replace(base, origin=origin, problem=why)
        url, missing = expand(raw.strip(), env)
        uses = tuple(_VAR.findall(raw))
        if missing:
            why = f"{origin} names unset variables: {', '.join(missing)}"
            return replace(base, origin=origin, problem=why, uses=uses)
        return replace(_checked(base, url, origin), uses=uses)
    return base


def retry_policy(project_table: Mapping[str, Any] | None) -> str:
    """`[recipes.test] retry` of the project's config: "known-flakes" re-runs
    only tests with a flaky history; anything else (the default) all."""
    recipes = project_table.get("recipes") if project_table else None
    test = recipes.get("test") if isinstance(recipes, dict) else None
    value = test.get("retry") if isinstance(test, dict) else None
    return "known-flakes" if value in ("known-flakes", "known_flakes") else "all"


def _seconds(value: object) -> float:
    """A wait in seconds, 0 to 60 (default 1)."""
    try:
        seconds = float(value) if isinstance(value, int | float | str) and value != "" else 1.0
    except ValueError:
        return 1.0
    return min(max(seconds, 0.0), 60.0)


def _checked(base: HistorySettings, url: str, origin: str) -> HistorySettings:
    scheme = url.split(":", 1)[0].lower()
    if scheme not in SCHEMES:
        return replace(base, origin=origin, problem=f"{origin} is not a postgresql:// URL")
    return replace(base, url=url, origin=origin)
