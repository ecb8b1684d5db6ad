"""Code actions for failures: what is offered, and the lazily computed edits.

No pygls here beyond lsprotocol types; the recipe engine decides what can be
done (`availability`, `plan`, `mark_reviewed`, `conflict_hunks`), this module
turns its answers into `CodeAction`s.  Heavy work (reading files, the ledger)
happens in the caller's worker thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as T
from pygls.workspace import PositionCodec

from . import protocol as P
from .convert import path_to_uri

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import Plan, Refusal, ResolvableHunk, TextEdit, Workspace

QUICKFIX = T.CodeActionKind.QuickFix

# (lines, codec, version) of a file: the open document, or the text on disk
TextSource = Callable[[Path], tuple[Sequence[str], PositionCodec, int | None]]


@dataclass(slots=True)
class Offer:
    """What the engine says about one failure (computed off the event loop)."""

    record: FailureRecord
    store_task: str
    plan: Plan | Refusal | None
    enabled: bool
    reason: str | None
    attempts: int
    retries_used: int
    max_retries: int
    escalated: bool
    revert: str | None = None  # the files an applied fix changed, when it can be reverted


def default_task(record: FailureRecord) -> str:
    """The task the ledger knows a record under."""
    from faultlens.recipes.model import DEFAULT_TASK

    return record.task or DEFAULT_TASK


def offer(
    record: FailureRecord,
    store_task: str,
    ws: Workspace,
    command: list[str] | None = None,
    cwd: str | None = None,
) -> Offer:
    """Ask the engine about a record (ledger lookup + plan).  Blocking: run in a thread."""
    from faultlens.recipes import availability, plan

    avail = availability(record, ws)
    p: Plan | Refusal | None = None
    if avail.offered and record.failure_type != "trust_gate":
        p = plan(record, ws, command=command, cwd=cwd)
    escalated = record.recovery_result == "escalated" or (avail.attempts > 0 and not avail.enabled)
    revert_files = _revertable(record, ws) if escalated else None
    return Offer(
        record=record,
        store_task=store_task,
        plan=p,
        enabled=avail.enabled,
        reason=avail.reason,
        attempts=avail.attempts,
        retries_used=avail.task_retries_used,
        max_retries=avail.max_task_retries,
        escalated=escalated,
        revert=revert_files,
    )


def _revertable(record: FailureRecord, ws: Workspace) -> str | None:
    """The files of the applied fix of `record` that a revert would restore."""
    from faultlens.recipes import Ledger, revert

    applied = revert.revertable(Ledger.open(ws), record.id)
    return (
        ", ".join(applied.files[:3]) + ("…" if len(applied.files) > 3 else "") if applied else None
    )


def _disabled(reason: str | None) -> T.CodeActionDisabled:
    return T.CodeActionDisabled(reason=reason or "not available")


def build(
    o: Offer, diagnostic: T.Diagnostic | None, *, disabled_support: bool
) -> list[T.CodeAction]:
    """The code actions for one failure."""
    from faultlens.recipes import Plan
    from faultlens.recipes.planners.trust_gate import is_policy_refusal

    rec = o.record
    diags = [diagnostic] if diagnostic is not None else None
    out: list[T.CodeAction] = []
    if rec.failure_type == "trust_gate" and not is_policy_refusal(rec):
        out.append(
            T.CodeAction(
                title="faultlens: mark reviewed (allow-list this finding)",
                kind=QUICKFIX,
                diagnostics=diags,
                data={"kind": "review", "failureId": rec.id},
            )
        )
    elif isinstance(o.plan, Plan):
        action = T.CodeAction(
            title=f"faultlens: {o.plan.title}",
            kind=QUICKFIX,
            diagnostics=diags,
            is_preferred=(rec.auto_recoverable is True and o.enabled) or None,
            data={"kind": "recipe", "failureId": rec.id},
        )
        if not o.enabled:
            action.disabled = _disabled(o.reason)
            action.data = None
            action.is_preferred = None
        out.append(action)
    elif o.plan is not None:  # a Refusal
        out.append(
            T.CodeAction(
                title=f"faultlens: recover ({rec.failure_type})",
                kind=QUICKFIX,
                diagnostics=diags,
                disabled=_disabled(o.plan.reason),
            )
        )
    if o.escalated and o.revert:
        out.append(
            T.CodeAction(
                title=f"faultlens: revert the fix ({o.revert})",
                kind=QUICKFIX,
                diagnostics=diags,
                command=T.Command(
                    title="Revert the fix", command=P.CMD_REVERT, arguments=[{"failureId": rec.id}]
                ),
            )
        )
    if o.escalated:
        out += task_actions(o, diags)
    return [a for a in out if disabled_support or a.disabled is None]


def task_actions(o: Offer, diags: list[T.Diagnostic] | None) -> list[T.CodeAction]:
    """The seed's options on an escalated failure: retry task / skip / stop."""
    task = default_task(o.record)
    args = {"task": task, "storeTask": o.store_task, "failureId": o.record.id}
    retry = T.CodeAction(
        title=f"faultlens: retry task {task} ({o.retries_used} of {o.max_retries} retries used)",
        kind=QUICKFIX,
        diagnostics=diags,
        command=T.Command(title="Retry task", command=P.CMD_RETRY, arguments=[args]),
    )
    if o.retries_used >= o.max_retries:
        retry.disabled = _disabled(
            f"{o.retries_used} of {o.max_retries} retries used: a human must decide"
        )
    return [
        retry,
        T.CodeAction(
            title=f"faultlens: skip task {task}",
            kind=QUICKFIX,
            diagnostics=diags,
            command=T.Command(title="Skip task", command=P.CMD_SKIP, arguments=[args]),
        ),
        T.CodeAction(
            title=f"faultlens: stop at task {task}",
            kind=QUICKFIX,
            diagnostics=diags,
            command=T.Command(title="Stop", command=P.CMD_STOP, arguments=[args]),
        ),
    ]


