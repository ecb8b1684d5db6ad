"""Records <-> LSP values (Diagnostic, Hover text, failure listings).  Pure.

Columns are computed in code points and converted to the client's negotiated
position encoding with the document's position codec (or the workspace codec
and the file's text on disk for files that are not open).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls import uris
from pygls.workspace import PositionCodec

from faultlens.classifier.columns import code_point_column
from faultlens.classifier.lazyre import lazy_compile

from .placement import Placement, resolve
from .store import Entry

SOURCE = "faultlens"


def source_of(entry: Entry, *, with_task: bool) -> str:
    """The diagnostic's `source`: `faultlens`, or with the `taskInSource`
    setting `faultlens: <task>` (the store task: the user's task name, the
    command, `log:<file>`), so that VS Code's Problems view can be filtered to
    one task's failures and shows which task each came from."""
    return f"{SOURCE}: {entry.task}" if with_task and entry.task else SOURCE


def is_ours(source: str | None) -> bool:
    """A diagnostic faultlens published (with or without its task in the source)."""
    return source == SOURCE or bool(source and source.startswith(SOURCE + ": "))


_WORD = lazy_compile(r"[\w$]+")
_QUOTED = lazy_compile(r'"(?:[^"\\]|\\.)*"')


class JsonObject(dict[str, Any]):
    """A dict that is already JSON-ready (a record's `to_json()`).

    The server's converter hands it to the JSON encoder as it is: cattrs would
    otherwise walk every nested value of every diagnostic's `data` on each
    publish, which was the largest single cost of publishing a run's
    diagnostics."""


@functools.lru_cache(maxsize=4096)
def path_to_uri(path: Path) -> str:
    """A file URI for an absolute path (cached: every diagnostic and related
    location converts one, and pygls' conversion is slow)."""
    return uris.from_fs_path(str(path)) or path.as_uri()


def uri_to_path(uri: str) -> Path | None:
    """The filesystem path of a file URI (None for other schemes)."""
    fs = uris.to_fs_path(uri)
    return Path(fs) if fs and uri.startswith("file:") else None


def severity(record: FailureRecord) -> T.DiagnosticSeverity:
    """Error for blocking failures, Warning for degraded ones."""
    return (
        T.DiagnosticSeverity.Error
        if record.severity == "blocking"
        else T.DiagnosticSeverity.Warning
    )


def _strip(line: str) -> str:
    return line.rstrip("\r\n")


def code_point_range(p: Placement, lines: Sequence[str]) -> T.Range:
    """The range to underline, in code points, clamped to the text."""
    if not lines:
        return T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=0))
    line = min(p.line, len(lines) - 1)
    text = _strip(lines[line])
    indent = len(text) - len(text.lstrip())
    column = p.column if p.column is None else code_point_column(text, p.column, p.column_unit)
    col = min(column, len(text)) if column is not None else indent
    end_column = p.end_column
    if p.end_line is not None and end_column is not None:
        end_text = _strip(lines[min(p.end_line, len(lines) - 1)])
        end_column = code_point_column(end_text, end_column, p.column_unit)
    if (
        p.end_line is not None
        and end_column is not None
        and (p.end_line > line or (p.end_line == line and end_column > col))
    ):
        end_line = min(p.end_line, len(lines) - 1)
        end_col = min(end_column, len(_strip(lines[end_line])))
    elif p.column is not None and (m := _WORD.match(text, col) or _QUOTED.match(text, col)):
        end_line, end_col = line, m.end()  # the word (or "key") the tool points at
    else:
        end_line, end_col = line, len(text.rstrip())
        if end_col <= col:
            end_col = len(text)
    return T.Range(
        start=T.Position(line=line, character=col), end=T.Position(line=end_line, character=end_col)
    )


def client_range(p: Placement, lines: Sequence[str], codec: PositionCodec) -> T.Range:
    """The range in the client's position encoding.

    On ASCII lines every encoding counts the same as code points, so the
    codec (which walks the line character by character) is skipped there."""
    if p.kind == "log":
        return whole_line(p.line)
    rng = code_point_range(p, lines)
    if not lines or all(lines[n].isascii() for n in {rng.start.line, rng.end.line}):
        return rng
    return codec.range_to_client_units(lines, rng)


def whole_line(line: int) -> T.Range:
    """A line, start to the start of the next: the place of a failure shown on
    its output line (no need to read the log, which may still be being saved)."""
    return T.Range(
        start=T.Position(line=line, character=0), end=T.Position(line=line + 1, character=0)
    )


def line_range(line: int) -> T.Range:
    """A whole-line range start (used for places in files whose text is not read)."""
    return T.Range(start=T.Position(line=line, character=0), end=T.Position(line=line, character=0))


def message(record: FailureRecord) -> str:
    """The diagnostic message: the failure, not the fix (the signal or message)."""
    text = record.message or record.signal
    if record.affected > 1:
        text = f"{text} ({record.affected} tests affected)"
    if record.task and not record.task.startswith(("run:", "log:", "ingest:")):
        text = f"{text} [{record.task}]"
    return text or record.failure_type


def _range_json(rng: T.Range) -> dict[str, Any]:
    return {
        "start": {"line": rng.start.line, "character": rng.start.character},
        "end": {"line": rng.end.line, "character": rng.end.character},
    }


def _line_json(line: int) -> dict[str, Any]:
    start = {"line": line, "character": 0}
    return {"start": start, "end": start}


