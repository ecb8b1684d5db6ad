"""Recipe documents: `recipes/<failure_type>.md` (shipped) or the project's
override `<state_dir>/recipes/<failure_type>.md`.

A document starts with TOML front matter between `+++` lines (parsed with the
standard library's tomllib), then Markdown with fixed sections:

    +++
    failure_type = "compile"
    title = "..."
    automatic = true
    steps = ["...", "..."]
    [verify]
    mode = "rerun"        # rerun | single-test | recheck-file | handshake | none
    timeout = 600
    [retry]
    attempts = 1
    backoff = []
    +++
    # Compile
    summary paragraph
    ## What it does / ## Steps / ## Verification / ## When it gives up /
    ## Options left to a human / ## Safety

An override replaces the text; its front matter keys are merged over the
shipped ones (so a project can set `automatic = false` and nothing else).

An override is project configuration read from the state dir, which a
checkout can fill: it is read only when it is a regular file of at most
MAX_OVERRIDE bytes (never through a symlink, never blocking on a FIFO), and a
value whose type differs from the shipped one, or a number out of bounds, is
dropped.  A bad override is reported once and the shipped document is used.
"""

from __future__ import annotations

import math
import tomllib
from importlib import resources
from typing import Any

from faultlens.classifier.taxonomy import FailureType

from . import statefs
from .model import RecipeDoc, StateUnavailable, Workspace

SECTIONS = (
    "What it does",
    "Steps",
    "Verification",
    "When it gives up",
    "Options left to a human",
    "Safety",
)
FRONT_MATTER_KEYS = ("failure_type", "title", "automatic", "steps", "verify", "retry")
MAX_OVERRIDE = 256 * 1024
MAX_TIMEOUT = 24 * 3600.0  # any `*timeout` setting, seconds
MAX_NUMBER = 1e9
MAX_LIST = 64


class RecipeDocError(ValueError):
    """A recipe document is malformed."""


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """(front matter, body) of a document; front matter is `{}` when absent."""
    if not text.startswith("+++"):
        return {}, text
    lines = text.splitlines(keepends=True)
    for i in range(1, len(lines)):
        if lines[i].strip() == "+++":
            try:
                data = tomllib.loads("".join(lines[1:i]))
            except tomllib.TOMLDecodeError as exc:
                raise RecipeDocError(f"bad front matter: {exc}") from exc
            return data, "".join(lines[i + 1 :])
    raise RecipeDocError("front matter is not closed with +++")


def _title_and_summary(body: str) -> tuple[str, str]:
    title, in_summary = "", False
    summary_lines: list[str] = []
    for ln in body.splitlines():
        s = ln.strip()
        if not title and s.startswith("# "):
            title, in_summary = s[2:].strip(), True
            continue
        if in_summary:
            if s.startswith("#"):
                break
            if not s and summary_lines:
                break
            if s:
                summary_lines.append(s)
    return title, " ".join(summary_lines)


def sections(body: str) -> list[str]:
    """The `## ` headings of a body, in order."""
    return [ln[3:].strip() for ln in body.splitlines() if ln.startswith("## ")]


def shipped_text(failure_type: str) -> str:
    return (resources.files("faultlens.recipes") / f"{failure_type}.md").read_text("utf-8")


def parse(failure_type: str, text: str, path: str, overridden: bool = False) -> RecipeDoc:
    front, body = split_front_matter(text)
    title, summary = _title_and_summary(body)
    return RecipeDoc(
        failure_type=failure_type,
        title=str(front.get("title") or title or failure_type),
        summary=summary,
        body_markdown=body.lstrip("\n"),
        front_matter=front,
        path=path,
        overridden=overridden,
    )


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _sane(value: Any, shipped: Any, key: str) -> tuple[Any, list[str]]:
    """An override value made safe to use: (value or None to drop it, problems)."""
    if isinstance(value, dict):
        base = shipped if isinstance(shipped, dict) else {}
        out: dict[str, Any] = {}
        problems: list[str] = []
        for k, v in value.items():
            kept, why = _sane(v, base.get(k), f"{key}.{k}" if key else k)
            problems += why
            if kept is not None:
                out[k] = kept
        return out, problems
    widened = isinstance(shipped, float) and type(value) is int
    if shipped is not None and type(value) is not type(shipped) and not widened:
        return None, [f"{key} must be a {type(shipped).__name__}"]
    if isinstance(value, bool | str):
        return value, []
    if isinstance(value, int | float):
        limit = MAX_TIMEOUT if key.endswith("timeout") else MAX_NUMBER
        if not math.isfinite(value) or not 0 <= value <= limit:
            return None, [f"{key} = {value!r} is out of bounds (0 to {limit:g})"]
        return value, []
    if isinstance(value, list):
        if len(value) > MAX_LIST:
            return None, [f"{key} has more than {MAX_LIST} items"]
        items = []
        for v in value:
            kept, why = _sane(v, None, key)
            if why or isinstance(kept, list | dict):
                return None, [f"{key} holds a value out of bounds"]
            items.append(kept)
        return items, []
    return None, [f"{key} has an unsupported value"]


def _override_text(ws: Workspace, ft: str) -> str | None:
    """The text of the project's override, or None (missing or refused)."""
    rel = f"recipes/{ft}.md"
    try:
        data = statefs.read_state(ws.state, rel, MAX_OVERRIDE)
        return data.decode("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except StateUnavailable:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        why = "not UTF-8" if isinstance(exc, UnicodeDecodeError) else statefs.describe(exc)
        statefs.report(
            f"ignoring the recipe override {rel} in the state dir ({why}): the shipped recipe is used",
            once=f"override:{ws.state_dir}:{rel}",
        )
        return None


def recipe_doc(failure_type: str, ws: Workspace | None = None) -> RecipeDoc:
    """The recipe document of a failure type; the project override wins."""
    ft = FailureType(failure_type).value
    shipped = parse(ft, shipped_text(ft), f"recipes/{ft}.md")
    if ws is None:
        return shipped
    text = _override_text(ws, ft)
    if text is None:
        return shipped
    path = str(ws.state / "recipes" / f"{ft}.md")
    try:
        doc = parse(ft, text, path, overridden=True)
        front, problems = _sane(doc.front_matter, shipped.front_matter, "")
    except (RecipeDocError, RecursionError) as exc:
        why = str(exc) if isinstance(exc, RecipeDocError) else "nested too deeply"
        statefs.report(f"ignoring the recipe override {path}: {why}", once=f"override:{path}")
        return shipped
    if problems:
        statefs.report(
            f"the recipe override {path}: ignoring {'; '.join(problems[:5])}",
            once=f"override-values:{path}:{problems}",
        )
    doc.front_matter = _merge(shipped.front_matter, front)
    if not doc.body_markdown.strip():
        doc.body_markdown = shipped.body_markdown
        doc.summary = shipped.summary
    if not doc.title or doc.title == ft:
        doc.title = shipped.title
    return doc


def setting(doc: RecipeDoc, dotted: str, default: Any) -> Any:
    """A front matter value by dotted key (`verify.timeout`), or `default`."""
    cur: Any = doc.front_matter
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return default
        cur = cur[part]
    return cur
