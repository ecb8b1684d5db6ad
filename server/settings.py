"""The server's settings: one typed model, every field defaulted and documented.

Settings arrive from `initializationOptions` and from `workspace/configuration`
(section "faultlens"), and may change at runtime (`workspace/didChangeConfiguration`).
Keys are camelCase on the wire (`watchGlobs`); snake_case is accepted too.

A bad value never stops the server: `parse_settings` keeps every valid field,
falls back to the default for each invalid one, and returns a message per
problem (the server shows them with `window/showMessage`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.alias_generators import to_camel

DEFAULT_WATCH_GLOBS = (".faultlens/inbox/*.log", "**/junit*.xml")


class Settings(BaseModel):
    """Everything a user can configure in the editor."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="ignore", frozen=True
    )

    run_commands: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Named commands for `faultlens.run {name}` (e.g. build: [make]). "
        "A string value is split like a shell would (shlex), never run by a shell.",
    )
    watch_globs: list[str] = Field(
        default_factory=lambda: list(DEFAULT_WATCH_GLOBS),
        description="Files (relative to the workspace root) classified whenever they change.",
    )
    auto_recover: bool = Field(
        default=False,
        description="Apply the one automatic recipe attempt without asking (edits and commands).",
    )
    verify_after_recipe: bool = Field(
        default=True,
        description="After a recipe, re-run the command that failed (or re-check the file).",
    )
    state_dir: str = Field(
        default=".faultlens",
        description="Where the ledger, events.jsonl and the seed's logs (logs/) live, "
        "relative to the root. `logDir` is accepted as another name for it.",
    )
    max_task_retries: int = Field(default=2, ge=0, le=10, description="Retries per task.")
    infra_max_retries: int = Field(
        default=3, ge=0, le=10, description="Backoff retries of transient infra failures."
    )
    diagnostic_mode: Literal["push", "pull"] = Field(
        default="push",
        description="push: textDocument/publishDiagnostics (every client, every file). "
        "pull: textDocument/diagnostic, used only when the client supports it; read from "
        "initializationOptions only (capabilities are fixed at initialize).",
    )
    ask_on_escalation: bool = Field(
        default=True,
        description="Offer retry / skip / stop with window/showMessageRequest on escalation.",
    )
    run_timeout: float = Field(
        default=1800.0, gt=0, description="Seconds before faultlens.run stops a command."
    )
    task_in_source: bool = Field(
        default=False,
        description="Name the task in each diagnostic's source (`faultlens: <task>`), so "
        "VS Code's Problems view can be filtered by task and shows each failure's task.",
    )
    keep_diagnostics_on_stop: bool = Field(
        default=False,
        description="A watch task that is stopped or killed keeps its last cycle's diagnostics "
        "(default: they are cleared with it).",
    )
    watch_verify_timeout: float = Field(
        default=120.0,
        gt=0,
        description="Seconds a recipe applied to a watcher's failure waits for the watcher's "
        "next cycle to verify it.",
    )
    watch_poll_interval: float = Field(
        default=2.0,
        ge=0,
        description="When the client cannot watch files, poll the globs every N seconds "
        "(0: never).",
    )

    @field_validator("run_commands", mode="before")
    @classmethod
    def _split_commands(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        import shlex

        return {k: shlex.split(v) if isinstance(v, str) else v for k, v in value.items()}


# Other names accepted for a field (the issue calls the state folder logDir).
_EXTRA_KEYS = {"logDir": "state_dir", "log_dir": "state_dir"}


def parse_settings(raw: Any, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Settings from raw client data; invalid fields fall back, with one message each.

    `raw` may be None, a dict of settings, or `{"faultlens": {...}}`.  Fields not
    present keep their value from `base` (default: the defaults).
    """
    base = base or Settings()
    if raw is None:
        return base, []
    if isinstance(raw, dict) and isinstance(raw.get("faultlens"), dict):
        raw = raw["faultlens"]
    if not isinstance(raw, dict):
        return base, [f"faultlens: settings must be an object, got {type(raw).__name__}"]
    fields = Settings.model_fields
    names = {(f.alias or n): n for n, f in fields.items()} | {n: n for n in fields}
    names |= _EXTRA_KEYS
    merged: dict[str, Any] = dict(base)
    problems: list[str] = []
    for key, value in raw.items():
        name = names.get(key)
        if name is None:
            continue  # unknown keys are ignored (other versions, other tools)
        try:
            Settings.model_validate({**merged, name: value})
        except ValidationError as exc:
            msg = exc.errors()[0]["msg"]
            problems.append(f"faultlens: setting {key!r}: {msg}; keeping {merged[name]!r}")
            continue
        merged[name] = value
    return Settings.model_validate(merged), problems


def describe() -> list[tuple[str, str, str]]:
    """(camelCase key, default, description) for every setting (docs, tests)."""
    out = []
    defaults = Settings()
    for name, f in Settings.model_fields.items():
        out.append((f.alias or name, repr(getattr(defaults, name)), f.description or ""))
    return out