def conflict_actions(uri: str, hunks: Sequence[ResolvableHunk], line: int) -> list[T.CodeAction]:
    """accept current / incoming / both for the conflict hunk around `line` (0-based)."""
    out: list[T.CodeAction] = []
    for h in hunks:
        if not (h.start_line <= line <= h.end_line):
            continue
        for choice in ("current", "incoming", "both"):
            out.append(
                T.CodeAction(
                    title=f"faultlens: accept {choice}",
                    kind=QUICKFIX,
                    data={"kind": "conflict", "uri": uri, "line": h.start_line, "choice": choice},
                )
            )
    return out


def workspace_edit(edits: Sequence[TextEdit], root: Path, text_of: TextSource) -> T.WorkspaceEdit:
    """Recipe edits (root-relative paths, code-point columns) as an LSP WorkspaceEdit."""
    changes: list[T.TextDocumentEdit | T.CreateFile | T.RenameFile | T.DeleteFile] = []
    by_path: dict[Path, list[TextEdit]] = {}
    for e in edits:
        by_path.setdefault(root / e.path, []).append(e)
    for path, file_edits in by_path.items():
        uri = path_to_uri(path)
        if not path.exists():
            changes.append(
                T.CreateFile(uri=uri, options=T.CreateFileOptions(ignore_if_exists=True))
            )
            lines: Sequence[str] = []
            codec = PositionCodec()
            version = None
        else:
            lines, codec, version = text_of(path)
        lsp_edits: list[T.TextEdit | T.AnnotatedTextEdit | T.SnippetTextEdit] = []
        for e in file_edits:
            rng = T.Range(
                start=T.Position(line=e.start_line, character=e.start_col),
                end=T.Position(line=e.end_line, character=e.end_col),
            )
            lsp_edits.append(
                T.TextEdit(
                    range=codec.range_to_client_units(lines, rng) if lines else rng,
                    new_text=e.new_text,
                )
            )
        changes.append(
            T.TextDocumentEdit(
                text_document=T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                edits=lsp_edits,
            )
        )
    return T.WorkspaceEdit(document_changes=changes)


def action_data(
    action: T.CodeAction,
) -> P.RecipeActionData | P.ReviewActionData | P.ConflictActionData | None:
    """The validated data of an action being resolved: None for actions that
    need nothing (no faultlens data), an Invalid Params error for data that
    claims a faultlens kind but is malformed (a client may send anything)."""
    data = action.data
    if not isinstance(data, dict) or data.get("kind") not in P.ACTION_KINDS:
        return None
    return P.parse_action_data(data)
