"""GitHub Actions workflow commands, within GitHub's per-step limits.

GitHub shows at most 10 error, 10 warning and 10 notice annotations per step
(and 50 per job); the commands past that are dropped without a word.  So
errors come first, at most ten of each kind are annotations, and one notice
says how many more there are; those follow as plain log lines, which the
job's log keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .common import Context, first_line, level

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

PER_STEP = 10  # annotations of one kind GitHub shows per step


def _gh_escape(value: str, prop: bool = False) -> str:
    out = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        out = out.replace(":", "%3A").replace(",", "%2C")
    return out


def _command(r: FailureRecord) -> str:
    props = [f"title={_gh_escape(f'faultlens {r.failure_type.value}', True)}"]
    if r.source_file:
        props.insert(0, f"file={_gh_escape(r.source_file, True)}")
        if r.source_line:
            props.insert(1, f"line={r.source_line}")
            if r.source_column:
                props.insert(2, f"col={r.source_column}")
    return f"::{level(r)} {','.join(props)}::{_gh_escape(_text(r.signal))}\n"


_RUNNER_PREFIXES = ("##[error]", "##[warning]", "##[notice]")


def _text(signal: str) -> str:
    """The signal as an annotation says it: a line of a job log keeps the
    runner's own `##[error]` mark, which the annotation's level already is."""
    for prefix in _RUNNER_PREFIXES:
        if signal.startswith(prefix):
            return signal[len(prefix) :] or signal
    return signal


def _plain(r: FailureRecord) -> str:
    where = r.source_file or "-"
    if r.source_file and r.source_line:
        where += f":{r.source_line}"
    return (
        f"faultlens: {level(r)}: {where}: [{r.failure_type.value}] {first_line(_text(r.signal))}\n"
    )


def render_github(records: Sequence[FailureRecord], ctx: Context) -> str:
    """`::error file=...,line=...::msg` lines, errors first, ten of each kind."""
    # stable: the primary record, then errors first
    ordered = sorted(records, key=lambda r: (not r.primary, level(r) != "error"))
    shown: dict[str, int] = {}
    out: list[str] = []
    rest: list[FailureRecord] = []
    for r in ordered:
        kind = level(r)
        if shown.get(kind, 0) < PER_STEP:
            shown[kind] = shown.get(kind, 0) + 1
            out.append(_command(r))
        else:
            rest.append(r)
    if rest:
        errors = sum(1 for r in rest if level(r) == "error")
        parts = [f"{errors} error{'s' * (errors != 1)}"] if errors else []
        if len(rest) - errors:
            n = len(rest) - errors
            parts.append(f"{n} warning{'s' * (n != 1)}")
        out.append(
            "::notice title=faultlens::"
            + _gh_escape(
                f"{len(rest)} more failures ({', '.join(parts)}) are not annotations: "
                f"GitHub shows {PER_STEP} of each kind per step. They follow in the log."
            )
            + "\n"
        )
        out.extend(_plain(r) for r in rest)
    return "".join(out)
