"""cargo and rustc JSON diagnostics (`--message-format=json`,
`--error-format=json`): structured, so preferred over the rendered text."""

from __future__ import annotations

import json
import re
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

_NAME = lazy_compile(
    r"^cannot find (?:value|type|function|struct|macro|trait|crate|module) `(?P<name>[^`]+)`"
)


def _spans(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in d.get("spans") or [] if isinstance(s, dict)]


def _suggestions(message: dict[str, Any]) -> list[dict[str, Any]]:
    """rustc's suggested replacements, each with its span and applicability."""
    out = []
    for child in message.get("children") or []:
        if not isinstance(child, dict):
            continue
        for s in _spans(child):
            if s.get("suggested_replacement") is None:
                continue
            out.append(
                {
                    "message": child.get("message", ""),
                    "file": s.get("file_name"),
                    "line": s.get("line_start"),
                    "column": s.get("column_start"),
                    "end_line": s.get("line_end"),
                    "end_column": s.get("column_end"),
                    "replacement": s.get("suggested_replacement"),
                    "applicability": s.get("suggestion_applicability"),
                }
            )
    return out


def _diagnostic(d: dict[str, Any]) -> dict[str, Any] | None:
    """The rustc diagnostic of a cargo message line, or of a bare rustc line."""
    if d.get("reason") == "compiler-message":
        m = d.get("message")
        return m if isinstance(m, dict) else None
    return d if "level" in d and "spans" in d else None


@rule(
    id="cargo_json.compiler_message",
    category=FailureType.COMPILE,
    tool="rustc",
    pattern=r'^\{.*"(?:reason":"compiler-message|\$message_type":"diagnostic)".*\}\s*$',
    triggers=('"reason":"compiler-message"', '"$message_type":"diagnostic"'),
    url="https://doc.rust-lang.org/cargo/reference/external-tools.html#json-messages",
    priority=10,
)
def compiler_message(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A rustc error delivered as a JSON message by cargo or rustc.

    What it detects: cargo's `{"reason":"compiler-message",...}` lines (and
    rustc's own `--error-format=json` lines) whose level is `error` or
    `error: internal compiler error`; warnings and the `failure-note`
    summaries are not failures.  The primary span gives the location; every
    child with a `suggested_replacement` goes into hint["suggestions"] with
    its span and applicability, so the compile recipe can apply the ones
    rustc marks MachineApplicable.

    Example output (`cargo build --message-format=json`, cargo 1.95.0):
        {"reason":"compiler-message",...,"message":{"level":"error","code":{"code":"E0425"},
         "message":"cannot find value `subtotl` in this scope","spans":[{"file_name":"src/main.rs",
         "line_start":3,"column_start":5,...}],"children":[{"message":"a local variable with a
         similar name exists","spans":[{"suggested_replacement":"subtotal",...}]}]}}

    Recipe: compile (rustc's own suggestions first).

    References: https://doc.rust-lang.org/rustc/json.html
    """
    try:
        data = json.loads(ctx.line)
    except ValueError:
        return None
    diag = _diagnostic(data) if isinstance(data, dict) else None
    if not diag or not str(diag.get("level", "")).startswith("error"):
        return None
    message = str(diag.get("message") or "")
    code_obj = diag.get("code")
    code = code_obj.get("code") if isinstance(code_obj, dict) else None
    spans = _spans(diag)
    primary = next((s for s in spans if s.get("is_primary")), spans[0] if spans else None)
    hint: dict[str, Any] = {}
    suggestions = _suggestions(diag)
    if suggestions:
        hint["suggestions"] = suggestions
        if len(suggestions) == 1 and isinstance(suggestions[0]["replacement"], str):
            hint["suggestion"] = suggestions[0]["replacement"]
    name = _NAME.match(message)
    if name:
        hint["name"] = name.group("name")
    rendered = str(diag.get("rendered") or "")
    signal = rendered.splitlines()[0] if rendered else f"error[{code}]: {message}"
    related = [
        (
            str(s.get("file_name")),
            s.get("line_start"),
            s.get("column_start"),
            str(s.get("label") or ""),
        )
        for s in spans
        if s is not primary and s.get("file_name")
    ]
    return Hit(
        signal=signal,
        message=message,
        file=str(primary.get("file_name")) if primary else None,
        line=primary.get("line_start") if primary else None,
        column=primary.get("column_start") if primary else None,
        end_line=primary.get("line_end") if primary else None,
        end_column=primary.get("column_end") if primary else None,
        code=code,
        hint=hint,
        related=related,
    )