def diagnostic_json(
    entry: Entry,
    lines: Sequence[str],
    codec: PositionCodec,
    *,
    recipe_href: str | None,
    task_in_source: bool = False,
) -> JsonObject:
    """The LSP diagnostic of one placed entry, as the JSON sent to the client.

    Built as plain data: a run's publish carries every diagnostic of every file
    it touched, and building lsprotocol objects only for cattrs to take them
    apart again was half the cost of publishing."""
    assert entry.placement is not None
    rec = entry.record
    related: list[dict[str, Any]] = []
    if rec.log_file and rec.log_line and entry.placement.kind != "log":
        related.append(
            {
                "location": {
                    "uri": path_to_uri(resolve(rec.log_file, entry.cwd)),
                    "range": _line_json(rec.log_line - 1),
                },
                "message": f"output line {rec.log_line}",
            }
        )
    for loc in rec.related:
        if not loc.file or loc.file.startswith("/"):
            continue  # outside the run's folder (stdlib, site-packages): noise in the editor
        text = loc.message or "related"
        related.append(
            {
                "location": {
                    "uri": path_to_uri(resolve(loc.file, entry.cwd)),
                    "range": _line_json((loc.line or 1) - 1),
                },
                "message": f"affected test {loc.test}: {text}" if loc.test else text,
            }
        )
    out = JsonObject(
        range=_range_json(client_range(entry.placement, lines, codec)),
        message=message(rec),
        severity=int(severity(rec)),
        code=rec.failure_type,
    )
    if recipe_href:
        out["codeDescription"] = {"href": recipe_href}
    out["source"] = source_of(entry, with_task=task_in_source)
    if related:
        out["relatedInformation"] = related
    out["data"] = JsonObject(rec.to_json())
    return out


def diagnostic(
    entry: Entry,
    lines: Sequence[str],
    codec: PositionCodec,
    *,
    recipe_href: str | None,
    task_in_source: bool = False,
) -> T.Diagnostic:
    """The LSP diagnostic of one placed entry (for hover, code actions, pull)."""
    return structure_diagnostic(
        diagnostic_json(entry, lines, codec, recipe_href=recipe_href, task_in_source=task_in_source)
    )


def structure_diagnostic(data: JsonObject) -> T.Diagnostic:
    """The lsprotocol object of a diagnostic built as JSON."""
    return _converter().structure(data, T.Diagnostic)  # type: ignore[no-any-return]


@functools.cache
def _converter() -> Any:
    from lsprotocol.converters import get_converter

    return get_converter()


def record_from_data(data: Any) -> FailureRecord | None:
    """The record a client echoed back in `Diagnostic.data` (None when absent or bad)."""
    if not isinstance(data, dict):
        return None
    from faultlens.classifier.record import FailureRecord

    try:
        return FailureRecord.from_json(data)
    except ValueError:
        return None


def listing(entry: Entry) -> dict[str, Any]:
    """One failure for the `faultlens/failures` answer: the record plus where it is shown."""
    out: dict[str, Any] = {"record": entry.record.to_json(), "task": entry.task}
    p = entry.placement
    if p is not None:
        out["uri"] = path_to_uri(p.path)
        out["line"] = p.line
        out["shownAt"] = p.kind
    else:
        out["uri"] = None
        out["line"] = None
        out["shownAt"] = None
    return out


def hover_markdown(
    record: FailureRecord,
    *,
    summary: str | None,
    attempts: int | None,
    box: str | None,
    retries: str | None = None,
    history: str | None = None,
    state: str | None = None,
) -> str:
    """The hover text of one failure (Markdown).  `history`: "seen 5× since 2
    Dec; flaky 2 of 5" (recipes/history.py); `state`: how its attempt settled,
    as the ledger says (else the record's own result)."""
    auto = record.auto_recoverable
    auto_text = "yes" if auto is True else "no" if auto is False else "partial"
    parts = [
        f"**faultlens · {record.failure_type}** · {record.severity} · auto-recoverable: {auto_text}",
        "",
        f"Signal: `{_code(record.signal)}`",
    ]
    if record.tool or record.code:
        parts.append(f"Tool: {record.tool or '?'} {record.code or ''}".rstrip())
    tests = affected_tests(record)
    if tests:
        parts.append(tests)
    if record.triage is not None:
        why = f" — {_code(record.triage.reason)}" if record.triage.reason else ""
        parts.append(f"Triage: **{record.triage.verdict.replace('_', ' ')}**{why}")
    if history:
        parts.append(f"History: {history}")
    if summary:
        parts += ["", f"Recipe: {summary}"]
    if attempts is not None:
        line = f"Attempts so far: {attempts} of 1"
        settled = state or record.recovery_result
        if settled:
            line += f" ({settled})"
        parts += ["", line]
    if retries:
        parts.append(retries)
    if box:
        parts += ["", "```text", box.rstrip("\n"), "```"]
    return "\n".join(parts)


def affected_tests(record: FailureRecord, shown: int = 5) -> str:
    """ "60 tests affected: `test_a`, `test_b`, …" for a record of one cause
    that failed many tests (empty for one test)."""
    if record.affected < 2:
        return ""
    names = [loc.test for loc in record.related if loc.test]
    listed = ", ".join(f"`{_code(n)}`" for n in names[:shown])
    more = ", …" if record.affected > min(len(names), shown) else ""
    return f"{record.affected} tests affected" + (f": {listed}{more}" if listed else "")


def _code(text: str) -> str:
    return text.replace("`", "'").replace("\n", " ")[:300]
